/// The Norwegian bank account number check (SEMANTICS §6): 11 digits; when digits 6 and 7
/// (1-based) are both `0` the checksum is skipped (accounts without a check digit), otherwise
/// the mod-11 check digit over the first 10 digits (weights 5,4,3,2,7,6,5,4,3,2; 11 → 0, and a
/// computed 10 never matches) must equal the last digit.
///
/// Deviation: the original counts non-digit characters as 0; formd requires 11 ASCII digits,
/// even when the checksum is skipped. Dots must already be removed (the `bank_account_number`
/// formatter does that, SEMANTICS §2): `1234.56.78903` itself is invalid.
package enum NorwegianBankAccount {
    package static func isValid(_ value: String) -> Bool {
        guard value.utf8.count == 11 else { return false }
        var sum = 0, d6 = 0, d7 = 0, last = 0
        var i = 0
        for c in value.utf8 {
            guard let d = asciiDigit(c) else { return false }
            if i < 10 { sum += d * weight(i) } else { last = d }
            if i == 5 { d6 = d }
            if i == 6 { d7 = d }
            i += 1
        }
        if d6 == 0 && d7 == 0 { return true }
        let k = mod11CheckDigit(sum)
        return k != 10 && k == last
    }

    /// Weights 5,4,3,2,7,6,5,4,3,2.
    private static func weight(_ i: Int) -> Int {
        switch i { case 0, 6: 5; case 1, 7: 4; case 2, 8: 3; case 3, 9: 2; case 4: 7; default: 6 }
    }
}
