/// Picks the response locale (SEMANTICS §9), once per request.
///
/// * `query` is the request's raw query string, without `?` (`locale=nb-NO&x=1`); a bare tag
///   (`nb-NO`, no `=` or `&`) is read as the `locale` value itself. The first `locale` parameter
///   wins when it names a supported locale (by language: `nb-NO` → `nb`). An unsupported, empty or
///   malformed value is ignored and the header decides, as if the parameter were absent: a
///   `?locale=fr` link then still gets the user's own preference rather than a hard English.
/// * `Accept-Language` (RFC 9110 §12.5.4): choices by q-value, ties in header order; `q=0` means
///   "not this"; a malformed choice (bad tag, bad or repeated parameter) is skipped, the others
///   still count. `*` stands for any supported locale not named elsewhere in the header
///   (first of `en`, `nb`, `es`). Each choice matches by its language (`nb-NO` → `nb`,
///   `no`/`nn` → `nb`, see `SupportedLocale.init(tag:)`).
/// * Otherwise `en`.
///
/// One pass over the bytes, no allocation for native strings; any length or garbage is safe.
public func negotiateLocale(query: String?, acceptLanguage: String?) -> SupportedLocale {
    if let query, let locale = LocaleNegotiation.localeFromQuery(query) { return locale }
    if let acceptLanguage, let locale = LocaleNegotiation.fromAcceptLanguage(acceptLanguage) { return locale }
    return .en
}

/// The same, for a caller that has already extracted the `locale` query parameter's value.
public func negotiateLocale(localeParameter: String?, acceptLanguage: String?) -> SupportedLocale {
    if let localeParameter, let locale = SupportedLocale(tag: localeParameter) { return locale }
    if let acceptLanguage, let locale = LocaleNegotiation.fromAcceptLanguage(acceptLanguage) { return locale }
    return .en
}

enum LocaleNegotiation {
    static func localeFromQuery(_ query: String) -> SupportedLocale? {
        withBytes(query) { b in
            if !b.contains(UInt8(ascii: "=")) && !b.contains(UInt8(ascii: "&")) {
                return SupportedLocale.match(tagBytes: b)
            }
            var start = 0
            while start <= b.count {
                var end = start
                while end < b.count && b[end] != UInt8(ascii: "&") { end += 1 }
                // "locale=" is 7 bytes.
                if end - start >= 7 && b[start + 6] == UInt8(ascii: "=")
                    && equalsASCII(b, start, start + 6, "locale") {
                    return decodedTag(b, start + 7, end)
                }
                start = end + 1
            }
            return nil
        }
    }

    /// Matches a query value, decoding `%XX` (a tag needs no other escapes). At most 64 bytes.
    private static func decodedTag(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> SupportedLocale? {
        if !b[s..<e].contains(UInt8(ascii: "%")) {
            return SupportedLocale.match(tagBytes: UnsafeBufferPointer(rebasing: b[s..<e]))
        }
        guard e - s <= 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buf in
            var n = 0, i = s
            while i < e {
                if b[i] == UInt8(ascii: "%") {
                    guard i + 2 < e, let hi = hex(b[i + 1]), let lo = hex(b[i + 2]) else { return nil }
                    buf[n] = hi << 4 | lo
                    i += 3
                } else {
                    buf[n] = b[i]
                    i += 1
                }
                n += 1
            }
            return SupportedLocale.match(tagBytes: UnsafeBufferPointer(rebasing: buf[0..<n]))
        }
    }

    static func fromAcceptLanguage(_ header: String) -> SupportedLocale? {
        withBytes(header) { b in
            var named: SupportedLocale?
            var namedQ = 0               // per mille; a candidate needs q > 0
            var namedOrder = Int.max
            var starQ = 0
            var starOrder = Int.max
            var mentioned: UInt8 = 0     // bit per locale named by any choice, q=0 included
            var order = 0
            var start = 0
            while start < b.count {
                var end = start
                while end < b.count && b[end] != UInt8(ascii: ",") { end += 1 }
                if let choice = parseChoice(b, start, end) {
                    switch choice.range {
                    case .star:
                        if choice.q > starQ { starQ = choice.q; starOrder = order }
                    case .tag(let locale):
                        mentioned |= 1 << UInt8(locale.index)
                        if choice.q > namedQ { namedQ = choice.q; named = locale; namedOrder = order }
                    case .unsupported:
                        break
                    }
                    order += 1
                }
                start = end + 1
            }
            if starQ > namedQ || (starQ > 0 && starQ == namedQ && starOrder < namedOrder) {
                // `*`: any supported locale the header does not name.
                if let any = SupportedLocale.allCases.first(where: { mentioned & (1 << UInt8($0.index)) == 0 }) {
                    return any
                }
            }
            return named
        }
    }

    enum Range { case star, tag(SupportedLocale), unsupported }

    /// One `range *( OWS ";" OWS "q=" qvalue )` element between `s` and `e`; nil when malformed
    /// or empty.
    private static func parseChoice(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> (range: Range, q: Int)? {
        var i = s
        skipOWS(b, &i, e)
        let tagStart = i
        while i < e && b[i] != UInt8(ascii: ";") && !isOWS(b[i]) { i += 1 }
        let tagEnd = i
        guard tagEnd > tagStart else { return nil }
        let range: Range
        if tagEnd - tagStart == 1 && b[tagStart] == UInt8(ascii: "*") {
            range = .star
        } else if b[tagStart..<tagEnd].contains(UInt8(ascii: "_")) {
            return nil  // `_` is tolerated in ?locale= only; in the header it is malformed
        } else if let locale = SupportedLocale.match(tagBytes: UnsafeBufferPointer(rebasing: b[tagStart..<tagEnd])) {
            range = .tag(locale)
        } else if validTag(b, tagStart, tagEnd) {
            range = .unsupported
        } else {
            return nil
        }
        var q = 1000
        var sawQ = false
        skipOWS(b, &i, e)
        while i < e {
            guard b[i] == UInt8(ascii: ";") else { return nil }
            i += 1
            skipOWS(b, &i, e)
            guard !sawQ, i + 1 < e, b[i] | 0x20 == UInt8(ascii: "q"), b[i + 1] == UInt8(ascii: "=") else { return nil }
            i += 2
            let valueStart = i
            while i < e && b[i] != UInt8(ascii: ";") && !isOWS(b[i]) { i += 1 }
            guard let value = qvalue(b, valueStart, i) else { return nil }
            q = value
            sawQ = true
            skipOWS(b, &i, e)
        }
        return (range, q)
    }

    /// RFC 9110 qvalue: `0[.ddd]` or `1[.000]`, in per mille.
    private static func qvalue(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Int? {
        guard e > s, e - s <= 5 else { return nil }
        let lead = b[s]
        guard lead == UInt8(ascii: "0") || lead == UInt8(ascii: "1") else { return nil }
        var value = Int(lead - UInt8(ascii: "0")) * 1000
        if e - s == 1 { return value }
        guard b[s + 1] == UInt8(ascii: ".") else { return nil }
        var scale = 100
        for i in (s + 2)..<e {
            let c = b[i]
            guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
            value += Int(c - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// `1*8ALPHA *("-" 1*8alphanum)`, for ranges that are well-formed but not supported.
    private static func validTag(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
        var length = 0
        var first = true
        for i in s..<e {
            let c = b[i]
            if c == UInt8(ascii: "-") {
                if length == 0 { return false }
                length = 0
                first = false
                continue
            }
            let lower = c | 0x20
            let alpha = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
            let digit = c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
            guard alpha || (digit && !first) else { return false }
            length += 1
            if length > 8 { return false }
        }
        return length > 0
    }

    private static func isOWS(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }

    private static func skipOWS(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ e: Int) {
        while i < e && isOWS(b[i]) { i += 1 }
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func equalsASCII(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ literal: StaticString) -> Bool {
        guard e - s == literal.utf8CodeUnitCount else { return false }
        let p = literal.utf8Start
        for k in 0..<(e - s) where b[s + k] != p[k] { return false }
        return true
    }

    /// Runs `body` on the UTF-8 bytes, copying only for non-contiguous (bridged) strings.
    private static func withBytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(s.utf8).withUnsafeBufferPointer(body)
    }
}
