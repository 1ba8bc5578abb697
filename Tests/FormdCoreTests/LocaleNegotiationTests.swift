import Testing
@testable import FormdCore

@Suite struct LocaleNegotiationTests {
    @Test(arguments: [
        // (query, Accept-Language, expected)
        (nil, nil, SupportedLocale.en),
        ("locale=nb", nil, .nb),
        ("locale=nb", "es", .nb),
        ("locale=en", "nb", .en),
        ("locale=nb-NO", nil, .nb),
        ("locale=NB_no", nil, .nb),
        ("locale=es-419", nil, .es),
        ("locale=no", nil, .nb),
        ("locale=nn-NO", nil, .nb),
        ("x=1&locale=es&y=2", "nb", .es),
        ("locale=es&locale=nb", nil, .es),        // first parameter wins
        ("locale=fr", "nb", .nb),                 // unsupported: the header decides
        ("locale=fr", nil, .en),
        ("locale=", "es", .es),
        ("locale=%6Eb", nil, .nb),                // percent-decoded
        ("locale=nb%2DNO", nil, .nb),
        ("locale=%zz", "es", .es),
        ("mylocale=nb", "es", .es),               // not the locale parameter
        ("Locale=nb", nil, .en),                  // parameter names are case-sensitive
        ("nb", nil, .nb),                         // a bare tag
        ("", "nb", .nb),
        ("&&&=", "nb", .nb),
    ] as [(String?, String?, SupportedLocale)])
    func query(_ query: String?, _ header: String?, _ expected: SupportedLocale) {
        #expect(negotiateLocale(query: query, acceptLanguage: header) == expected)
    }

    @Test(arguments: [
        ("nb", SupportedLocale.nb),
        ("nb-NO", .nb),
        ("NB-no", .nb),
        ("no", .nb),
        ("nn", .nb),
        ("es-ES", .es),
        ("fr", .en),
        ("fr, es", .es),
        ("fr-CA, fr;q=0.9, nb;q=0.8, en;q=0.7", .nb),
        ("en;q=0.5, nb;q=0.9", .nb),                 // q-values, not order
        ("en;q=0.5, nb;q=0.5", .en),                 // ties: header order
        ("nb;q=0.5, en;q=0.5", .nb),
        ("es;q=0.8,nb;q=0.80", .es),                 // equal q written differently
        ("nb;q=0.001, es;q=0", .nb),
        ("es;q=0, nb;q=0", .en),                     // everything refused: en
        ("es;q=0", .en),
        ("nb ; q=0.9 , es ; q=1", .es),              // OWS around ';'
        ("nb;Q=0.9, es;q=0.8", .nb),
        ("*", .en),
        ("*;q=0.5, nb", .nb),
        ("en, *", .en),
        ("en;q=0.5, *", .nb),                        // * is any locale not named: nb
        ("en;q=0.5, nb;q=0.4, *", .es),
        ("en;q=0.1, nb;q=0.2, es;q=0.3, *", .es),    // all named: * adds nothing
        ("en;q=0, *", .nb),
        ("*;q=0, es", .es),
        ("fr, *;q=0.1", .en),
        // Malformed choices are skipped, the rest still count.
        ("nb;q=2, es", .es),
        ("nb;q=1.5, es", .es),
        ("nb;q=0.1234, es;q=0.1", .es),
        ("nb;q=, es;q=0.1", .es),
        ("nb;q=abc, es;q=0.1", .es),
        ("nb;level=1, es;q=0.1", .es),
        ("nb;q=0.9;q=0.8, es;q=0.1", .es),
        ("nb_NO, es;q=0.1", .es),
        ("n!b, es;q=0.1", .es),
        ("nb NO, es;q=0.1", .es),
        ("1nb, es;q=0.1", .es),
        ("nbbbbbbbbb, es;q=0.1", .es),
        ("nb-toolongsubtag, es;q=0.1", .es),
        ("nb-, es;q=0.1", .es),
        (";q=1, es;q=0.1", .es),
        ("nb;q=1.000", .nb),
        ("nb;q=1.", .nb),
        ("nb;q=0.", .en),
        (",,, ,nb,,", .nb),
        ("", .en),
        ("   ", .en),
        ("\u{0}\u{1}nb", .en),
        ("ñb, es", .es),
        ("en-US-x-private, nb;q=0.9", .en),
    ] as [(String, SupportedLocale)])
    func acceptLanguage(_ header: String, _ expected: SupportedLocale) {
        #expect(negotiateLocale(query: nil, acceptLanguage: header) == expected, "\(header)")
    }

    @Test func localeParameterVariant() {
        #expect(negotiateLocale(localeParameter: "nb-NO", acceptLanguage: nil) == .nb)
        #expect(negotiateLocale(localeParameter: "fr", acceptLanguage: "es") == .es)
        #expect(negotiateLocale(localeParameter: nil, acceptLanguage: nil) == .en)
    }

    @Test func hostileHeaders() {
        let long = String(repeating: "fr-CA;q=0.5, ", count: 800) + "nb;q=0.6"
        #expect(long.utf8.count > 10_240)
        #expect(negotiateLocale(query: nil, acceptLanguage: long) == .nb)

        let garbage = String(repeating: ";;,=q*-_\t ", count: 1100)
        #expect(negotiateLocale(query: nil, acceptLanguage: garbage) == .en)

        let oneHugeTag = String(repeating: "a", count: 20_000)
        #expect(negotiateLocale(query: nil, acceptLanguage: oneHugeTag + ", es") == .es)
        #expect(negotiateLocale(query: "locale=" + oneHugeTag, acceptLanguage: nil) == .en)
        #expect(negotiateLocale(query: "locale=" + String(repeating: "%41", count: 5000), acceptLanguage: "nb") == .nb)

        let commas = String(repeating: ",", count: 10_000)
        #expect(negotiateLocale(query: commas, acceptLanguage: commas) == .en)
    }

    @Test func supportedLocaleTags() {
        #expect(SupportedLocale(tag: "en") == .en)
        #expect(SupportedLocale(tag: "EN-gb") == .en)
        #expect(SupportedLocale(tag: "nb_NO") == .nb)
        #expect(SupportedLocale(tag: "e") == nil)
        #expect(SupportedLocale(tag: "eng") == nil)
        #expect(SupportedLocale(tag: "") == nil)
        #expect(SupportedLocale(tag: "-nb") == nil)
        #expect(SupportedLocale(tag: "nb--NO") == nil)
        #expect(SupportedLocale(tag: "nb-NO-") == nil)
    }
}
