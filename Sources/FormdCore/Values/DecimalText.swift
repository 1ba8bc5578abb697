/// Exact manipulation of decimal number text: JSON literals and decimal strings, without going
/// through binary floating point (SEMANTICS §2: `300.0` → `300`, `1e-07` → `0.0000001`).
enum DecimalText {
    /// The longest expansion produced; beyond it a literal keeps its written (exponent) form, so a
    /// hostile `1e999999999` cannot make formd allocate a gigabyte.
    static let maxExpandedDigits = 400

    struct Parts: Equatable {
        var negative: Bool
        /// Significant digits without leading zeros ("" for zero).
        var digits: [UInt8]
        /// Value = digits × 10^exponent.
        var exponent: Int
    }

    /// Parses `-?digits(.digits)?([eE][+-]?digits)?`; with `lenient`, also `,` as the separator
    /// and a leading `+`/missing integer part are still rejected (floats from HTML forms).
    static func parse<S: StringProtocol>(_ text: S, allowComma: Bool = false) -> Parts? {
        // Over the bytes in place when contiguous: iterating `utf8` cost several times more.
        // One body over buffers (not generic, not inlined): a copy per text type and path grew
        // the WebAssembly module for nothing.
        if let p = text.utf8.withContiguousStorageIfAvailable({ parse(utf8: $0, allowComma: allowComma) }) { return p }
        return Array(text.utf8).withUnsafeBufferPointer { parse(utf8: $0, allowComma: allowComma) }
    }

    @inline(never)
    private static func parse(utf8: UnsafeBufferPointer<UInt8>, allowComma: Bool) -> Parts? {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        var it = utf8.makeIterator()
        var c = it.next()
        if c == UInt8(ascii: "-") {
            negative = true
            c = it.next()
        }
        while let ch = c {
            if ch >= 48 && ch <= 57 {
                sawDigit = true
                if !(digits.isEmpty && ch == 48) { digits.append(ch) }
                if sawPoint { exponent -= 1 }
                if digits.count > 4096 { return nil }
            } else if (ch == UInt8(ascii: ".") || (allowComma && ch == UInt8(ascii: ","))) && !sawPoint && sawDigit {
                sawPoint = true
                c = it.next()
                guard let n = c, n >= 48 && n <= 57 else { return nil }
                continue
            } else if (ch == UInt8(ascii: "e") || ch == UInt8(ascii: "E")) && sawDigit {
                var expNegative = false
                var e = 0
                var expDigits = 0
                c = it.next()
                if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                    expNegative = c == UInt8(ascii: "-")
                    c = it.next()
                }
                while let d = c, d >= 48 && d <= 57 {
                    if e < 100_000_000 { e = e * 10 + Int(d - 48) }
                    expDigits += 1
                    c = it.next()
                }
                guard expDigits > 0, c == nil else { return nil }
                exponent += expNegative ? -e : e
                break
            } else {
                return nil
            }
            c = it.next()
        }
        guard sawDigit else { return nil }
        // Drop trailing zeros of the significand into the exponent.
        while let last = digits.last, last == 48 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { return Parts(negative: false, digits: [], exponent: 0) }
        return Parts(negative: negative, digits: digits, exponent: exponent)
    }

    /// The sign of `a - b`, exact at any magnitude.
    static func compare(_ a: Parts, _ b: Parts) -> Int {
        let sa = a.digits.isEmpty ? 0 : a.negative ? -1 : 1
        let sb = b.digits.isEmpty ? 0 : b.negative ? -1 : 1
        if sa != sb { return sa < sb ? -1 : 1 }
        if sa == 0 { return 0 }
        // Magnitude: the value lies in [10^(m-1), 10^m).
        let ma = a.digits.count + a.exponent
        let mb = b.digits.count + b.exponent
        if ma != mb { return (ma > mb ? 1 : -1) * sa }
        for i in 0..<max(a.digits.count, b.digits.count) {
            let da = i < a.digits.count ? a.digits[i] : 48
            let db = i < b.digits.count ? b.digits[i] : 48
            if da != db { return (da > db ? 1 : -1) * sa }
        }
        return 0
    }

    /// Whether a `FormNumber` holds the value at all: zero, or a magnitude below 1e165 and not
    /// below its finest step, 1e-128 (SEMANTICS §2, §4).
    static func isRepresentable(_ p: Parts) -> Bool {
        guard !p.digits.isEmpty else { return true }
        let magnitude = p.digits.count + p.exponent
        return magnitude <= 165 && magnitude >= -127
    }

    /// When `text` is already canonical (`canonical(parse(text)!) == text`, at most
    /// `maxNumberTextLength` bytes): `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, not `-0`. Then it has
    /// `digits` digits and a fractional part or not. Lets coercion keep a number as sent, without
    /// parsing it into a new string, in the common case.
    static func canonicalShape(_ text: String) -> (digits: Int, fraction: Bool)? {
        // From the contiguous bytes: iterating a `String.UTF8View` costs tens of instructions a byte.
        if let shape = text.utf8.withContiguousStorageIfAvailable({ canonicalShape(utf8: $0) }) { return shape }
        return Array(text.utf8).withUnsafeBufferPointer { canonicalShape(utf8: $0) }
    }

    /// `canonicalShape` of UTF-8 bytes (a number's text read in place in a submission): the
    /// integer digits, then the fraction's, each in a tight loop (a loop deciding every byte's
    /// role cost some 30 instructions a byte).
    static func canonicalShape(utf8 b: UnsafeBufferPointer<UInt8>) -> (digits: Int, fraction: Bool)? {
        let n = b.count
        guard n > 0, n <= maxNumberTextLength else { return nil }
        let intStart = b[0] == UInt8(ascii: "-") ? 1 : 0
        var i = intStart
        while i < n, b[i] &- UInt8(ascii: "0") < 10 { i &+= 1 }
        let intDigits = i &- intStart
        // "0" may only be the whole integer part.
        guard intDigits > 0, intDigits == 1 || b[intStart] != UInt8(ascii: "0") else { return nil }
        guard i < n else {
            // An integer; not `-0`.
            return intStart == 1 && b[1] == UInt8(ascii: "0") ? nil : (intDigits, false)
        }
        guard b[i] == UInt8(ascii: ".") else { return nil }
        i &+= 1
        let fractionStart = i
        while i < n, b[i] &- UInt8(ascii: "0") < 10 { i &+= 1 }
        // Digits to the end, the last not a zero.
        guard i == n, i > fractionStart, b[n &- 1] != UInt8(ascii: "0") else { return nil }
        return (intDigits &+ (n &- fractionStart), true)
    }

    /// Shortest plain decimal text: no exponent, no trailing zeros, `-0` → `0`. Written straight
    /// into the string's storage: a byte array built first and then decoded cost two allocations
    /// and a UTF-8 validation per number.
    static func canonical(_ p: Parts) -> String? {
        if p.digits.isEmpty { return "0" }
        let n = p.digits.count
        let intCount = n + p.exponent
        // Digits, zeros after them (exponent >= 0), or a point, and zeros before them.
        let zeros = p.exponent >= 0 ? p.exponent : (intCount > 0 ? 0 : -intCount)
        guard (p.exponent >= 0 ? n + zeros : zeros) <= maxExpandedDigits else { return nil }
        let length = (p.negative ? 1 : 0) + n + zeros + (p.exponent >= 0 ? 0 : (intCount > 0 ? 1 : 2))
        return p.digits.withUnsafeBufferPointer { digits in
            String(unsafeUninitializedCapacity: length) { out in
                var k = 0
                func put(_ b: UInt8) {
                    out[k] = b
                    k += 1
                }
                if p.negative { put(UInt8(ascii: "-")) }
                if p.exponent >= 0 {
                    for d in digits { put(d) }
                    for _ in 0..<zeros { put(48) }
                } else if intCount > 0 {
                    for d in digits[0..<intCount] { put(d) }
                    put(UInt8(ascii: "."))
                    for d in digits[intCount...] { put(d) }
                } else {
                    put(48)
                    put(UInt8(ascii: "."))
                    for _ in 0..<zeros { put(48) }
                    for d in digits { put(d) }
                }
                return k
            }
        }
    }

    /// `canonicalNumber(literal:)` of a plain literal (`-?[0-9]+(\.[0-9]+)?`, no exponent, at
    /// most `maxNumberTextLength` bytes), written straight from its bytes: `25000.50` -> `25000.5`,
    /// `007` -> `7`, `-0.0` -> `0`. Such a value is always representable. Nil for any other text.
    /// Spares `parse` its digit array (an allocation) for the numbers clients send most.
    static func canonicalPlain(_ text: String) -> String? {
        text.utf8.withContiguousStorageIfAvailable { canonicalPlain(bytes: $0) } ?? nil
    }

    static func canonicalPlain(bytes b: UnsafeBufferPointer<UInt8>) -> String? {
        let n = b.count
        guard n > 0, n <= maxNumberTextLength else { return nil }
        let negative = b[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        let intStart = i
        while i < n, b[i] &- 48 < 10 { i += 1 }
        let intEnd = i
        guard intEnd > intStart else { return nil }
        var fracStart = n
        if i < n {
            guard b[i] == UInt8(ascii: "."), i + 1 < n else { return nil }
            i += 1
            fracStart = i
            while i < n, b[i] &- 48 < 10 { i += 1 }
            guard i == n else { return nil }
        }
        // Leading zeros of the integer part (one digit stays), trailing zeros of the fraction.
        var a = intStart
        while a < intEnd - 1, b[a] == UInt8(ascii: "0") { a += 1 }
        var z = n
        while z > fracStart, b[z - 1] == UInt8(ascii: "0") { z -= 1 }
        let hasFraction = z > fracStart
        let sign = negative && (b[a] != UInt8(ascii: "0") || hasFraction)  // `-0` is `0`
        // The text is in place (`a..<end`, after the `-`) unless zeros follow a sign.
        let end = hasFraction ? z : intEnd
        if !sign || a == intStart { return String(ascii: UnsafeBufferPointer(rebasing: b[(sign ? a - 1 : a)..<end])) }
        let length = 1 + (intEnd - a) + (hasFraction ? 1 + z - fracStart : 0)
        return String(unsafeUninitializedCapacity: length) { out in
            var k = 0
            if sign { out[k] = UInt8(ascii: "-"); k += 1 }
            for j in a..<intEnd { out[k] = b[j]; k += 1 }
            if hasFraction {
                out[k] = UInt8(ascii: ".")
                k += 1
                for j in fracStart..<z { out[k] = b[j]; k += 1 }
            }
            return k
        }
    }

    /// Longest number text formd writes: its own strict parser rejects longer numbers
    /// (`JSONParser.Options.maxNumberLength`), and a response must parse again.
    static let maxNumberTextLength = 64

    /// `canonical(p)` when it is a number formd may write (at most `maxNumberTextLength` characters).
    static func canonicalNumber(_ p: Parts) -> String? {
        guard let c = canonical(p), c.utf8.count <= maxNumberTextLength else { return nil }
        return c
    }

    /// Canonical text of a JSON number literal for a number value: the literal as written when the
    /// expansion would be longer than `maxNumberTextLength` (`1e300` stays `1e300`).
    static func canonicalNumber(literal: String) -> String {
        guard let p = parse(literal), let c = canonicalNumber(p) else { return literal }
        return c
    }

    /// Number text for a computed value whose canonical text is `canonical`: that text when it is at
    /// most `maxNumberTextLength` characters, else the same value with an exponent
    /// (`1111e110`: at most 38 significant digits from a FormNumber, so always short enough).
    static func numberText(canonical: String) -> String {
        guard canonical.utf8.count > maxNumberTextLength, let p = parse(canonical) else { return canonical }
        var out = p.negative ? "-" : ""
        out += String(decoding: p.digits, as: UTF8.self)
        if p.exponent != 0 { out += "e\(p.exponent)" }
        return out
    }

    /// Canonical text of a JSON number literal (or the literal itself when its expansion is huge).
    static func canonical(literal: String) -> String {
        guard let p = parse(literal), let c = canonical(p) else { return literal }
        return c
    }

    /// The integer value when the number is integral and fits in 64 bits.
    static func int64(_ p: Parts) -> Int64? {
        if p.digits.isEmpty { return 0 }
        guard p.exponent >= 0, p.digits.count + p.exponent <= 19 else { return nil }
        var v: Int64 = 0
        for d in p.digits {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(d - 48))
            if o1 || o2 { return p.negative && v == 922_337_203_685_477_580 && d == 56 && p.exponent == 0 ? Int64.min : nil }
            v = a
        }
        for _ in 0..<p.exponent {
            let (m, o) = v.multipliedReportingOverflow(by: 10)
            if o { return nil }
            v = m
        }
        return p.negative ? -v : v
    }

    /// The digits of a non-negative integer (for `number` fields), when integral.
    static func integerDigits(_ p: Parts) -> String? {
        if p.digits.isEmpty { return "0" }
        guard !p.negative, p.exponent >= 0, p.digits.count + p.exponent <= maxExpandedDigits else { return nil }
        return canonical(p)
    }
}
