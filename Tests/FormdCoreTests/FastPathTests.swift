import Foundation
import FormdTestSupport
import Testing
@testable import FormdCore

/// The allocation-free fast paths of the hot loops against the straightforward code they
/// replace, on edge cases and on many random strings (seeded, so a failure reproduces).
@Suite struct FastPathTests {
    /// Deterministic strings over a small alphabet, so that interesting shapes are common.
    private static func strings(_ alphabet: String, count: Int, maxLength: Int, seed: UInt64) -> [String] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let chars = Array(alphabet)
        return (0..<count).map { _ in
            String((0..<Int(next() % UInt64(maxLength + 1))).map { _ in chars[Int(next() % UInt64(chars.count))] })
        }
    }

    /// `KeyHints.equal` (words, the last one overlapping, four-byte halves for short keys)
    /// against `==` on byte arrays of every length up to 40, equal or differing in one byte.
    @Test func keyBytesCompareAsArrays() {
        var rng = SplitMix64(seed: 36)
        for _ in 0..<4_000 {
            let n = Int(rng.next() % 41)
            let a = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var b = a
            if n > 0 && rng.next() % 4 != 0 {
                let at = rng.next() % 3 == 0 ? (rng.next() % 2 == 0 ? 0 : n - 1) : Int(rng.next() % UInt64(n))
                b[at] ^= UInt8(1 + rng.next() % 255)
            }
            let same = a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in KeyHints.equal(pa.baseAddress ?? UnsafePointer(bitPattern: 1)!, pb.baseAddress ?? UnsafePointer(bitPattern: 1)!, n) }
            }
            #expect(same == (a == b), "\(a) vs \(b)")
        }
    }

    /// The 64-bit path of `DecimalMath` addition and subtraction against the general one, on
    /// random operands around its bounds (significands near 2^64, gaps near 20 places, signs).
    @Test func smallSumsAgreeWithTheGeneralPath() {
        var rng = SplitMix64(seed: 63)
        func operand() -> FormNumber {
            let digits = 1 + Int(rng.next() % 21)
            var text = rng.next() % 2 == 0 ? "-" : ""
            for k in 0..<digits { text += String(k == 0 ? 1 + rng.next() % 9 : rng.next() % 10) }
            text += "e\(Int(rng.next() % 44) - 22)"
            return FormNumber.parse(text)!
        }
        for _ in 0..<20_000 {
            let a = operand(), b = operand()
            for negate in [false, true] {
                var fastInexact = false, slowInexact = false
                let fast = DecimalMath.sum(a, b, bNegative: negate != b.isNegative, &fastInexact)
                let slow = DecimalMath.sum(a, b, bNegative: negate != b.isNegative, &slowInexact, smallPath: false)
                #expect(fast == slow && fastInexact == slowInexact, "\(a) \(negate ? "-" : "+") \(b)")
            }
        }
    }

    @Test func canonicalShapeMeansTheTextIsItsOwnCanonicalForm() {
        let edge = [
            "0", "-0", "00", "0.5", "-0.5", "0.50", "5.", ".5", "-", "", "10", "100.001", "1e5", "-12", "012",
            "0.0", "-0.0", "1.10", "9" + String(repeating: "0", count: 63), "9" + String(repeating: "0", count: 64),
        ]
        for text in edge + Self.strings("-0123.e5", count: 20_000, maxLength: 7, seed: 7) {
            let reference = DecimalText.parse(text).flatMap(DecimalText.canonicalNumber)
            let shape = DecimalText.canonicalShape(text)
            #expect((shape != nil) == (reference == text), "\(text): shape \(String(describing: shape)), canonical \(String(describing: reference))")
            if let shape, let p = DecimalText.parse(text) {
                #expect(shape.fraction == (p.exponent < 0), "\(text)")
                #expect(shape.digits == text.utf8.filter { $0 >= 48 && $0 <= 57 }.count, "\(text)")
            }
        }
    }

    /// `dropped`'s comparison of a sent number with a computed one: short plain literals as
    /// `FormNumber`s, the rest as digit strings; both must agree on every JSON number literal.
    @Test func numberLiteralsCompareAsTheirDigits() {
        var rng = SplitMix64(seed: 1203)
        func literal() -> String {
            var s = Bool.random(using: &rng) && Int.random(in: 0..<4, using: &rng) == 0 ? "-" : ""
            let intDigits = Int.random(in: 1...(Int.random(in: 0..<8, using: &rng) == 0 ? 34 : 4), using: &rng)
            s += Int.random(in: 0..<3, using: &rng) == 0 ? "0" : String((0..<intDigits).map { i in
                Character(String(i == 0 ? Int.random(in: 1...9, using: &rng) : [0, 0, 1, 5, 9].randomElement(using: &rng)!))
            })
            if Bool.random(using: &rng) {
                s += "." + String((0..<Int.random(in: 1...(Int.random(in: 0..<8, using: &rng) == 0 ? 30 : 3), using: &rng)).map { _ in
                    Character(String([0, 0, 5, 9].randomElement(using: &rng)!))
                })
            }
            if Int.random(in: 0..<6, using: &rng) == 0 { s += ["e", "E"].randomElement(using: &rng)! + ["", "-", "+"].randomElement(using: &rng)! + String(Int.random(in: 0..<3, using: &rng)) }
            return s
        }
        let edge = ["0", "-0", "0.0", "-0.00", "1", "1.0", "1.00", "10", "1e1", "10.0", "0.1", "1E-1", "-1", "-1.0",
                    String(repeating: "9", count: 30), String(repeating: "9", count: 31), "0." + String(repeating: "0", count: 27) + "1"]
        var equal = 0
        var pairs: [(String, String)] = []
        for a in edge { for b in edge { pairs.append((a, b)) } }
        for _ in 0..<20_000 {
            let a = literal()
            // Often the same value spelled another way, so that both answers are common.
            let b = Int.random(in: 0..<3, using: &rng) == 0 ? (a.contains(".") ? a + "0" : a + ".0") : literal()
            pairs.append((a, b))
        }
        for (a, b) in pairs {
            let fast = Evaluation.sameNumber(a, b)
            #expect(fast == OptionMatch.numericEqual(a, b), "\(a) vs \(b)")
            if fast { equal += 1 }
        }
        #expect(equal > 5_000)
    }

    @Test func plainLiteralsCanonicaliseAsTheParserDoes() {
        let edge = [
            "0", "-0", "00", "007", "0.5", "-0.5", "0.50", "-0.0", "00.050", "25000.50", "100", "1.0", "-12.340",
            "5.", ".5", "-", "", "1e5", "1.5e3", "+1", "1..2", "1.2.3", "--1", "0x1",
            "9" + String(repeating: "0", count: 63), "9" + String(repeating: "0", count: 64),
            "0." + String(repeating: "0", count: 61) + "1",
        ]
        for text in edge + Self.strings("-0123.e5", count: 20_000, maxLength: 9, seed: 11) {
            let plain = DecimalText.canonicalPlain(text)
            let hasExponent = text.contains("e")
            let reference = DecimalText.parse(text).flatMap(DecimalText.canonicalNumber)
            if hasExponent || text.utf8.count > DecimalText.maxNumberTextLength {
                #expect(plain == nil, "\(text)")
            } else {
                #expect(plain == reference, "\(text): plain \(String(describing: plain)), parser \(String(describing: reference))")
            }
            if let plain, let p = DecimalText.parse(text) { #expect(DecimalText.isRepresentable(p), "\(plain)") }
        }
    }

    @Test func numbersOfEveryLengthParseAsTheirDigits() {
        // The parse keeps 19 digits in 64 bits, then 128: every exact length across the switch.
        for digits in 1...38 {
            for fraction in [0, 1, digits / 2, digits] where fraction <= digits {
                var text = ""
                for k in 0..<digits { text.append(Character(String((k * 7 + digits) % 10))) }
                if fraction > 0 { text.insert(".", at: text.index(text.startIndex, offsetBy: digits - fraction)) }
                if text.hasPrefix(".") { text = "0" + text }
                guard let n = FormNumber.parse(text), let p = DecimalText.parse(text) else {
                    Issue.record("\(text) did not parse")
                    continue
                }
                #expect(n.canonicalText == DecimalText.canonical(p), "\(text)")
            }
        }
    }

    /// `canonicalText` writes its digits through pointers, and at the ends of the range moves
    /// them over the room it read them from: it must agree with the exact text of every shape.
    @Test func canonicalTextOfEveryShapeIsTheExactText() {
        var rng = SplitMix64(seed: 2911)
        var checked = 0
        for _ in 0..<4_000 {
            let digits = Int.random(in: 1...38, using: &rng)
            var text = Bool.random(using: &rng) ? "-" : ""
            for k in 0..<digits { text.append(Character(String(k == 0 ? Int.random(in: 1...9, using: &rng) : Int.random(in: 0...9, using: &rng)))) }
            // Exponents that put the point before, inside and after the digits, to the range's
            // ends (the last digit no finer than the finest step, 1e-128: nothing is rounded).
            let exponent = Int.random(in: -128...(165 - digits), using: &rng)
            text += "e\(exponent)"
            guard let n = FormNumber.parse(text), let p = DecimalText.parse(text), !n.isZero else { continue }
            #expect(n.canonicalText == DecimalText.canonical(p), "\(text)")
            checked += 1
        }
        #expect(checked > 3_000)
    }

    @Test func numbersKeptAsSentCoerceAsBefore() throws {
        // count and float fields keep a canonical number as sent; others still canonicalise.
        let def = Engine.fields(#"{"id": "c", "type": "count"}"#, #"{"id": "f", "type": "float"}"#)
        let r = try Engine.run(def, #"{"c": -12, "f": 0.25}"#)
        #expect(r.text("c") == "-12")
        #expect(r.text("f") == "0.25")
        let s = try Engine.run(def, #"{"c": 1.0e1, "f": 2.50}"#)
        #expect(s.text("c") == "10")
        #expect(s.text("f") == "2.5")
        let big = try Engine.run(def, #"{"c": 1234567890123456789, "f": -0}"#)
        #expect(big.text("c") == "1234567890123456789")
        #expect(big.text("f") == "0")
    }

    /// The e-mail check as first written (split into labels).
    private static func referenceEmail(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, bytes.lastIndex(of: UInt8(ascii: "@")) == at
        else { return false }
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { return false }
        let labels = bytes[(at + 1)...].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), let tld = labels.last, tld.count >= 2 else {
            return false
        }
        return true
    }

    @Test func emailCheckAgreesWithTheLabelSplit() {
        let edge = ["a@b.co", "@b.co", "a@b.c", "a@.co", "a@b..co", "a@b.co.", "a@@b.co", "a b@c.de", "ä@ö.éé", "a@b", ""]
        for s in edge + Self.strings("ab@. \u{7F}é", count: 20_000, maxLength: 9, seed: 11) {
            #expect(EmailAddress.isValid(s) == Self.referenceEmail(s), "\(s.debugDescription)")
        }
        // Longer texts, read eight bytes at a time where they can be: mostly letters, so that
        // whole words pass, with the special bytes at every position of a word.
        for s in Self.strings("aaaaab@.. \u{7F}\u{1}é", count: 20_000, maxLength: 34, seed: 12) {
            #expect(EmailAddress.isValid(s) == Self.referenceEmail(s), "\(s.debugDescription)")
        }
        // Addresses of every length, valid and then with one byte replaced at every position.
        var valid = 0
        for local in 1...20 {
            for domain in [1, 2, 7, 15] {
                let address = String(repeating: "l", count: local) + "@" + String(repeating: "d", count: domain) + ".no"
                valid += EmailAddress.isValid(address) ? 1 : 0
                for k in 0..<address.utf8.count {
                    for r in ["@", ".", " ", "\u{7F}", "\u{1}", "é"] {
                        var chars = Array(address)
                        chars[k] = Character(r)
                        let s = String(chars)
                        #expect(EmailAddress.isValid(s) == Self.referenceEmail(s), "\(s.debugDescription)")
                    }
                }
            }
        }
        #expect(valid == 80)
    }

    @Test func indexSubstitutionAgreesWithFoundation() {
        let edge = [":index", "a[:index].b", ":index:index", "::index", ":inde", "x", "", "é:indexé", ":index."]
        for s in edge + Self.strings(":indexé.", count: 20_000, maxLength: 14, seed: 5) {
            #expect(
                IndexPlaceholder.substitute(s, 42) == s.replacingOccurrences(of: ":index", with: "42"), "\(s.debugDescription)")
        }
    }
}

/// `SimpleComparison` (what the settle loop runs for `$x op literal`) against the condition
/// evaluator on the same condition, for every operator, literal kind and operand kind.
@Suite struct SimpleComparisonTests {
    struct One: ExpressionEnvironment {
        let value: Operand
        func operand(_ slot: Int) -> Operand { value }
        func forEachAggregateValue(_ slot: Int, _ body: (Operand) -> Void) {}
    }

    @Test func agreesWithTheConditionEvaluator() throws {
        let literals = ["5", "0", "-2.5", "50", "\"abc\"", "\"12\"", "\"\"", "1e3", "0.1"]
        let operands: [Operand] = [
            .missing, .number(5), .number(0), .number(FormNumber(literal: "-2.5")!), .number(1000), .string("abc"),
            .string("12"), .string(""), .string(" 5 "), .string("5.0"), .number(FormNumber(literal: "0.1")!),
        ]
        var recognised = 0
        for op in ["==", "!=", "<", ">", "<=", ">="] {
            for literal in literals {
                for text in ["$x \(op) \(literal)", "\(literal) \(op) $x"] {
                    let condition = try Condition(parsing: text)
                    let simple = try #require(SimpleComparison(condition), "\(text) is a simple comparison")
                    recognised += 1
                    for v in operands {
                        #expect(simple.holds(v) == condition.evaluate(in: One(value: v)), "\(text) with \(v)")
                    }
                }
            }
        }
        #expect(recognised == 6 * literals.count * 2)
        // Anything else keeps the general evaluator.
        for text in ["$x > $y", "$x + 1 > 2", "$x > 1 && $x < 3", "present($x)", "!($x == 1)"] {
            #expect(SimpleComparison(try Condition(parsing: text)) == nil, "\(text)")
        }
    }
}

/// Values canonical as sent (`Coerced.asSent`) are read from the submission instead of being
/// copied into the evaluation's own value array: text-like fields must come out as SEMANTICS §2
/// says (blank → none or the default, formatter separators removed, e-mails checked), written
/// here from the primitives, not from the coercer.
@Suite struct SentAsIsTests {
    private static let definition = Engine.fields(
        #"{"id": "t", "type": "text"}"#,
        #"{"id": "n", "type": "name"}"#,
        #"{"id": "p", "type": "password"}"#,
        #"{"id": "e", "type": "email"}"#,
        #"{"id": "c", "type": "custom"}"#,
        #"{"id": "contact.phone_number", "type": "text"}"#,
        #"{"id": "bank_account_number", "type": "text"}"#,
        #"{"id": "d", "type": "text", "value": "fallback"}"#,
        #"{"id": "m", "type": "text", "validations": {"min_length": 3, "max_length": 6}}"#)

    @Test func agreesWithTheCoercer() throws {
        let form = try Engine.load(Self.definition)
        let ids = ["t", "n", "p", "e", "c", "contact.phone_number", "bank_account_number", "d", "m"]
        var state: UInt64 = 11
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let alphabet = Array("ab@. ,\t\u{00A0}é1")
        var sentAsIs = 0
        for _ in 0..<3_000 {
            let strings = ids.map { _ in String((0..<(next() % 9)).map { _ in alphabet[next() % alphabet.count] }) }
            var values = JSONObject()
            for (id, text) in zip(ids, strings) { values.append(id, .string(text)) }
            let e = Evaluation(plan: form.plan, values: values, mode: .validate, options: EvaluationOptions())
            for (i, id) in ids.enumerated() {
                let s = e.slotMap.staticSlot[try #require(form.plan.fieldIndex[id])]
                let spec = form.plan.spec(e.slotMap.fields[s].spec)
                var expected: JSONValue? = spec.defaultValue
                var expectedInvalid = false
                if !strings[i].isBlank {
                    let text = spec.coercer.formatter?.normalise(strings[i]) ?? strings[i]
                    if spec.kind == .email && !EmailAddress.isValid(text) {
                        expected = nil
                        expectedInvalid = true
                    } else {
                        expected = .string(text)
                    }
                }
                #expect(e.value(s) == expected, "\(id) = \(strings[i].debugDescription)")
                #expect((e.cells[s].origin == .invalid) == expectedInvalid, "\(id) = \(strings[i].debugDescription)")
                if e.cells[s].origin == .sent { sentAsIs += 1 }
            }
        }
        // Values are read in place, and not only: formatters and blanks go the long way.
        #expect(sentAsIs > 3_000 && sentAsIs < 3_000 * ids.count)
    }

    @Test func responsesCarryTheSubmittedStrings() throws {
        let r = try Engine.run(
            Self.definition,
            #"{"t": "x y", "e": "a@b.no", "contact.phone_number": "12 34", "d": "  ", "m": "ab", "c": "é"}"#,
            mode: .validate)
        #expect(r.text("t") == #""x y""#)
        #expect(r.text("e") == #""a@b.no""#)
        #expect(r.text("contact.phone_number") == #""1234""#)
        #expect(r.text("d") == #""fallback""#)
        #expect(r.text("c") == #""é""#)
        #expect(r.codes("m") == ["min_length"])
        let bad = try Engine.run(Self.definition, #"{"e": "not an address", "m": "abcdefg"}"#, mode: .validate)
        #expect(bad.codes("e") == ["type"])
        #expect(bad.text("e") == #""not an address""#)
        #expect(bad.codes("m") == ["max_length"])
        // Other kinds whose value is its own canonical form.
        let others = Engine.fields(
            #"{"id": "k", "type": "custom"}"#, #"{"id": "w", "type": "switch"}"#,
            #"{"id": "n", "type": "count", "validations": {"max_value": 10}}"#, #"{"id": "f", "type": "float"}"#)
        let o = try Engine.run(others, #"{"k": {"a": [1, "x"]}, "w": false, "n": 12, "f": 0.25}"#, mode: .validate)
        #expect(o.text("k") == #"{"a":[1,"x"]}"#)
        #expect(o.text("w") == "false")
        #expect(o.text("n") == "12")
        #expect(o.codes("n") == ["max_value"])
        #expect(o.text("f") == "0.25")
    }

    @Test func targetsReplaceASubmittedString() throws {
        let def = Engine.fields(
            #"{"id": "go", "type": "switch", "targets": [{"id": "t", "type": "field", "action": "update", "target_value": "new"}, {"id": "u", "type": "field", "action": "clear"}]}"#,
            #"{"id": "t", "type": "text", "validations": {"max_length": 3}}"#,
            #"{"id": "u", "type": "text", "validations": {"required": true}}"#,
            #"{"id": "v", "type": "text", "formula": "t u"}"#)
        let r = try Engine.run(def, #"{"go": true, "t": "sent value", "u": "kept?"}"#, changed: ["go"])
        #expect(r.text("t") == #""new""#)
        #expect(r.value("u") == nil)
        #expect(r.dropped == ["u:cleared"])
        #expect(r.codes("t") == [])
        #expect(r.value("v")?.stringValue?.hasPrefix("new") == true)
        let untouched = try Engine.run(def, #"{"go": true, "t": "sent value", "u": "kept"}"#, mode: .validate)
        #expect(untouched.text("t") == #""sent value""#)
        #expect(untouched.codes("t") == ["max_length"])
        #expect(untouched.text("v") == #""sent value kept""#)
    }
}

/// `DecimalText.canonical` writes the text straight into the string's storage; this holds it to
/// the plain construction (digits, zeros and the point put together as bytes) on random parts:
/// signs, exponents on both sides of the point, and past the expansion limit.
@Suite struct DecimalCanonicalTests {
    static func reference(_ p: DecimalText.Parts) -> String? {
        if p.digits.isEmpty { return "0" }
        let n = p.digits.count
        var out: [UInt8] = p.negative ? [UInt8(ascii: "-")] : []
        if p.exponent >= 0 {
            guard n + p.exponent <= DecimalText.maxExpandedDigits else { return nil }
            out += p.digits + [UInt8](repeating: 48, count: p.exponent)
        } else if n + p.exponent > 0 {
            out += p.digits[0..<(n + p.exponent)] + [UInt8(ascii: ".")] + p.digits[(n + p.exponent)...]
        } else {
            guard -(n + p.exponent) <= DecimalText.maxExpandedDigits else { return nil }
            out += [48, UInt8(ascii: ".")] + [UInt8](repeating: 48, count: -(n + p.exponent)) + p.digits
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func matchesThePlainConstruction() {
        var rng = SplitMix64(seed: 148)
        let limit = DecimalText.maxExpandedDigits
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...12, using: &rng)
            var digits = (0..<count).map { _ in UInt8.random(in: 48...57, using: &rng) }
            if !digits.isEmpty { digits[0] = UInt8.random(in: 49...57, using: &rng) }
            let exponent = Int.random(in: -(limit + 20)...(limit + 5), using: &rng)
            let p = DecimalText.Parts(negative: Bool.random(using: &rng), digits: digits, exponent: exponent)
            #expect(DecimalText.canonical(p) == Self.reference(p), "\(p)")
        }
    }
}
