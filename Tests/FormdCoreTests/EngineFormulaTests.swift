import Testing
@testable import FormdCore

/// SEMANTICS §4: formulas.
@Suite struct EngineFormulaTests {
    /// The value of a formula field of `type` with `formula`, over the given extra fields and values.
    private func compute(
        _ formula: String, type: String = "float", fields: [String] = [], values: String = "{}"
    ) throws -> String? {
        let f = "{\"id\": \"r\", \"type\": \"\(type)\", \"formula\": \"\(formula)\"}"
        let def = "[{\"sections\": [{\"id\": \"s\", \"fields\": [" + (fields + [f]).joined(separator: ",") + "]}]}]"
        return try Engine.run(def, values).text("r")
    }

    @Test(arguments: [
        ("0.1 + 0.2", "0.3"), ("7 / 2", "3.5"), ("10 / 3", "3.33333333333333"), ("sqrt(2)", "1.4142135623731"),
        ("2 - 5", "-3"), ("-(2 + 3) * 2", "-10"), ("7 % 3", "1"), ("2 * 3 + 4", "10"), ("2 * (3 + 4)", "14"),
        ("min(3, 1, 2)", "1"), ("max(3, 1, 2)", "3"), ("abs(-4.5)", "4.5"), ("floor(2.7)", "2"), ("ceil(2.1)", "3"),
        ("floor(-2.5)", "-3"), ("pow(2, 10)", "1024"), ("sqrt(9)", "3"),
        ("round(2.5)", "3"), ("round(-2.5)", "-3"), ("round(1.005, 2)", "1.01"), ("round(1.2345, 3)", "1.235"),
        ("round(-1.5)", "-2"), ("1.10 + 1.20", "2.3"), ("100 * 3", "300"),
    ])
    func arithmetic(formula: String, expected: String) throws {
        #expect(try compute(formula) == expected, "\(formula)")
    }

    @Test(arguments: ["1 / 0", "5 % 0", "sqrt(-1)"])
    func failureIsNoValue(formula: String) throws {
        #expect(try compute(formula) == nil)
    }

    @Test func variablesWithAndWithoutDollarAndRepeated() throws {
        let fields = [#"{"id": "a", "type": "float"}"#, #"{"id": "b", "type": "float"}"#]
        #expect(try compute("$a + b", fields: fields, values: #"{"a": -1.5, "b": 4}"#) == "2.5")
        #expect(try compute("a * a - $a", fields: fields, values: #"{"a": 3}"#) == "6")
        #expect(try compute("a + b", fields: fields, values: #"{"a": 2}"#) == "2")  // missing operand is 0
    }

    @Test func selectContributesOptionValueAndSwitchOneOrZero() throws {
        let fields = [
            #"{"id": "base_salary", "type": "select", "values": [{"id": 0, "value": 100.0}, {"id": 1, "value": 200.0}, {"id": 2}]}"#,
            #"{"id": "bonus", "type": "float"}"#, #"{"id": "on", "type": "switch"}"#,
        ]
        #expect(try compute("base_salary + bonus", fields: fields, values: #"{"base_salary": 1, "bonus": 100}"#) == "300")
        #expect(try compute("base_salary + on", fields: fields, values: #"{"base_salary": "0", "on": true}"#) == "101")
        #expect(try compute("base_salary + 1", fields: fields, values: #"{"base_salary": 2}"#) == "1")  // option without value: 0
    }

    @Test func hiddenOperandContributesZero() throws {
        let fields = [#"{"id": "a", "type": "float", "hidden": true}"#, #"{"id": "b", "type": "float"}"#]
        #expect(try compute("a + b", fields: fields, values: #"{"a": 5, "b": 1}"#) == "1")
    }

    @Test func resultTakesTheFieldKind() throws {
        #expect(try compute("5 / 2", type: "count") == "3")
        #expect(try compute("-5 / 2", type: "count") == "-3")
        #expect(try compute("7 / 3", type: "count") == "2")
        #expect(try compute("40 + 2", type: "number") == "\"42\"")
        #expect(try compute("1 - 2", type: "number") == nil)
        #expect(try compute("1 / 2", type: "number") == nil)
        #expect(try compute("1 / 4", type: "float") == "0.25")
        #expect(try compute("0.0000001 * 1", type: "float") == "0.0000001")
    }

    @Test func textTemplates() throws {
        let fields = [#"{"id": "first_name", "type": "name"}"#, #"{"id": "last_name", "type": "name"}"#,
                      #"{"id": "total", "type": "float"}"#]
        let v = #"{"first_name": "Elvis", "last_name": "Nunez", "total": 1.50}"#
        #expect(try compute("first_name last_name", type: "text", fields: fields, values: v) == "\"Elvis Nunez\"")
        #expect(try compute("Mr first_name", type: "text", fields: fields, values: v) == "\"Mr Elvis\"")
        #expect(try compute("$first_name!", type: "text", fields: fields, values: v) == "\"Elvis!\"")
        #expect(try compute("Sum: total", type: "text", fields: fields, values: v) == "\"Sum: 1.5\"")
        #expect(try compute("first_name last_name", type: "text", fields: fields, values: #"{"last_name": "Nunez"}"#) == "\" Nunez\"")
        #expect(try compute("first_name last_name", type: "text", fields: fields) == nil)
    }

    @Test(arguments: [("300.0", "\"300\""), ("1.50", "\"1.5\""), ("0.30", "\"0.3\""), ("1e-07", "\"0.0000001\""), ("2E3", "\"2000\"")])
    func numbersAsTextAreShortest(input: String, expected: String) throws {
        let fields = [#"{"id": "x", "type": "float"}"#]
        #expect(try compute("x", type: "text", fields: fields, values: "{\"x\": \(input)}") == expected)
    }

    @Test func formulasUseFormulasInDependencyOrder() throws {
        let def = Engine.fields(
            #"{"id": "total", "type": "float", "formula": "subtotal * 2"}"#,
            #"{"id": "subtotal", "type": "float", "formula": "a + 1"}"#,
            #"{"id": "a", "type": "float"}"#)
        let r = try Engine.run(def, #"{"a": 2}"#)
        #expect(r.text("subtotal") == "3")
        #expect(r.text("total") == "6")
    }

    @Test func submittedFormulaValueIsReplaced() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "float"}"#, #"{"id": "t", "type": "float", "formula": "a * 100"}"#,
            #"{"id": "c", "type": "count", "formula": "a * 100"}"#)
        var r = try Engine.run(def, #"{"a": 3, "t": 5, "c": "299"}"#)
        #expect(r.text("t") == "300")
        #expect(r.dropped == ["t:computed", "c:computed"])
        // The same number written differently is not a replacement.
        r = try Engine.run(def, #"{"a": 3, "t": 300.0, "c": "300"}"#)
        #expect(r.text("t") == "300")
        #expect(r.text("c") == "300")
        #expect(r.dropped == [])
    }

    @Test func updateTargetOnFormulaFieldDoesNothing() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "float", "targets": [{"id": "t", "type": "field", "action": "update", "target_value": 9}]}"#,
            #"{"id": "t", "type": "float", "formula": "a + 1"}"#)
        let r = try Engine.run(def, #"{"a": 1}"#, changed: ["a"])
        #expect(r.text("t") == "2")
        #expect(r.actions == [])
    }

    @Test func aggregates() throws {
        let def = #"""
            {"groups": [{"sections": [{"id": "tickets", "type": "dynamic"}, {"id": "s", "fields": [
                {"id": "sum", "type": "float", "formula": "sum(tickets[*].total)"},
                {"id": "count", "type": "count", "formula": "count(tickets[*].total)"},
                {"id": "avg", "type": "float", "formula": "avg(tickets[*].total)"},
                {"id": "min", "type": "float", "formula": "min(tickets[*].total)"},
                {"id": "max", "type": "float", "formula": "max(tickets[*].total)"},
                {"id": "avgp", "type": "float", "formula": "avg(tickets[*].total) + 1"}]}]}],
             "templates": {"sections": [{"id": "tickets", "fields": [
                {"id": "tickets[:index].quantity", "type": "float"},
                {"id": "tickets[:index].price", "type": "float"},
                {"id": "tickets[:index].total", "type": "float", "formula": "$tickets[:index].quantity * $tickets[:index].price"}]}]}}
            """#
        let form = try Engine.load(def)
        var r = try Engine.run(form, #"{"tickets[0].price": 100, "tickets[0].quantity": 3, "tickets[2].price": 2.5, "tickets[2].quantity": 2}"#)
        #expect(r.text("tickets[0].total") == "300")
        #expect(r.text("tickets[2].total") == "5")
        #expect(r.text("sum") == "305")
        #expect(r.text("count") == "2")
        #expect(r.text("avg") == "152.5")
        #expect(r.text("min") == "5")
        #expect(r.text("max") == "300")
        // Nothing: sum and count 0, the others no value (and so a formula using them).
        r = try Engine.run(form, "{}")
        #expect(r.text("sum") == "0")
        #expect(r.text("count") == "0")
        for id in ["avg", "min", "max", "avgp"] { #expect(r.text(id) == nil, "\(id)") }
    }
}
