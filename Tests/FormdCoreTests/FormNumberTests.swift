import FormdTestSupport
import Testing
@testable import FormdCore

/// formd's exact decimal number (SEMANTICS §4): parsing, text, and each operation rounded
/// correctly to 38 digits, with the cases where Foundation's `Decimal` on Linux is wrong.
@Suite struct FormNumberTests {
    private func n(_ text: String) -> FormNumber { FormNumber.parse(text)! }

    private func op(_ f: (FormNumber, FormNumber, inout Bool) -> FormNumber?, _ a: String, _ b: String)
        -> (String?, Bool) {
        var inexact = false
        let r = f(n(a), n(b), &inexact)
        return (r?.canonicalText, inexact)
    }

    @Test(arguments: [
        ("300", "300"), ("1.50", "1.5"), ("-0.0030", "-0.003"), ("-0", "0"), (" 2e3 ", "2000"), (".5", "0.5"),
        ("5.", "5"), ("1E-2", "0.01"), ("+7", "7"), ("0.000", "0"),
        // 40 significant digits round to 38, ties away from zero
        ("1234567890123456789012345678901234567850", "1234567890123456789012345678901234567900"),
        ("-99999999999999999999999999999999999999.5", "-100000000000000000000000000000000000000"),
        // below the finest step reads as 0; the finest step itself is kept
        ("1e-200", "0"), ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
    ])
    func parseAndCanonicalText(input: String, expected: String) {
        #expect(FormNumber.parse(input)?.canonicalText == expected, "\(input)")
    }

    @Test(arguments: ["", " ", "-", ".", "1e", "1e+", "1.2.3", "0x10", "1,5", "e5", "1e165", "-2e200", "１"])
    func parseRejects(input: String) {
        #expect(FormNumber.parse(input) == nil, "\(input)")
    }

    /// The edges of the range around the short path of `make` (up to 20 digits, an exponent up
    /// to 145, where the digit count is not needed) and past it.
    @Test(arguments: [
        ("18446744073709551615e145", "18446744073709551615" + String(repeating: "0", count: 145)),
        ("1e145", "1" + String(repeating: "0", count: 145)), ("1e164", "1" + String(repeating: "0", count: 164)),
        ("18446744073709551615e-128", "0." + String(repeating: "0", count: 108) + "18446744073709551615"),
        ("-250000e-5", "-2.5"),
    ])
    func shortSignificandsAtTheEdgesOfTheRange(input: String, expected: String) {
        #expect(FormNumber.parse(input)?.canonicalText == expected, "\(input)")
    }

    @Test(arguments: ["18446744073709551615e146", "10e164", "99999999999999999999e146"])
    func shortSignificandsPastTheLargestMagnitude(input: String) {
        #expect(FormNumber.parse(input) == nil, "\(input)")
    }

    @Test func normalisedSoEqualValuesAreEqual() {
        #expect(n("1.10") == n("1.1"))
        #expect(n("100") == n("1e2"))
        #expect(n("0") == n("-0.00"))
        #expect(n("1.10").hashValue == n("1.1").hashValue)
    }

    @Test func ordering() {
        #expect(n("-2") < n("-1.5"))
        #expect(n("-0.001") < n("0"))
        #expect(n("0") < n("1e-128"))
        #expect(n("9.99") < n("10"))
        #expect(n("1e100") > n("99999999999999999999999999999999999999e61"))
        #expect(!(n("2.50") < n("2.5")) && !(n("2.5") < n("2.50")))
    }

    @Test func theExpressionFuzzerCrash() {
        // `2*1e-126*1e-126` trapped inside Foundation's Decimal multiplication: now the second
        // product is below the finest step, so no value.
        #expect(op(DecimalMath.multiply, "2", "1e-126").0 == "0." + String(repeating: "0", count: 125) + "2")
        #expect(op(DecimalMath.multiply, "2e-126", "1e-126").0 == nil)
        #expect(Formula.evaluateStandalone("2*1e-126*1e-126") == nil)
        #expect(Formula.evaluateStandalone("2*1e-126*1e126") == "2")
    }

    @Test func intValueOnlyWhenItFits() {
        #expect(n("9223372036854775807").intValue == Int.max)
        #expect(n("-9223372036854775807").intValue == -Int.max)
        #expect(n("9223372036854775808").intValue == nil)
        #expect(n("12e17").intValue == 1_200_000_000_000_000_000)
        #expect(n("1.5").intValue == nil)
        // 38 digits with exponent 10: trapped in the first version (found by the fuzzer)
        #expect(n("333333333333333333333333333333333333333333333333").intValue == nil)
        #expect(Formula.evaluateStandalone("round(3333333333333333333333333333333333333333333333333, 33333333333333333333333333333333333333333333333)") == nil)
    }

    @Test func foundationDecimalBugsOnLinux() {
        // swift-foundation: 2 * 1e-126 == 2 (exponent wrap); 1e127 * 1e127 == 0; a quotient
        // wrong from the 4th digit; a 36-digit difference without its last digits.
        #expect(op(DecimalMath.multiply, "1e127", "1e127").0 == nil)                // past 1e165
        #expect(op(DecimalMath.multiply, "1e80", "1e80").0 == "1" + String(repeating: "0", count: 160))
        #expect(op(DecimalMath.divide, "65202199483946694724e5", "-52998708239405972271294351220915468916e-43")
            == ("-1230260163878241410037537001600.6475157", true))
        #expect(op(DecimalMath.subtract, "5187288562542148003677245387882712587e-48",
                   "-775949852472814332765002184233609445e-37")
            == ("0.077594985252468721839042366427038189888", true))
    }

    @Test func roundingTo38DigitsAndTheInexactFlag() {
        #expect(op(DecimalMath.add, "0.1", "0.2") == ("0.3", false))
        #expect(op(DecimalMath.add, "99999999999999999999999999999999999999", "1")
            == ("100000000000000000000000000000000000000", false))
        #expect(op(DecimalMath.add, "1", "1e-50") == ("1", true))
        // 1 - 1e-50 is 0.(50 nines): 38 digits round it back up to 1
        #expect(op(DecimalMath.subtract, "1", "1e-50") == ("1", true))
        #expect(op(DecimalMath.subtract, "1", "1e-38") == ("0.99999999999999999999999999999999999999", false))
        #expect(op(DecimalMath.divide, "10", "4") == ("2.5", false))
        #expect(op(DecimalMath.divide, "1", "3") == ("0.33333333333333333333333333333333333333", true))
        #expect(op(DecimalMath.divide, "2", "3") == ("0.66666666666666666666666666666666666667", true))
        #expect(op(DecimalMath.multiply, "12345678901234567890", "12345678901234567890")
            == ("152415787532388367501905199875019052100", false))
        #expect(op(DecimalMath.multiply, "1234567890123456789012345678901234567", "3")
            == ("3703703670370370367037037036703703701", false))
        #expect(op(DecimalMath.multiply, "99999999999999999999999999999999999999", "99999999999999999999999999999999999999").1)
    }

    @Test func moduloIsExactAtAnyMagnitude() {
        #expect(op(DecimalMath.modulo, "7", "3").0 == "1")
        #expect(op(DecimalMath.modulo, "-7", "3").0 == "-1")
        #expect(op(DecimalMath.modulo, "7", "-3").0 == "1")
        #expect(op(DecimalMath.modulo, "5.5", "2").0 == "1.5")
        #expect(op(DecimalMath.modulo, "1e100", "7").0 == "4")          // 10^100 ≡ 3^100 ≡ 4 (mod 7)
        #expect(op(DecimalMath.modulo, "0.3", "0.7").0 == "0.3")
        #expect(op(DecimalMath.modulo, "12.34", "0.5").0 == "0.34")
        #expect(op(DecimalMath.modulo, "1", "0").0 == nil)
    }

    @Test func roundingFunctions() {
        #expect(DecimalMath.round(n("2.5"), scale: 0, .toNearestOrAwayFromZero) == n("3"))
        #expect(DecimalMath.round(n("-2.5"), scale: 0, .toNearestOrAwayFromZero) == n("-3"))
        #expect(DecimalMath.round(n("1250"), scale: -2, .toNearestOrAwayFromZero) == n("1300"))
        #expect(DecimalMath.round(n("0.0004"), scale: 2, .toNearestOrAwayFromZero) == n("0"))
        #expect(DecimalMath.floor(n("-2.1")) == n("-3"))
        #expect(DecimalMath.ceil(n("-2.9")) == n("-2"))
        #expect(DecimalMath.ceil(n("1e-128")) == n("1"))
        #expect(DecimalMath.truncate(n("-7.9")) == n("-7"))
        #expect(DecimalMath.roundedToSignificantDigits(n("3.33333333333333333")) == n("3.33333333333333"))
        #expect(DecimalMath.roundedToSignificantDigits(n("999999999999999.5")) == n("1000000000000000"))
    }

    @Test func powers() {
        var inexact = false
        #expect(DecimalMath.pow(n("2"), n("10"), &inexact) == n("1024") && !inexact)
        #expect(DecimalMath.pow(n("1.1"), n("2"), &inexact) == n("1.21") && !inexact)
        #expect(DecimalMath.pow(n("2"), n("-2"), &inexact) == n("0.25") && !inexact)
        #expect(DecimalMath.pow(n("10"), n("200"), &inexact) == nil)
        #expect(DecimalMath.pow(n("0"), n("-1"), &inexact) == nil)
        #expect(DecimalMath.pow(n("1e-100"), n("-1"), &inexact) == n("1e100"))
    }

    /// Against Int arithmetic over a deterministic spread of operands.
    @Test func agreesWithIntegerArithmetic() {
        var rng = SplitMix64(state: 42)  // the generator the JSON fuzz tests use
        for _ in 0..<20_000 {
            let a = Int(truncatingIfNeeded: rng.next()) >> 34, b = Int(truncatingIfNeeded: rng.next()) >> 34
            let x = FormNumber(a), y = FormNumber(b)
            var inexact = false
            #expect(DecimalMath.add(x, y, &inexact) == FormNumber(a + b))
            #expect(DecimalMath.subtract(x, y, &inexact) == FormNumber(a - b))
            #expect(DecimalMath.multiply(x, y, &inexact) == FormNumber(a * b))
            if b != 0 {
                #expect(DecimalMath.modulo(x, y, &inexact) == FormNumber(a % b))
                if a % b == 0 { #expect(DecimalMath.divide(x, y, &inexact) == FormNumber(a / b)) }
            }
            #expect((x < y) == (a < b))
            #expect(x.canonicalText == String(a))
            #expect(!inexact)
        }
    }
}

private struct NoOperands: ExpressionEnvironment {
    func operand(_ slot: Int) -> Operand { .missing }
    func forEachAggregateValue(_ slot: Int, _ body: (Operand) -> Void) {}
}

extension Formula {
    /// The canonical text of a formula without variables, or nil for no value.
    fileprivate static func evaluateStandalone(_ text: String) -> String? {
        (try? Formula(parsing: text))?.evaluate(in: NoOperands())?.canonicalText
    }
}
