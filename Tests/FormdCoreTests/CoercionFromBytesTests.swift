import FormdTestSupport
import Testing
@testable import FormdCore

/// `CoercionRule.coerceSent` decides a string sent without escapes from its bytes, where that is
/// quick, and must decide only what `coerce` decides for the string.
@Suite struct CoercionFromBytesTests {
    /// Strings, from their bytes between the quotes.
    @Test func coercionFromBytesIsTheValuesCoercion() {
        let kinds: [FieldKind] = [.text, .name, .password, .custom, .email, .date, .select, .float, .number, .count, .switch, .time]
        let formatters: [InputFormatter?] = [nil] + InputFormatter.allCases
        let texts = [
            "", " ", "  \t", "\n", "Ada", " Ada", "Ada ", "a@b.no", "a@b", "@b.no", "a b@c.no", "a,b@c.no", "2025-02-28", "2025-02-30",
            "2025-2-28", "0000-01-01", "12 34", "12.34", "1.234,5", "true", "x\u{7F}", "\u{7F}", "~", "!",
        ]
        var decided = 0
        for kind in kinds {
            for formatter in formatters {
                let rule = CoercionRule(kind: kind, formatter: formatter)
                for text in texts {
                    let fromBytes = Array(text.utf8).withUnsafeBufferPointer { rule.coerceSent(utf8: $0) }
                    guard let fromBytes else { continue }
                    decided += 1
                    #expect(fromBytes == rule.coerce(.string(text), options: []), "\(kind) \(String(describing: formatter)) \(text)")
                }
            }
        }
        #expect(decided > 300)
    }

    /// Numbers, `true` and `false`, from their JSON text (`CoercionRule.coerceSentScalar`).
    @Test func scalarCoercionFromTextIsTheValuesCoercion() throws {
        let kinds: [FieldKind] = [.text, .email, .date, .select, .float, .number, .count, .switch, .time, .multiSelect]
        let numbers = [
            "0", "-0", "7", "-7", "10", "1.5", "-1.5", "1.50", "25000.50", "25000.5", "-0.0", "0.10", "0.0001", "1e3", "1E+2",
            "-2.5e-3", "100", "123456789012345678", "1234567890123456789", "-123456789012345678", "12345678901234567890123.450",
            "9" + String(repeating: "0", count: 63), "9" + String(repeating: "0", count: 64), "1." + String(repeating: "5", count: 70),
        ]
        var decided = 0
        for kind in kinds {
            for formatter in [nil] + InputFormatter.allCases {
                let rule = CoercionRule(kind: kind, formatter: formatter)
                for text in numbers + ["true", "false", "null"] {
                    let value: JSONValue =
                        switch text {
                        case "true": .bool(true)
                        case "false": .bool(false)
                        case "null": .null
                        default: .number(JSONNumber(literal: text))
                        }
                    guard let fromText = Array(text.utf8).withUnsafeBufferPointer({ rule.coerceSentScalar(utf8: $0) }) else { continue }
                    decided += 1
                    #expect(fromText == rule.coerce(value, options: []), "\(kind) \(String(describing: formatter)) \(text)")
                }
            }
        }
        #expect(decided > 100)
    }
}
