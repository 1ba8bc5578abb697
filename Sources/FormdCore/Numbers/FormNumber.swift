/// formd's number: an exact decimal `±significand × 10^exponent` with at most 38 significant
/// digits, for formulas and conditions (SEMANTICS §4: `0.1 + 0.2 == 0.3`).
///
/// Pure Swift rather than Foundation's `Decimal`: on Linux, swift-foundation's `Decimal` wraps
/// its 8-bit exponent silently (`2 * 1e-126` gives 2), loses digits in division without saying
/// so, and traps inside multiplication (`2*1e-126*1e-126` crashed the expression fuzzer).
///
/// Values are kept normalised (no trailing zeros in the significand; zero is `+0 × 10^0`), so
/// equal numbers have equal fields. The range is magnitudes below 1e165 with steps down to
/// 1e-128; an arithmetic result outside it is no value.
package struct FormNumber: Sendable, Hashable {
    // The significand's halves: two UInt64 keep the struct 8-byte aligned (24 bytes, not 32).
    let low: UInt64
    let high: UInt64
    /// The power of ten of the last significant digit.
    package let exponent: Int32
    package let isNegative: Bool

    static let maxDigits = 38
    /// The finest step: digits below 1e-128 are rounded away.
    static let minExponent = -128
    /// The largest power of ten of a leading digit: magnitudes stay below 1e165.
    static let maxLeadingExponent = 164

    package static let zero = FormNumber(normalized: 0, exponent: 0, negative: false)

    /// The significand, below 10^38.
    var significand: UInt128 { UInt128(high) << 64 | UInt128(low) }

    package var isZero: Bool { low == 0 && high == 0 }

    /// Whether the value is a whole number (normalised: a fraction has a negative exponent).
    package var isInteger: Bool { exponent >= 0 }

    /// For a significand already without trailing zeros and an exponent in range.
    private init(normalized significand: UInt128, exponent: Int, negative: Bool) {
        low = UInt64(truncatingIfNeeded: significand)
        high = UInt64(truncatingIfNeeded: significand >> 64)
        self.exponent = Int32(exponent)
        isNegative = negative && significand != 0
    }

    package init(_ value: Int) {
        let magnitude = UInt128(value.magnitude)
        self = FormNumber.make(negative: value < 0, significand: magnitude, exponent: 0) ?? .zero
    }

    /// `±significand × 10^exponent` for a significand below 10^38 and an exponent of at least
    /// `minExponent`: trailing zeros move into the exponent. Nil past the largest magnitude.
    static func make(negative: Bool, significand: UInt128, exponent: Int) -> FormNumber? {
        if significand == 0 { return .zero }
        var s = significand
        var e = exponent
        if s <= UInt128(UInt64.max) {
            var s64 = UInt64(s)
            while s64 % 10 == 0 { s64 /= 10; e += 1 }
            // At most 20 digits: the digit count below matters only for an exponent near the
            // top of the range (counting them was about a quarter of a short number's parse).
            if e >= minExponent && e <= maxLeadingExponent - 19 {
                return FormNumber(normalized: UInt128(s64), exponent: e, negative: negative)
            }
            s = UInt128(s64)
        } else {
            while s % 10 == 0 { s /= 10; e += 1 }
        }
        guard e >= minExponent, e + UInt256.decimalDigits(s) - 1 <= maxLeadingExponent else { return nil }
        return FormNumber(normalized: s, exponent: e, negative: negative)
    }

    /// Why a rounded result is not a number.
    enum RangeError: Error {
        /// Past the largest magnitude.
        case overflow
        /// Not zero, but below the finest step.
        case underflow
    }

    /// `±value × 10^exponent` rounded to 38 significant digits and to the finest step, ties away
    /// from zero. `sticky` says that non-zero digits were already cut below `value` (the true
    /// value is a little larger in magnitude). Sets `inexact` when anything was rounded away.
    static func rounded(negative: Bool, _ value: UInt256, exponent: Int, sticky: Bool,
                        inexact: inout Bool) -> Result<FormNumber, RangeError> {
        if value.isZero {
            if sticky { inexact = true; return .failure(.underflow) }
            return .success(.zero)
        }
        let digits = value.decimalDigits
        // Digits to cut: past 38, below the finest step, and at least one when digits below
        // `value` were cut already (so that they take part in the rounding).
        var cut = Swift.max(0, digits - maxDigits, minExponent - exponent)
        if sticky && cut == 0 { cut = 1 }
        if cut == 0 {
            guard let n = make(negative: negative, significand: value.low, exponent: exponent) else {
                return .failure(.overflow)
            }
            return .success(n)
        }
        if cut > digits {
            // Every digit is below the rounding digit: the value is below half the finest step.
            inexact = true
            return .failure(.underflow)
        }
        let (upper, below) = value.divided(byPowerOfTen: cut - 1)
        let (kept, roundDigit) = upper.divided(by: 10)
        var significand = kept.low   // at most 38 digits
        if roundDigit != 0 || below || sticky { inexact = true }
        if roundDigit >= 5 { significand += 1 }   // 10^38 at most: `make` strips its zeros
        if significand == 0 { return .failure(.underflow) }
        guard let n = make(negative: negative, significand: significand, exponent: exponent + cut) else {
            return .failure(.overflow)
        }
        return .success(n)
    }

    /// The number of significant digits.
    var digitCount: Int {
        high == 0 ? UInt256.decimalDigits(low) : UInt256.decimalDigits(significand)
    }

    /// The integer value when whole and within Int's range.
    var intValue: Int? {
        // At most 19 digits in all: below 10^19, so the shift cannot overflow.
        guard isInteger, digitCount + Int(exponent) <= 19 else { return nil }
        let m = significand * UInt256.powersOfTen[Int(exponent)]
        guard m <= UInt128(Int.max) else { return nil }
        return isNegative ? -Int(m) : Int(m)
    }

    /// The nearest Double (for `sqrt` and non-integer `pow`, which are inexact anyway).
    var doubleValue: Double { Double(canonicalText) ?? .nan }

    package var negated: FormNumber {
        isZero ? self : FormNumber(normalized: significand, exponent: Int(exponent), negative: !isNegative)
    }

    package var magnitude: FormNumber {
        isNegative ? negated : self
    }
}

extension FormNumber: ExpressibleByIntegerLiteral {
    package init(integerLiteral value: Int) {
        self.init(value)
    }
}

extension FormNumber: Comparable {
    package static func < (a: FormNumber, b: FormNumber) -> Bool {
        if a.isNegative != b.isNegative { return a.isNegative }
        let c = compareMagnitudes(a, b)
        return a.isNegative ? c > 0 : c < 0
    }

    /// -1, 0 or 1 as |a| is below, equal to or above |b|.
    static func compareMagnitudes(_ a: FormNumber, _ b: FormNumber) -> Int {
        if a.isZero || b.isZero { return a.isZero ? (b.isZero ? 0 : -1) : 1 }
        let da = a.digitCount, db = b.digitCount
        let leadA = Int(a.exponent) + da, leadB = Int(b.exponent) + db
        if leadA != leadB { return leadA < leadB ? -1 : 1 }
        // Same leading position: line the significands up (the shifted one has db <= 38 digits).
        var sa = a.significand, sb = b.significand
        if a.exponent > b.exponent {
            sa *= UInt256.powersOfTen[Int(a.exponent - b.exponent)]
        } else if b.exponent > a.exponent {
            sb *= UInt256.powersOfTen[Int(b.exponent - a.exponent)]
        }
        return sa == sb ? 0 : (sa < sb ? -1 : 1)
    }
}
