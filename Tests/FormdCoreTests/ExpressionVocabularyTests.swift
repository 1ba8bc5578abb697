import Testing
@testable import FormdCore

/// The original library's expression vocabulary (its condition parser's operators, functions and
/// constants) in formulas and conditions: each with its exact result.
@Suite struct ExpressionVocabularyTests {
    private func compute(_ formula: String, fields: [String] = [], values: String = "{}") throws -> String? {
        let f = "{\"id\": \"r\", \"type\": \"float\", \"formula\": \"\(formula)\"}"
        let def = "[{\"sections\": [{\"id\": \"s\", \"fields\": [" + (fields + [f]).joined(separator: ",") + "]}]}]"
        return try Engine.run(def, values).text("r")
    }

    private func holds(_ condition: String, values: String = #"{"a": 7, "b": 2}"#) throws -> Bool {
        let escaped = condition.replacingOccurrences(of: "\"", with: "\\\"")
        let src = "{\"id\": \"src\", \"type\": \"text\", \"value\": \"x\", \"targets\": [{\"id\": \"out\", \"type\": \"field\", \"action\": \"hide\", \"condition\": \"\(escaped)\"}]}"
        let fields = [#"{"id": "a", "type": "float"}"#, #"{"id": "b", "type": "float"}"#, src, #"{"id": "out", "type": "text"}"#]
        let def = "[{\"sections\": [{\"id\": \"s\", \"fields\": [" + fields.joined(separator: ",") + "]}]}]"
        let r = try Engine.run(def, values)
        return try #require(r.visible("out") as Bool?, "out is listed in fields") == false
    }

    @Test(arguments: [
        // `**`: power, right-associative, tighter than unary minus.
        ("2 ** 10", "1024"), ("2 ** 3 ** 2", "512"), ("-2 ** 2", "-4"), ("(-2) ** 2", "4"), ("2 ** -1", "0.5"),
        ("3 * 2 ** 2", "12"), ("1.1 ** 2", "1.21"),
        // Function forms of the operators.
        ("mod(7, 3)", "1"), ("modulo(-7, 3)", "-1"), ("add(0.1, 0.2)", "0.3"), ("subtract(1, 3)", "-2"),
        ("multiply(1.5, 4)", "6"), ("divide(1, 8)", "0.125"), ("negate(4)", "-4"), ("percent(25)", "0.25"),
        // List forms.
        ("sum(1, 2, 3.5)", "6.5"), ("sum(4)", "4"), ("avg(1, 2)", "1.5"), ("average(1, 2, 4)", "2.33333333333333"),
        ("mean(0.1, 0.2)", "0.15"), ("count(5, 6, 7)", "3"),
        // `trunc` is the original's alias of `floor`.
        ("trunc(2.7)", "2"), ("trunc(-1.5)", "-2"),
        // Logarithms and the exponential (rounded to 15 significant digits).
        ("log(1000)", "3"), ("log(2)", "0.301029995663981"), ("ln(1)", "0"), ("log2(8)", "3"), ("exp(0)", "1"),
        ("exp(1)", "2.71828182845905"), ("nthroot(27, 3)", "3"), ("nthroot(-8, 3)", "-2"),
        // Constants (calls in formulas, where a bare name is a field).
        ("pi()", "3.14159265358979"), ("2 * pi()", "6.28318530717958"), ("e()", "2.71828182845905"),
        ("tau()", "6.28318530717959"), ("sqrt2()", "1.4142135623731"),
        // Angles in radians.
        ("sin(0)", "0"), ("cos(0)", "1"), ("round(sin(pi_2()), 10)", "1"), ("rtod(pi())", "180"), ("dtor(180)", "3.14159265358979"),
        // The original's other spellings.
        ("6 × 7", "42"), ("7 ÷ 2", "3.5"), ("0x1F + 1", "32"),
    ])
    func formulas(formula: String, expected: String) throws {
        #expect(try compute(formula) == expected, "\(formula)")
    }

    @Test(arguments: ["log(0)", "ln(-1)", "nthroot(-4, 2)", "asin(2)", "mod(1, 0)", "nthroot(8, 0)"])
    func outOfDomainIsNoValue(formula: String) throws {
        #expect(try compute(formula) == nil, "\(formula)")
    }

    @Test(arguments: [
        ("$a ** 2 == 49", true), ("mod($a, $b) == 1", true), ("$a % $b = 1", true), ("$a =< 7", true), ("$a => 8", false),
        ("$a ≥ 7 ∧ $b ≤ 2", true), ("$a ≠ 7 ∨ ¬($b == 2)", false), ("pi > 3.14 && pi < 3.15", true), ("π == pi", true),
        ("and($a == 7, $b == 2)", true), ("or($a == 1, $b == 1)", false), ("not($a == 1)", true), ("l_and(1, 0)", false),
        ("l_eq($a, 7)", true), ("l_neq($a, 7)", false), ("l_lt($b, $a)", true), ("l_gt($b, $a)", false),
        ("l_ltoe(7, $a)", true), ("l_gtoe(6, $a)", false), ("sum($a, $b) == 9", true), ("avg($a, $b) == 4.5", true),
        ("log(100) == 2", true), ("trunc($a / $b) == 3", true), ("e > 2.718", true),
    ])
    func conditions(condition: String, expected: Bool) throws {
        #expect(try holds(condition) == expected, "\(condition)")
    }

    @Test(arguments: [
        ("and(1, 2)", "only available in conditions"), ("pi(1)", "takes no arguments"), ("sum()", "one or more numbers"),
        ("nthroot(8)", "takes 2 arguments"), ("random()", "unknown function 'random'"), ("2 ** ", "expected a value"),
        ("factorial(3)", "unknown function"),
    ])
    func errorsSayWhat(formula: String, message: String) throws {
        let def = "[{\"sections\": [{\"id\": \"s\", \"fields\": [{\"id\": \"r\", \"type\": \"float\", \"formula\": \"\(formula)\"}]}]}]"
        let result = FormLoader.load(id: "f", bytes: Array(def.utf8))
        #expect(result.form == nil, "\(formula) loads")
        #expect(result.diagnostics.contains { $0.message.contains(message) }, "\(formula): \(result.diagnostics.map(\.message))")
    }
}
