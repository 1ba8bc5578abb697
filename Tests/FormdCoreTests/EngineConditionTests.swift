import Testing
@testable import FormdCore

/// SEMANTICS §5.1: conditions, observed through a conditional `hide` target.
@Suite struct EngineConditionTests {
    static let fields = [
        #"{"id": "first_name", "type": "name"}"#, #"{"id": "last_name", "type": "name"}"#,
        #"{"id": "display_name", "type": "text"}"#,
        #"{"id": "username", "type": "select", "values": [{"id": 0, "default": true}, {"id": 1}]}"#,
        #"{"id": "base_salary", "type": "select", "values": [{"id": 150, "value": 10}, {"id": 200}]}"#,
        #"{"id": "bonus_enabled", "type": "select", "values": [{"id": true}, {"id": false}]}"#,
        #"{"id": "amount", "type": "float"}"#, #"{"id": "phone", "type": "number"}"#,
        #"{"id": "on", "type": "switch"}"#, #"{"id": "when", "type": "date"}"#,
    ]
    static let d27 = #"{"first_name": "Frank", "last_name": "Underwood", "display_name": "", "username": null, "base_salary": 150, "bonus_enabled": true, "amount": 2.50, "phone": "0047", "on": true}"#

    /// Whether `condition` holds against `values`.
    private func holds(_ condition: String, _ values: String = d27) throws -> Bool {
        let escaped = condition.replacingOccurrences(of: "\"", with: "\\\"")
        let src = "{\"id\": \"src\", \"type\": \"text\", \"value\": \"x\", \"targets\": [{\"id\": \"out\", \"type\": \"field\", \"action\": \"hide\", \"condition\": \"\(escaped)\"}]}"
        let def = "[{\"sections\": [{\"id\": \"s\", \"fields\": [" + (Self.fields + [src, #"{"id": "out", "type": "text"}"#]).joined(separator: ",") + "]}]}]"
        let r = try Engine.run(def, values)
        // `as Bool?` says "unwrap" to #require (an optional Bool is otherwise ambiguous).
        return try #require(r.visible("out") as Bool?, "out is listed in fields") == false
    }

    @Test(arguments: [
        // Test D27, with SEMANTICS' numeric `equals` (its last two expectations flip).
        ("present($first_name)", true), ("present($last_name)", true), ("present($display_name)", false),
        ("missing($first_name)", false), ("missing($last_name)", false), ("missing($display_name)", true),
        ("equals($first_name, \"Claire\")", false), ("equals($last_name, \"Underwood\")", true),
        ("equals($username, \"Francis\")", false), ("equals($base_salary, 150)", true),
        ("equals($bonus_enabled, 1)", true), ("equals($username, 0)", true),
        ("equals($amount, 2.5, 2.50)", true), ("equals($display_name, $display_name)", false),
        ("!present($display_name)", true), ("present($display_name) == !missing($display_name)", true),
    ])
    func d27Functions(condition: String, expected: Bool) throws {
        #expect(try holds(condition) == expected, "\(condition)")
    }

    @Test(arguments: [
        ("$amount == 2.5", true), ("$amount > 2", true), ("$amount <= 2.5 && $amount >= 2.5", true),
        ("$amount * 2 == 5", true), ("$amount / 2 == 1.25", true), ("7 / 2 == 3.5", true), ("7 % 2 == 1", true),
        ("$on == 1", true), ("$on == 0", false), ("$bonus_enabled == 1", true), ("$username == 0", true),
        ("$phone == 47", true), ("$phone == \"0047\"", true), ("$phone == \"47\"", true), ("$first_name == \"frank\"", false), ("$first_name == \"Frank\"", true),
        ("$first_name != \"Claire\"", true), ("$first_name == 'Frank'", true),
        ("$base_salary == 150", true), ("max($amount, 3) == 3", true), ("abs(-$amount) == 2.5", true),
        ("round(2.5) == 3", true), ("floor($amount) == 2 || 1 == 0", true), ("(1 < 2) && !(2 < 1)", true),
        ("0.1 + 0.2 == 0.3", true),
    ])
    func comparisonsAndArithmetic(condition: String, expected: Bool) throws {
        #expect(try holds(condition) == expected, "\(condition)")
    }

    @Test(arguments: [
        // A comparison with a missing operand is false, either way round.
        "$display_name == 0", "$display_name != 0", "$display_name < 1", "$when != \"x\"",
        // Any run-time failure makes the whole condition false, whatever surrounds it.
        "1 / 0 == 1 || 1 == 1", "!(1 / 0 == 1)", "!($first_name + 1 == 2)", "$display_name + 1 > 0 || 1 == 1",
    ])
    func missingAndFailuresAreFalse(condition: String) throws {
        #expect(try holds(condition) == false, "\(condition)")
    }

    @Test func hiddenFieldCountsAsMissing() throws {
        let values = #"{"first_name": "Frank", "username": 1}"#
        #expect(try holds("present($first_name)", values))
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "hidden": true}"#,
            #"{"id": "src", "type": "text", "value": "x", "targets": [{"id": "out", "type": "field", "action": "hide", "condition": "missing($a)"}]}"#,
            #"{"id": "out", "type": "text"}"#)
        let r = try Engine.run(def, #"{"a": "set"}"#)
        #expect(r.visible("out") == false)
        #expect(r.dropped == ["a:hidden"])
    }
}
