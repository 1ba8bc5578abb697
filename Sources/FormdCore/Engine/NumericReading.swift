/// A value's numeric reading for `min_value`/`max_value` (SEMANTICS §6), compared exactly at
/// any magnitude. `FormNumber` holds 38 digits below 1e165 down to 1e-128: a bound compared with
/// a `FormNumber` reading alone let `1e200` (no reading) and `-1e-200` (read as 0) pass.
enum NumericReading {
    case number(FormNumber)
    /// A decimal that `FormNumber` would not hold exactly: compared digit by digit.
    case decimal(DecimalText.Parts)

    init?(_ value: JSONValue) {
        let text: String
        switch value {
        case .bool(let b):
            self = .number(b ? 1 : 0)
            return
        case .number(let n): text = n.text
        case .string(let s): text = s
        default: return nil
        }
        // Short non-zero literals are held exactly (at most 38 digits, not below the finest step).
        if text.utf8.count <= 20, let x = FormNumber(literal: text), x != 0 {
            self = .number(x)
            return
        }
        guard let p = DecimalText.parse(text.trimmingASCIISpaces) else { return nil }
        self = .decimal(p)
    }

    /// The sign of `self - limit`.
    func compare(to limit: FormNumber) -> Int {
        switch self {
        case .number(let x): return x < limit ? -1 : x > limit ? 1 : 0
        case .decimal(let p):
            guard let l = DecimalText.parse(limit.canonicalText) else { return 0 }
            return DecimalText.compare(p, l)
        }
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
