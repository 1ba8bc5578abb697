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
}
