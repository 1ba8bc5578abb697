import Testing
@testable import FormdCore

/// SEMANTICS §2: a submitted value chooses the option whose id it is; the relaxations for HTML
/// posts (`"1"` for `1`, `"true"` for `true`) apply only when no id is exactly it.
@Suite struct OptionMatchingTests {
    static let form = Engine.fields(
        #"{"id": "a", "type": "select", "values": [{"id": 1}, {"id": "01"}]}"#,
        #"{"id": "b", "type": "select", "values": [{"id": "1"}, {"id": "2"}]}"#,
        #"{"id": "c", "type": "segment", "values": [{"id": 1}, {"id": "1"}]}"#)

    @Test func exactIdsWinOverRelaxedMatches() throws {
        let form = try Engine.load(Self.form)
        func chosen(_ values: String) throws -> [String] {
            let r = try Engine.run(form, values, mode: .validate)
            #expect(r.errors.isEmpty, "\(values): \(r.errorList)")
            return ["a", "b", "c"].compactMap { r.text($0) }
        }
        #expect(try chosen(#"{"a": "01"}"#) == [#""01""#])
        #expect(try chosen(#"{"a": 1}"#) == ["1"])
        #expect(try chosen(#"{"a": "1"}"#) == ["1"], "no \"1\" option: the relaxed match")
        #expect(try chosen(#"{"c": "1"}"#) == [#""1""#])
        #expect(try chosen(#"{"c": 1}"#) == ["1"])
        #expect(try Engine.run(form, #"{"b": 1}"#, mode: .validate).codes("b") == ["type"], "a string id is only that string")
    }

    @Test func checkWarnsAboutIdsThatMatchTheSameValues() {
        let warnings = Engine.warnings(Self.form).map(\.message)
        #expect(warnings.count == 5, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix(#"option ids 1 and "01" both match"#) })
        #expect(warnings.contains { $0.hasPrefix(#"option ids 1 and "1" both match"#) })
        #expect(warnings.contains { $0.hasPrefix(#"option id "1" is a string that reads as a number"#) }, "field b")
    }
}
