/// The Norwegian national identity number (fødselsnummer) check (SEMANTICS §6): 11 digits whose
/// two mod-11 check digits match. The date part is not checked (D-numbers, H-numbers and test
/// numbers such as `00000000000` pass, as in the original).
///
/// Deviation: the original counts non-digit characters as 0; formd requires 11 ASCII digits, so
/// `1507650056x` is invalid. Spaces must already be removed (the `social_security_number`
/// formatter does that, SEMANTICS §2).
package enum NorwegianSSN {
    package static func isValid(_ value: String) -> Bool {
        guard value.utf8.count == 11 else { return false }
        var sum1 = 0, sum2 = 0, d10 = 0, d11 = 0
        var i = 0
        for c in value.utf8 {
            guard let d = asciiDigit(c) else { return false }
            switch i {
            case 0..<9:
                sum1 += d * weight1(i)
                sum2 += d * weight2(i)
            case 9: d10 = d
            default: d11 = d
            }
            i += 1
        }
        let k1 = mod11CheckDigit(sum1)
        // A computed 10 has no digit: such a number can never be valid.
        guard k1 != 10, k1 == d10 else { return false }
        let k2 = mod11CheckDigit(sum2 + 2 * k1)
        return k2 != 10 && k2 == d11
    }

    /// Weights 3,7,6,1,8,9,4,5,2.
    private static func weight1(_ i: Int) -> Int {
        switch i { case 0: 3; case 1: 7; case 2: 6; case 3: 1; case 4: 8; case 5: 9; case 6: 4; case 7: 5; default: 2 }
    }

    /// Weights 5,4,3,2,7,6,5,4,3.
    private static func weight2(_ i: Int) -> Int {
        switch i { case 0: 5; case 1: 4; case 2: 3; case 3: 2; case 4: 7; case 5: 6; case 6: 5; case 7: 4; default: 3 }
    }
}

/// 11 − (sum mod 11), with 11 → 0 (10 stays 10: no valid digit).
func mod11CheckDigit(_ sum: Int) -> Int {
    let k = 11 - sum % 11
    return k == 11 ? 0 : k
}

@inline(__always) func asciiDigit(_ c: UInt8) -> Int? {
    c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") ? Int(c &- UInt8(ascii: "0")) : nil
}
