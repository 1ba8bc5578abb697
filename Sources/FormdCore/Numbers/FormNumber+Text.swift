extension FormNumber {
    /// A JSON number literal or a decimal string, exactly; nil otherwise.
    init?(literal: String) {
        // `parse(_: String)`: the `Substring` path went through the standard library's generic
        // `Slice` storage look-up (some 300 instructions for a short literal).
        guard let n = FormNumber.parse(literal) else { return nil }
        self = n
    }

    /// Reads a number written in plain or scientific notation (`12`, `-1.5`, `.5`, `2e3`),
    /// with surrounding ASCII whitespace allowed; nil for anything else. Digits past the 38th
    /// significant one are rounded (ties away from zero); magnitudes of 1e165 and above give
    /// nil, and values below the finest step (1e-128) read as 0.
    package static func parse(_ text: String) -> FormNumber? {
        if let n = text.utf8.withContiguousStorageIfAvailable({ parse(utf8: $0) }) { return n }
        return parse(text[...])
    }

    /// See `parse(_: String)`.
    package static func parse(_ text: Substring) -> FormNumber? {
        // Over the bytes: indexing `Substring.UTF8View` checked every index it was given, the
        // larger part of a parse.
        if let n = text.utf8.withContiguousStorageIfAvailable({ parse(utf8: $0) }) { return n }
        return Array(text.utf8).withUnsafeBufferPointer { parse(utf8: $0) }
    }

    /// `parse(_: String)` of UTF-8 bytes (a value read in place in a submission). Not inlined:
    /// its callers' paths would each get a copy (+23 KB of WebAssembly).
    @inline(never)
    static func parse(utf8: UnsafeBufferPointer<UInt8>) -> FormNumber? {
        var i = 0
        var end = utf8.count
        while i < end, isSpace(utf8[i]) { i += 1 }
        while end > i, isSpace(utf8[end - 1]) { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if utf8[i] == UInt8(ascii: "-") || utf8[i] == UInt8(ascii: "+") {
            negative = utf8[i] == UInt8(ascii: "-")
            i += 1
        }
        // The first 19 digits in 64 bits (10^19 - 1 fits), the rest in 128: a multiplication
        // by ten in 128 bits for every digit was most of a short number's parse.
        var small: UInt64 = 0
        var significand: UInt128 = 0
        var kept = 0              // significant digits in `small`, then in `significand`
        var exponent = 0          // power of ten of the last kept digit
        var roundDigit: UInt8 = 0 // the first digit past the 38th
        var sticky = false        // a non-zero digit after that
        var cutDigits = false
        var sawDigit = false
        var sawDot = false
        while i < end {
            let c = utf8[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                sawDigit = true
                let d = c - UInt8(ascii: "0")
                if kept == 0 && d == 0 {
                    if sawDot { exponent -= 1 }   // a leading zero of a fraction
                } else if kept < 19 {
                    small = small &* 10 &+ UInt64(d)
                    kept += 1
                    if sawDot { exponent -= 1 }
                } else if kept < maxDigits {
                    if kept == 19 { significand = UInt128(small) }
                    significand = significand * 10 + UInt128(d)
                    kept += 1
                    if sawDot { exponent -= 1 }
                } else {
                    // Past 38 digits: only the rounding needs them; an integer digit still
                    // moves the value up a power of ten.
                    if !cutDigits { roundDigit = d; cutDigits = true } else if d != 0 { sticky = true }
                    if !sawDot { exponent += 1 }
                }
            } else if c == UInt8(ascii: ".") && !sawDot {
                sawDot = true
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        if kept <= 19 { significand = UInt128(small) }
        if i < end {
            guard utf8[i] == UInt8(ascii: "e") || utf8[i] == UInt8(ascii: "E") else { return nil }
            i += 1
            var expNegative = false
            if i < end, utf8[i] == UInt8(ascii: "-") || utf8[i] == UInt8(ascii: "+") {
                expNegative = utf8[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var sawExpDigit = false
            while i < end, utf8[i] >= UInt8(ascii: "0"), utf8[i] <= UInt8(ascii: "9") {
                sawExpDigit = true
                if e < 100_000 { e = e * 10 + Int(utf8[i] - UInt8(ascii: "0")) }
                i += 1
            }
            guard sawExpDigit, i == end else { return nil }
            exponent += expNegative ? -e : e
        }
        if kept == 0 { return .zero }
        if !cutDigits && exponent >= minExponent {
            return make(negative: negative, significand: significand, exponent: exponent)
        }
        // One rounding, of the kept digits followed by the first cut one.
        var value = UInt256(significand)
        if cutDigits {
            value = value.times(10) + UInt256(UInt128(roundDigit))
            exponent -= 1
        }
        var ignored = false
        switch rounded(negative: negative, value, exponent: exponent, sticky: sticky, inexact: &ignored) {
        case .success(let n): return n
        case .failure(.underflow): return .zero
        case .failure(.overflow): return nil
        }
    }

    /// The shortest plain text of the number: no exponent, no trailing zeros, no `-0`
    /// (`300`, `1.5`, `0.3`, `-2`, `1000000000000000000000`).
    package var canonicalText: String {
        if isZero { return "0" }
        // At most 38 digits, "0." and 127 leading zeros, or 165 integer digits, and a sign.
        // Written on the stack, then copied into a string of exactly its length: with room for
        // 180 bytes, `String(unsafeUninitializedCapacity:)` allocated that much on the heap for
        // every result. Most results fit a small (inline) string, made from ASCII without
        // checking the bytes again (`String(ascii:)`).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 180) { out in
            String(ascii: UnsafeBufferPointer(rebasing: out[..<writeCanonical(into: out)]))
        }
    }

    /// Writes `canonicalText` of a non-zero number into `out` (180 bytes); returns its length.
    /// The digits are written backwards into the end of `out`, then moved to the front, all
    /// through pointers: through slices of a byte buffer, a digit cost some 40 instructions.
    private func writeCanonical(into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let o = out.baseAddress.unsafelyUnwrapped
        // The last 40 bytes hold the digits (at most 39), written from the end.
        let end = o + 180
        var first = end
        // In 64 bits when the significand fits: a 128-bit division by ten is several times slower.
        func writeDigits<T: FixedWidthInteger & UnsignedInteger>(of value: T) {
            var v = value
            while v != 0 {
                let (q, r) = v.quotientAndRemainder(dividingBy: 10)
                first -= 1
                first.pointee = UInt8(truncatingIfNeeded: r) &+ UInt8(ascii: "0")
                v = q
            }
        }
        if high == 0 { writeDigits(of: low) } else { writeDigits(of: significand) }
        let count = end - first
        var k = 0
        @inline(__always) func put(_ c: UInt8) {
            o[k] = c
            k &+= 1
        }
        @inline(__always) func copy(_ from: Int, _ to: Int) {
            for j in from..<to { put(first[j]) }
        }
        if isNegative { put(UInt8(ascii: "-")) }
        let point = count + Int(exponent)  // digits before the decimal point
        if point <= 0 {
            // At most "-0." and 127 zeros before the digits: they end before the digits start.
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "."))
            for _ in 0 ..< -point { put(UInt8(ascii: "0")) }
            copy(0, count)
        } else if point >= count {
            // Up to 165 integer digits: they may reach the digits' room, which is read first.
            copy(0, count)
            for _ in 0 ..< (point - count) { put(UInt8(ascii: "0")) }
        } else {
            copy(0, point)
            put(UInt8(ascii: "."))
            copy(point, count)
        }
        return k
    }

    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }
}

extension FormNumber: CustomStringConvertible {
    package var description: String { canonicalText }
}
