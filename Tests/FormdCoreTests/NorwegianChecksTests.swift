import Testing
@testable import FormdCore

@Suite struct NorwegianChecksTests {
    @Test(arguments: [
        ("15076500565", true),
        ("31129912319", true),
        ("00000000000", true),
        ("12345678901", false),
        ("101", false),
        ("", false),
        ("150765 00565", false),      // formatted: normalise first
        ("1507650056a", false),       // non-digits never pass (the original counted them as 0)
        ("15076500566", false),       // wrong second check digit
        ("15076500575", false),       // wrong first check digit
        ("150765005650", false),
        ("١٥٠٧٦٥٠٠٥٦٥", false),       // non-ASCII digits
    ])
    func ssn(_ value: String, _ valid: Bool) {
        #expect(NorwegianSSN.isValid(value) == valid, "\(value)")
    }

    @Test func ssnWhoseFirstCheckDigitWouldBeTen() {
        // Σ(w1·d) for 000000001 is 2: 11 − 2 = 9; for 000000010 it is 5 → 6. Search a prefix that
        // gives 10 and check that no completion is valid.
        var found = false
        outer: for n in 0..<2000 {
            let prefix = String(repeating: "0", count: 9 - String(n).count) + String(n)
            let w: [Int] = [3, 7, 6, 1, 8, 9, 4, 5, 2]
            let sum = zip(prefix.utf8, w).reduce(0) { $0 + Int($1.0 - 48) * $1.1 }
            if 11 - sum % 11 == 10 {
                found = true
                for k in 0..<100 {
                    let tail = (k < 10 ? "0" : "") + String(k)
                    #expect(!NorwegianSSN.isValid(prefix + tail))
                }
                break outer
            }
        }
        #expect(found)
    }

    @Test(arguments: [
        ("12345678903", true),
        ("86011117947", true),
        ("00000000000", true),
        ("12345008901", true),        // digits 6 and 7 are 0: the checksum is skipped
        ("12345678901", false),
        ("101", false),
        ("", false),
        ("1234.56.78903", false),     // formatted: normalise first
        ("1234567890a", false),
        ("12345a0890b", false),       // skip rule still needs digits
        ("86011117948", false),
        ("123456789030", false),
    ])
    func bankAccount(_ value: String, _ valid: Bool) {
        #expect(NorwegianBankAccount.isValid(value) == valid, "\(value)")
    }

    @Test func bankAccountWhoseCheckDigitWouldBeTen() {
        // 5·0+4·0+3·0+2·0+7·0+6·0+5·0+4·0+3·0+2·1 = 2 → 9; find a prefix with sum ≡ 1 (mod 11).
        let w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        for n in 1..<100_000 {
            let prefix = String(repeating: "0", count: 10 - String(n).count) + String(n)
            let digits = prefix.utf8.map { Int($0 - 48) }
            guard digits[5] != 0 || digits[6] != 0 else { continue }
            let sum = zip(digits, w).reduce(0) { $0 + $1.0 * $1.1 }
            if sum % 11 == 1 {
                for last in 0...9 { #expect(!NorwegianBankAccount.isValid(prefix + String(last))) }
                return
            }
        }
        Issue.record("no prefix found")
    }

    @Test func idChecks() {
        #expect(IDCheck.forField(id: "social_security_number") == .ssn)
        #expect(IDCheck.forField(id: "person.social_security_number") == .ssn)
        #expect(IDCheck.forField(id: "companies[0].bank_account_number") == .bankAccount)
        #expect(IDCheck.forField(id: "home.postal_code") == .postalCode)
        #expect(IDCheck.forField(id: "my_postal_code") == nil)
        #expect(IDCheck.forField(id: "postal_code.x") == nil)
        #expect(IDCheck.postalCode.isValid("9999", postalCodes: nil))
        let table = PostalCodeTable(["0450": "Oslo"])
        #expect(IDCheck.postalCode.isValid("0450", postalCodes: table))
        #expect(!IDCheck.postalCode.isValid("9999", postalCodes: table))
        #expect(IDCheck.ssn.errorCode.rawValue == "ssn")
        #expect(IDCheck.bankAccount.errorCode.rawValue == "bank_account")
        #expect(IDCheck.postalCode.errorCode.rawValue == "postal_code")
    }
}

@Suite struct PostalCodeTableTests {
    @Test func objectShape() throws {
        let t = try PostalCodeTable(json: .object(JSONObject([
            .init(key: "0201", value: .string("Oslo")),
            .init(key: "0450", value: .string("Oslo")),
        ])))
        #expect(t.count == 2)
        #expect(t.contains("0450") && t.contains("0201"))
        #expect(!t.contains("450") && !t.contains("9999") && !t.contains(" 0450") && !t.contains(""))
        #expect(t.city(for: "0450") == "Oslo")
    }

    @Test func arrayShape() throws {
        func entry(_ city: String, _ code: String) -> JSONValue {
            .object(JSONObject([.init(key: "City", value: .string(city)), .init(key: "Code", value: .string(code))]))
        }
        let t = try PostalCodeTable(json: .array([entry("Oslo", "0201"), entry("Oslo", "0450"), entry("Bergen", "5003")]))
        #expect(t.count == 3)
        #expect(t.contains("5003") && t.city(for: "5003") == "Bergen")
        #expect(!t.contains("Oslo"))
        #expect(try PostalCodeTable(json: .array([])).count == 0)
        #expect(try PostalCodeTable(json: .object(JSONObject())).count == 0)
    }

    @Test func badShapes() {
        #expect(throws: PostalCodeTableError.self) { try PostalCodeTable(json: .string("0450")) }
        #expect(throws: PostalCodeTableError.self) { try PostalCodeTable(json: .null) }
        #expect(throws: PostalCodeTableError.self) {
            try PostalCodeTable(json: .object(JSONObject([.init(key: "0450", value: .number(JSONNumber(literal: "1")))])))
        }
        #expect(throws: PostalCodeTableError.self) { try PostalCodeTable(json: .array([.string("0450")])) }
        do {
            _ = try PostalCodeTable(json: .array([
                .object(JSONObject([.init(key: "City", value: .string("Oslo")), .init(key: "Code", value: .number(JSONNumber(literal: "450")))])),
            ]))
            Issue.record("expected an error")
        } catch {
            #expect(error.path == "[0].Code")
            #expect(error.description.contains("[0].Code"))
        }
    }
}

@Suite struct InputFormatterTests {
    @Test(arguments: [
        // (value, field id, type, normalised)
        ("123 45 678", "phone_number", "text", "12345678"),
        ("0047 12345678", "contact.phone_number", "text", "004712345678"),
        ("0047 12 34 56 78", "companies[0].phone_number", "number", "004712345678"),
        ("123 45 678", "mobile", "text", "123 45 678"),
        ("123 45 678", "mobile", "phone_number", "12345678"),        // by type
        ("150765 00565", "social_security_number", "text", "15076500565"),
        ("150765 00565", "person.social_security_number", "text", "15076500565"),
        ("1234.56.78903", "bank_account_number", "text", "12345678903"),
        ("1234.56.78903", "company.bank_account_number", "text", "12345678903"),
        ("t,e,st@example.com", "email", "text", "test@example.com"),
        ("t,e,st@example.com", "work_email", "email", "test@example.com"),
        ("a,b", "backup", "text", "a,b"),
        ("1234.56", "phone_number.extra", "text", "1234.56"),          // last part decides
        ("a b", "x.phone_number", "bank_account_number", "ab"),        // id before type
        ("ø ø", "phone_number", "text", "øø"),
        ("", "phone_number", "text", ""),
    ])
    func normalise(_ value: String, _ id: String, _ type: String, _ expected: String) {
        #expect(InputFormatter.normalise(value, fieldID: id, type: type) == expected)
    }

    @Test func chosenFormatter() {
        #expect(InputFormatter.forField(id: "a.b.email", type: nil) == .email)
        #expect(InputFormatter.forField(id: "email.", type: nil) == nil)
        #expect(InputFormatter.forField(id: "phone", type: "text") == nil)
        #expect(InputFormatter.forField(id: "phone", type: nil) == nil)
    }
}
