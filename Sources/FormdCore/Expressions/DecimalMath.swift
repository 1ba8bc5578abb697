import Foundation

/// Exact decimal arithmetic for formulas and conditions. Every operation returns nil for "no
/// value" (division by zero, out of range, not a real number) and sets `inexact` when the
/// result had to be rounded (then the final result is rounded to 15 significant digits,
/// SEMANTICS §4).
enum DecimalMath {
    static let significantDigits = 15

    private static func check(_ err: NSDecimalNumber.CalculationError, _ r: Decimal,
                              _ inexact: inout Bool) -> Decimal? {
        switch err {
        case .noError: break
        case .lossOfPrecision: inexact = true
        default: return nil
        }
        return r.isNaN ? nil : r
    }

    static func add(_ a: Decimal, _ b: Decimal, _ inexact: inout Bool) -> Decimal? {
        var a = a, b = b, r = Decimal()
        return check(NSDecimalAdd(&r, &a, &b, .plain), r, &inexact)
    }

    static func subtract(_ a: Decimal, _ b: Decimal, _ inexact: inout Bool) -> Decimal? {
        var a = a, b = b, r = Decimal()
        return check(NSDecimalSubtract(&r, &a, &b, .plain), r, &inexact)
    }

    static func multiply(_ a: Decimal, _ b: Decimal, _ inexact: inout Bool) -> Decimal? {
        var a = a, b = b, r = Decimal()
        return check(NSDecimalMultiply(&r, &a, &b, .plain), r, &inexact)
    }

    /// Real division. Foundation does not report a rounded quotient, so exactness is checked
    /// by multiplying back.
    static func divide(_ a: Decimal, _ b: Decimal, _ inexact: inout Bool) -> Decimal? {
        if b.isZero { return nil }
        var a = a, b = b, r = Decimal()
        guard let q = check(NSDecimalDivide(&r, &a, &b, .plain), r, &inexact) else { return nil }
        if !inexact {
            var back = Decimal()
            var q2 = q
            if NSDecimalMultiply(&back, &q2, &b, .plain) != .noError || back != a { inexact = true }
        }
        return q
    }

    /// Truncated modulo: `a - b * trunc(a / b)`, so the result has the sign of `a`
    /// (`7 % 3 == 1`, `-7 % 3 == -1`, `7 % -3 == 1`), like Swift's `truncatingRemainder`
    /// and JavaScript's `%`. Works on fractions too (`5.5 % 2 == 1.5`). `b == 0` gives nil.
    static func modulo(_ a: Decimal, _ b: Decimal, _ inexact: inout Bool) -> Decimal? {
        if b.isZero { return nil }
        var quotientInexact = false
        guard let q = divide(a, b, &quotientInexact) else { return nil }
        let t = truncate(q)
        guard let p = multiply(b, t, &inexact) else { return nil }
        return subtract(a, p, &inexact)
    }

    static func negate(_ a: Decimal) -> Decimal {
        a.isZero ? a : Decimal(0) - a
    }

    static func abs(_ a: Decimal) -> Decimal { a < 0 ? negate(a) : a }

    static func round(_ a: Decimal, scale: Int, _ mode: NSDecimalNumber.RoundingMode) -> Decimal? {
        var a = a, r = Decimal()
        NSDecimalRound(&r, &a, scale, mode)
        return r.isNaN ? nil : r
    }

    /// `round(x)`, `round(x, digits)`: ties away from zero (Foundation's `.plain`).
    /// `digits` must be a whole number in -100...100 (negative rounds to tens, hundreds...).
    static func round(_ a: Decimal, digits: Decimal) -> Decimal? {
        guard digits.isInteger, digits >= -100, digits <= 100 else { return nil }
        return round(a, scale: NSDecimalNumber(decimal: digits).intValue, .plain)
    }

    static func floor(_ a: Decimal) -> Decimal? { round(a, scale: 0, .down) }
    static func ceil(_ a: Decimal) -> Decimal? { round(a, scale: 0, .up) }
    static func truncate(_ a: Decimal) -> Decimal {
        (a < 0 ? round(a, scale: 0, .up) : round(a, scale: 0, .down)) ?? a
    }

    /// Square root: a Double estimate refined by one Newton step in 38-digit decimal.
    /// Negative input gives nil.
    static func sqrt(_ a: Decimal, _ inexact: inout Bool) -> Decimal? {
        if a.isZero { return a }
        if a < 0 { return nil }
        guard let d = Double(a.description), d.isFinite else { return nil }
        var ignored = false
        guard var r = Decimal.parseNumber(String(d.squareRoot())), !r.isZero,
              let q = divide(a, r, &ignored), let s = add(r, q, &ignored),
              let refined = divide(s, 2, &ignored) else { return nil }
        r = refined
        var check = false
        if multiply(r, r, &check) != a || check { inexact = true }
        return r
    }

    /// `pow(x, y)`: exact for whole `y` with |y| <= 1000, else through Double (inexact).
    static func pow(_ a: Decimal, _ b: Decimal, _ inexact: inout Bool) -> Decimal? {
        if b.isInteger && b >= -1000 && b <= 1000 {
            let n = NSDecimalNumber(decimal: b).intValue
            if n == 0 { return 1 }
            var base = a, r = Decimal()
            guard let p = check(NSDecimalPower(&r, &base, Swift.abs(n), .plain), r, &inexact)
            else { return nil }
            return n > 0 ? p : divide(1, p, &inexact)
        }
        guard let x = Double(a.description), let y = Double(b.description) else { return nil }
        let r = Foundation.pow(x, y)
        guard r.isFinite else { return nil }
        inexact = true
        return Decimal.parseNumber(String(r))
    }

    /// Rounds to `significantDigits` significant digits, ties away from zero.
    static func roundedToSignificantDigits(_ a: Decimal) -> Decimal? {
        if a.isZero || a.isNaN { return a.isNaN ? nil : a }
        let digits = abs(a.significand).description.utf8.count
        let scale = significantDigits - a.exponent - digits
        if scale >= -a.exponent { return a }   // already short enough
        return round(a, scale: scale, .plain)
    }
}
