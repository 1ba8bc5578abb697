import Foundation

// formd's number type is Foundation `Decimal`: exact decimal arithmetic with a 38-digit
// significand and a base-10 exponent in -128...127 (so about 1e-128 ... 3.4e165).

extension Decimal {
    /// Parses a plain decimal number exactly: JSON number literals (`12`, `-1.5`, `1e+21`) and
    /// numeric strings. Accepted: surrounding ASCII whitespace, an optional `+` or `-`, digits
    /// with an optional `.` fraction (`5.`, `.5` and leading zeros `007` allowed), an optional
    /// exponent `e`/`E` with optional sign. Not accepted: `,` separators, hex, `inf`, `nan`,
    /// empty text. Values outside Decimal's range give nil; more than 38 significant digits are
    /// rounded to 38.
    public static func parseNumber(_ text: String) -> Decimal? {
        parseNumber(text[...])
    }

    /// See `parseNumber(_: String)`.
    public static func parseNumber(_ text: Substring) -> Decimal? {
        var utf8 = text.utf8
        while let c = utf8.first, isSpace(c) { utf8 = utf8.dropFirst() }
        while let c = utf8.last, isSpace(c) { utf8 = utf8.dropLast() }
        var i = utf8.startIndex
        let end = utf8.endIndex
        guard i < end else { return nil }
        var negative = false
        if utf8[i] == UInt8(ascii: "-") || utf8[i] == UInt8(ascii: "+") {
            negative = utf8[i] == UInt8(ascii: "-")
            i = utf8.index(after: i)
        }
        var mantissa: UInt64 = 0
        var digitsInMantissa = 0       // significant digits accumulated in `mantissa`
        var exponent = 0               // decimal exponent to apply to the accumulated digits
        var sawDigit = false
        var sawDot = false
        var slowDigits: [UInt8] = []   // used only past 18 significant digits
        while i < end {
            let c = utf8[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                sawDigit = true
                let d = c - UInt8(ascii: "0")
                if sawDot { exponent -= 1 }
                if digitsInMantissa == 0 && d == 0 {
                    // leading zero: contributes nothing
                } else if digitsInMantissa < 18 {
                    mantissa = mantissa * 10 + UInt64(d)
                    digitsInMantissa += 1
                } else {
                    slowDigits.append(d)
                    digitsInMantissa += 1
                }
            } else if c == UInt8(ascii: ".") && !sawDot {
                sawDot = true
            } else {
                break
            }
            i = utf8.index(after: i)
        }
        guard sawDigit else { return nil }
        if i < end {
            guard utf8[i] == UInt8(ascii: "e") || utf8[i] == UInt8(ascii: "E") else { return nil }
            i = utf8.index(after: i)
            var expNegative = false
            if i < end, utf8[i] == UInt8(ascii: "-") || utf8[i] == UInt8(ascii: "+") {
                expNegative = utf8[i] == UInt8(ascii: "-")
                i = utf8.index(after: i)
            }
            var e = 0
            var sawExpDigit = false
            while i < end, utf8[i] >= UInt8(ascii: "0"), utf8[i] <= UInt8(ascii: "9") {
                sawExpDigit = true
                if e < 100_000 { e = e * 10 + Int(utf8[i] - UInt8(ascii: "0")) }
                i = utf8.index(after: i)
            }
            guard sawExpDigit, i == end else { return nil }
            exponent += expNegative ? -e : e
        }
        if digitsInMantissa == 0 { return Decimal(0) }
        var value = Decimal(mantissa)
        if !slowDigits.isEmpty {
            // Past 18 digits: append the rest in chunks of up to 18 digits, exactly up to 38.
            var k = 0
            while k < slowDigits.count {
                let chunk = slowDigits[k..<Swift.min(k + 18, slowDigits.count)]
                var c: UInt64 = 0
                for d in chunk { c = c * 10 + UInt64(d) }
                var shifted = Decimal()
                _ = NSDecimalMultiplyByPowerOf10(&shifted, &value, Int16(chunk.count), .plain)
                var add = Decimal(c)
                _ = NSDecimalAdd(&value, &shifted, &add, .plain)
                k += chunk.count
            }
        }
        if exponent != 0 {
            guard exponent > -300 && exponent < 300 else {
                return exponent < 0 ? Decimal(0) : nil
            }
            var scaled = Decimal()
            let err = NSDecimalMultiplyByPowerOf10(&scaled, &value, Int16(exponent), .plain)
            if err == .overflow || scaled.isNaN { return nil }
            if err == .underflow { return Decimal(0) }
            value = scaled
        }
        if negative && !value.isZero { value = Decimal(0) - value }
        return value
    }

    /// The shortest plain text of the number: no exponent, no trailing zeros, no `-0`
    /// (`300`, `1.5`, `0.3`, `-2`, `1000000000000000000000`). NaN gives `"NaN"`.
    public var canonicalText: String {
        if isNaN { return "NaN" }
        if isZero { return "0" }
        if let fast = smallCanonicalText { return fast }
        var text = description   // Foundation writes plain notation
        if text.utf8.contains(UInt8(ascii: ".")) {
            while text.utf8.last == UInt8(ascii: "0") { text.removeLast() }
            if text.utf8.last == UInt8(ascii: ".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// `canonicalText` without Foundation's formatter (about 15x faster) when the significand
    /// fits exactly in a Double's 53 bits, which covers almost every form value.
    private var smallCanonicalText: String? {
        let e = exponent
        guard e >= -40, e <= 40 else { return nil }
        let m = NSDecimalNumber(decimal: significand).doubleValue
        guard m >= 1, m < 9_007_199_254_740_992, m == m.rounded(.towardZero) else { return nil }
        var digits = Array(String(UInt64(m)).utf8)
        let point = digits.count + e  // digits before the decimal point
        // Trailing zeros of a fraction go; trailing zeros of an integer become an exponent shift.
        while point < digits.count, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + 4 + Swift.max(0, -point) + Swift.max(0, e))
        if sign == .minus { out.append(UInt8(ascii: "-")) }
        if point <= 0 {
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point))
            out.append(contentsOf: digits)
        } else if point >= digits.count {
            out.append(contentsOf: digits)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
        } else {
            out.append(contentsOf: digits[..<point])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[point...])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the value is a whole number.
    var isInteger: Bool {
        if exponent >= 0 { return true }
        var r = Decimal()
        var x = self
        NSDecimalRound(&r, &x, 0, .down)
        return r == self
    }

    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }
}
