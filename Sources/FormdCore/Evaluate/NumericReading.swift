/// A value's numeric reading for `min_value`/`max_value` (SEMANTICS §6), compared exactly at
/// any magnitude. `FormNumber` holds 38 digits below 1e165 down to 1e-128: a bound compared with
/// a `FormNumber` reading alone let `1e200` (no reading) and `-1e-200` (read as 0) pass.
enum NumericReading {
    /// The reading when `FormNumber` holds it exactly: booleans, and short non-zero literals (at
    /// most 20 characters cannot carry more than 38 digits, and non-zero means not below the
    /// finest step). Nil: use `decimal`.
    @inline(__always) static func held(_ value: JSONValue) -> FormNumber? {
        switch value {
        case .bool(let b): return b ? 1 : 0
        case .number(let n): return short(n.text)
        case .string(let s): return short(s)
        default: return nil
        }
    }

    /// `held` of a number or a string read in place: its text (a string's between the quotes).
    @inline(__always) static func held(utf8 text: UnsafeBufferPointer<UInt8>) -> FormNumber? {
        guard text.count <= 20, let x = FormNumber.parse(utf8: text), x != 0 else { return nil }
        return x
    }

    @inline(__always) private static func short(_ text: String) -> FormNumber? {
        guard text.utf8.count <= 20, let x = FormNumber(literal: text), x != 0 else { return nil }
        return x
    }

    /// Any other decimal reading, digit by digit.
    static func decimal(_ value: JSONValue) -> DecimalText.Parts? {
        switch value {
        case .number(let n): return DecimalText.parse(n.text)
        case .string(let s): return DecimalText.parse(s.trimmingASCIISpaces)
        default: return nil
        }
    }

    /// The sign of `p - limit`.
    static func compare(_ p: DecimalText.Parts, _ limit: FormNumber) -> Int {
        guard let l = DecimalText.parse(limit.canonicalText) else { return 0 }
        return DecimalText.compare(p, l)
    }
}

extension String {
    fileprivate var trimmingASCIISpaces: Substring {
        var s = self[...]
        while let c = s.utf8.first, c == 32 || (9...13).contains(c) { s = s.dropFirst() }
        while let c = s.utf8.last, c == 32 || (9...13).contains(c) { s = s.dropLast() }
        return s
    }
}
