/// Exact decimal arithmetic for formulas and conditions. Every operation returns nil for "no
/// value" (division by zero, out of range) and sets `inexact` when the result had to be
/// rounded to 38 significant digits (then the final result is rounded to 15, SEMANTICS §4).
enum DecimalMath {
    static let significantDigits = 15

    private static func value(_ r: Result<FormNumber, FormNumber.RangeError>) -> FormNumber? {
        if case .success(let n) = r { return n }
        return nil
    }

    static func add(_ a: FormNumber, _ b: FormNumber, _ inexact: inout Bool) -> FormNumber? {
        sum(a, b, bNegative: b.isNegative, &inexact)
    }

    static func subtract(_ a: FormNumber, _ b: FormNumber, _ inexact: inout Bool) -> FormNumber? {
        sum(a, b, bNegative: !b.isNegative, &inexact)
    }

    /// `x + y` (signs given, `x` at the larger exponent, `gap` places above `y`) when both
    /// significands and the aligned result fit in 64 bits, as for the amounts of a few digits
    /// most formulas add: exact, so nothing is rounded, and the same number the general path
    /// gives without its 256-bit alignment. Nil when it does not fit, or past the largest
    /// magnitude (the general path then decides).
    @inline(__always)
    private static func smallSum(_ x: FormNumber, _ xNegative: Bool, _ y: FormNumber, _ yNegative: Bool, gap: Int) -> FormNumber? {
        guard x.high == 0 && y.high == 0 && gap < 20 else { return nil }
        var scaled = x.low
        var k = 0
        while k < gap {
            let (next, overflow) = scaled.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            scaled = next
            k &+= 1
        }
        let exponent = Int(y.exponent)
        if xNegative == yNegative {
            let (total, overflow) = scaled.addingReportingOverflow(y.low)
            if overflow { return nil }
            return FormNumber.make(negative: xNegative, significand: UInt128(total), exponent: exponent)
        }
        return scaled >= y.low
            ? FormNumber.make(negative: xNegative, significand: UInt128(scaled &- y.low), exponent: exponent)
            : FormNumber.make(negative: yNegative, significand: UInt128(y.low &- scaled), exponent: exponent)
    }

    /// a + (±|b|). `smallPath` false: always the general path (tests compare the two).
    static func sum(_ a: FormNumber, _ b: FormNumber, bNegative: Bool,
                    _ inexact: inout Bool, smallPath: Bool = true) -> FormNumber? {
        if b.isZero { return a }
        if a.isZero { return bNegative == b.isNegative ? b : b.negated }
        // x has the larger exponent; it moves up to 39 places left so that y lines up. When y
        // lies further below, its cut digits only feed the rounding (sticky).
        let aFirst = a.exponent >= b.exponent
        let (x, xNegative) = aFirst ? (a, a.isNegative) : (b, bNegative)
        let (y, yNegative) = aFirst ? (b, bNegative) : (a, a.isNegative)
        let gap = Int(x.exponent) - Int(y.exponent)
        if smallPath, let exact = smallSum(x, xNegative, y, yNegative, gap: gap) { return exact }
        let shift = Swift.min(gap, 39)
        let big = UInt256(x.significand).timesPowerOfTen(shift)       // below 10^77
        var small = UInt256(y.significand)
        var sticky = false
        if gap > shift { (small, sticky) = small.divided(byPowerOfTen: gap - shift) }
        let exponent = Int(x.exponent) - shift
        if xNegative == yNegative {
            return value(FormNumber.rounded(negative: xNegative, big + small, exponent: exponent,
                                            sticky: sticky, inexact: &inexact))
        }
        // Opposite signs. With sticky, y is really a little more than `small` and far below
        // x (big >= 10^39 > small): x - y = (big - small - 1) + (something in 0..<1).
        if small <= big {
            var difference = big - small
            if sticky { difference = difference - UInt256(1) }
            return value(FormNumber.rounded(negative: xNegative, difference, exponent: exponent,
                                            sticky: sticky, inexact: &inexact))
        }
        return value(FormNumber.rounded(negative: yNegative, small - big, exponent: exponent,
                                        sticky: false, inexact: &inexact))
    }

    static func multiply(_ a: FormNumber, _ b: FormNumber, _ inexact: inout Bool) -> FormNumber? {
        if a.isZero || b.isZero { return .zero }
        let product: UInt256
        if a.high == 0 && b.high == 0 {
            let p = a.low.multipliedFullWidth(by: b.low)
            product = UInt256(UInt128(p.high) << 64 | UInt128(p.low))
        } else {
            product = UInt256.product(a.significand, b.significand)
        }
        return value(FormNumber.rounded(negative: a.isNegative != b.isNegative, product,
                                        exponent: Int(a.exponent) + Int(b.exponent),
                                        sticky: false, inexact: &inexact))
    }

    /// Real division, correctly rounded to 38 digits.
    static func divide(_ a: FormNumber, _ b: FormNumber, _ inexact: inout Bool) -> FormNumber? {
        if b.isZero { return nil }
        if a.isZero { return .zero }
        // Scale the dividend so the quotient has at least 39 digits (one to round on); the
        // scaled dividend stays below 10^(38 + 39).
        let scale = b.digitCount - a.digitCount + 39
        let (q, r) = UInt256(a.significand).timesPowerOfTen(scale).divided(by: b.significand)
        return value(FormNumber.rounded(negative: a.isNegative != b.isNegative, q,
                                        exponent: Int(a.exponent) - Int(b.exponent) - scale,
                                        sticky: r != 0, inexact: &inexact))
    }

    /// Truncated modulo: `a - b * trunc(a / b)`, so the result has the sign of `a`
    /// (`7 % 3 == 1`, `-7 % 3 == -1`, `7 % -3 == 1`), like Swift's `truncatingRemainder`
    /// and JavaScript's `%`. Works on fractions too (`5.5 % 2 == 1.5`), and is always exact,
    /// even for `1e100 % 7`. `b == 0` gives nil.
    static func modulo(_ a: FormNumber, _ b: FormNumber, _ inexact: inout Bool) -> FormNumber? {
        if b.isZero { return nil }
        if FormNumber.compareMagnitudes(a, b) < 0 { return a }
        let ea = Int(a.exponent), eb = Int(b.exponent)
        if eb > ea {
            // |a| >= |b| with a finer last digit: b's significand shifted to a's exponent is at
            // most |a|'s significand, so it fits.
            let divisor = b.significand * UInt256.powersOfTen[eb - ea]
            return FormNumber.make(negative: a.isNegative, significand: a.significand % divisor, exponent: ea)
        }
        // a = sa × 10^(ea-eb) in units of b's last digit: reduce the power of ten modulo sb.
        let m = b.significand
        let r = mulMod(a.significand % m, powMod(10, ea - eb, m), m)
        return FormNumber.make(negative: a.isNegative, significand: r, exponent: eb)
    }

    /// (x × y) mod m for x, y < m.
    private static func mulMod(_ x: UInt128, _ y: UInt128, _ m: UInt128) -> UInt128 {
        let p = x.multipliedFullWidth(by: y)
        return m.dividingFullWidth((high: p.high, low: p.low)).remainder
    }

    /// base^n mod m.
    private static func powMod(_ base: UInt128, _ n: Int, _ m: UInt128) -> UInt128 {
        if m == 1 { return 0 }
        var result: UInt128 = 1
        var b = base % m
        var e = n
        while e > 0 {
            if e & 1 == 1 { result = mulMod(result, b, m) }
            b = mulMod(b, b, m)
            e >>= 1
        }
        return result
    }

    static func negate(_ a: FormNumber) -> FormNumber { a.negated }

    static func abs(_ a: FormNumber) -> FormNumber { a.magnitude }

    /// Rounds to `scale` digits after the point (negative: to tens, hundreds...).
    static func round(_ a: FormNumber, scale: Int, _ rule: FloatingPointRoundingRule) -> FormNumber? {
        let e = Int(a.exponent)
        if a.isZero || e >= -scale { return a }
        let cut = -scale - e
        let digits = a.digitCount
        var kept: UInt128 = 0
        var roundDigit: UInt128 = 0
        var below = true
        if cut <= digits {
            let (upper, r) = a.significand.quotientAndRemainder(dividingBy: UInt256.powersOfTen[cut - 1])
            (kept, roundDigit) = upper.quotientAndRemainder(dividingBy: 10)
            below = r != 0
        }
        let discarded = roundDigit != 0 || below
        let up: Bool
        switch rule {
        case .toNearestOrAwayFromZero: up = roundDigit >= 5
        case .down: up = a.isNegative && discarded
        case .up: up = !a.isNegative && discarded
        case .towardZero: up = false
        case .awayFromZero: up = discarded
        case .toNearestOrEven:
            up = roundDigit > 5 || (roundDigit == 5 && (below || kept % 2 == 1))
        @unknown default: up = roundDigit >= 5
        }
        if up { kept += 1 }
        return FormNumber.make(negative: a.isNegative, significand: kept, exponent: -scale)
    }

    /// `round(x)`, `round(x, digits)`: ties away from zero.
    /// `digits` must be a whole number in -100...100 (negative rounds to tens, hundreds...).
    static func round(_ a: FormNumber, digits: FormNumber) -> FormNumber? {
        guard let d = digits.intValue, d >= -100, d <= 100 else { return nil }
        return round(a, scale: d, .toNearestOrAwayFromZero)
    }

    static func floor(_ a: FormNumber) -> FormNumber? { round(a, scale: 0, .down) }
    static func ceil(_ a: FormNumber) -> FormNumber? { round(a, scale: 0, .up) }
    static func truncate(_ a: FormNumber) -> FormNumber { round(a, scale: 0, .towardZero) ?? a }

    /// Square root: a Double estimate refined by one Newton step in 38-digit decimal.
    /// Negative input gives nil.
    static func sqrt(_ a: FormNumber, _ inexact: inout Bool) -> FormNumber? {
        if a.isZero { return a }
        if a.isNegative { return nil }
        let d = a.doubleValue
        guard d.isFinite, d > 0 else { return nil }
        var ignored = false
        guard let estimate = FormNumber.parse(String(d.squareRoot())), !estimate.isZero,
              let q = divide(a, estimate, &ignored), let s = add(estimate, q, &ignored),
              let refined = divide(s, 2, &ignored) else { return nil }
        var check = false
        if multiply(refined, refined, &check) != a || check { inexact = true }
        return refined
    }

    /// `pow(x, y)`: exact for whole `y` with |y| <= 1000 (repeated squaring, each step
    /// rounded to 38 digits; x^-n is (1/x)^n), else through Double (inexact).
    static func pow(_ a: FormNumber, _ b: FormNumber, _ inexact: inout Bool) -> FormNumber? {
        if let n = b.intValue, n >= -1000, n <= 1000 {
            if n == 0 { return 1 }
            var result: FormNumber = 1
            // x^-n as (1/x)^n: 1/(x^n) would underflow for small x before the division.
            var base = a
            if n < 0 {
                guard let reciprocal = divide(1, a, &inexact) else { return nil }
                base = reciprocal
            }
            var e = Swift.abs(n)
            while true {
                if e & 1 == 1 {
                    guard let r = multiply(result, base, &inexact) else { return nil }
                    result = r
                }
                e >>= 1
                if e == 0 { break }
                guard let sq = multiply(base, base, &inexact) else { return nil }
                base = sq
            }
            return result
        }
        let r = LibM.pow(a.doubleValue, b.doubleValue)
        guard r.isFinite else { return nil }
        inexact = true
        return FormNumber.parse(String(r))
    }

    /// `f(a)` computed in Double: inexact (the caller rounds to 15 significant digits); nil when
    /// the result is not a finite number (a logarithm of 0, `asin(2)`).
    static func real(_ a: FormNumber, _ inexact: inout Bool, _ f: (Double) -> Double) -> FormNumber? {
        let r = f(a.doubleValue)
        guard r.isFinite else { return nil }
        inexact = true
        return FormNumber.parse(String(r))
    }

    /// Rounds to `significantDigits` significant digits, ties away from zero.
    static func roundedToSignificantDigits(_ a: FormNumber) -> FormNumber? {
        let digits = a.digitCount
        if digits <= significantDigits { return a }
        return round(a, scale: -(Int(a.exponent) + digits - significantDigits), .toNearestOrAwayFromZero)
    }
}
