/// An unsigned 256-bit integer with only what `FormNumber` needs: the product of two
/// 38-digit significands, and dividends scaled to 77 digits. Every operation here is used
/// inside those bounds; a result past 2^256 would be a bug and traps.
struct UInt256: Equatable, Comparable {
    var high: UInt128
    var low: UInt128

    init(high: UInt128, low: UInt128) {
        self.high = high
        self.low = low
    }

    init(_ value: UInt128) {
        high = 0
        low = value
    }

    var isZero: Bool { high == 0 && low == 0 }

    static func < (a: UInt256, b: UInt256) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    /// The full product of two 128-bit values.
    static func product(_ a: UInt128, _ b: UInt128) -> UInt256 {
        let p = a.multipliedFullWidth(by: b)
        return UInt256(high: p.high, low: p.low)
    }

    /// `self * m`, which must fit in 256 bits.
    func times(_ m: UInt128) -> UInt256 {
        let lowPart = low.multipliedFullWidth(by: m)
        let (highPart, overflow) = high.multipliedReportingOverflow(by: m)
        precondition(!overflow, "UInt256.times overflow")
        return UInt256(high: highPart + lowPart.high, low: lowPart.low)
    }

    /// `self * 10^n`, which must fit in 256 bits.
    func timesPowerOfTen(_ n: Int) -> UInt256 {
        var r = self
        var left = n
        while left > 0 {
            let step = Swift.min(left, 38)
            r = r.times(UInt256.powersOfTen[step])
            left -= step
        }
        return r
    }

    static func + (a: UInt256, b: UInt256) -> UInt256 {
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        return UInt256(high: a.high + b.high + (carry ? 1 : 0), low: low)
    }

    /// `a - b` for `a >= b`.
    static func - (a: UInt256, b: UInt256) -> UInt256 {
        let (low, borrow) = a.low.subtractingReportingOverflow(b.low)
        return UInt256(high: a.high - b.high - (borrow ? 1 : 0), low: low)
    }

    /// Quotient and remainder by a non-zero 128-bit divisor.
    func divided(by d: UInt128) -> (quotient: UInt256, remainder: UInt128) {
        let (qHigh, rHigh) = high.quotientAndRemainder(dividingBy: d)
        let (qLow, r) = d.dividingFullWidth((high: rHigh, low: low))
        return (UInt256(high: qHigh, low: qLow), r)
    }

    /// Quotient by 10^n and whether the remainder is non-zero (any n >= 0).
    func divided(byPowerOfTen n: Int) -> (quotient: UInt256, inexact: Bool) {
        var q = self
        var inexact = false
        var left = n
        while left > 0 && !q.isZero {
            let step = Swift.min(left, 38)
            let (next, r) = q.divided(by: UInt256.powersOfTen[step])
            if r != 0 { inexact = true }
            q = next
            left -= step
        }
        return (q, inexact)
    }

    /// The number of decimal digits (0 for zero).
    var decimalDigits: Int {
        if high == 0 { return UInt256.decimalDigits(low) }
        let (q, _) = divided(by: UInt256.powersOfTen[38])
        return 38 + q.decimalDigits
    }

    /// 10^0 ... 10^38 (10^38 < 2^128 < 10^39).
    static let powersOfTen: [UInt128] = {
        var table: [UInt128] = [1]
        for _ in 1...38 { table.append(table[table.count - 1] * 10) }
        return table
    }()

    /// The number of decimal digits of `v` (0 for zero).
    static func decimalDigits(_ v: UInt128) -> Int {
        if v == 0 { return 0 }
        if v <= UInt128(UInt64.max) { return decimalDigits(UInt64(v)) }
        // floor(bits * log10(2)) is the digit count or one less.
        let bits = 128 - v.leadingZeroBitCount
        let t = (bits * 1233) >> 12
        return v < powersOfTen[t] ? t : t + 1
    }

    static func decimalDigits(_ v: UInt64) -> Int {
        if v == 0 { return 0 }
        let bits = 64 - v.leadingZeroBitCount
        let t = (bits * 1233) >> 12
        return v < smallPowersOfTen[t] ? t : t + 1
    }

    /// 10^0 ... 10^19 as UInt64.
    static let smallPowersOfTen: [UInt64] = {
        var table: [UInt64] = [1]
        for _ in 1...19 { table.append(table[table.count - 1] * 10) }
        return table
    }()
}
