import Foundation

enum MediaType {
    /// `Application/JSON; charset=utf-8` → `application/json`.
    ///
    /// Bytes, not Foundation: it runs on every POST, and `trimmingCharacters` + `lowercased`
    /// cost about 6 % of a validate request's CPU. Only ASCII letters are folded and only
    /// spaces and tabs trimmed; a media type is ASCII, and anything else matches no type formd
    /// accepts either way.
    static func essence(_ header: String) -> String {
        // What nearly every submission sends: the same string back, no copy.
        if header == "application/json" { return header }
        var bytes = Array(header.utf8.prefix { $0 != UInt8(ascii: ";") })
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.endIndex
        for i in start..<bytes.count where bytes[i] >= 65 && bytes[i] <= 90 { bytes[i] |= 0x20 }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// A `; name=value` parameter of a header value (`boundary` of a Content-Type, `name` of a
    /// Content-Disposition), unquoted (`\"` and `\\` escapes), the name matched case-insensitively.
    static func parameter(_ name: String, in header: String) -> String? {
        var rest = Substring(header)
        // Skip the value before the first parameter.
        guard let semicolon = rest.firstIndex(of: ";") else { return nil }
        rest = rest[rest.index(after: semicolon)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let eq = rest.firstIndex(of: "=") else { return nil }
            let key = rest[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: eq)...]
            var value = ""
            if rest.first == "\"" {
                var i = rest.index(after: rest.startIndex)
                var closed = false
                while i < rest.endIndex {
                    let c = rest[i]
                    if c == "\\", rest.index(after: i) < rest.endIndex {
                        i = rest.index(after: i)
                        value.append(rest[i])
                    } else if c == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(c)
                    }
                    i = rest.index(after: i)
                }
                guard closed else { return nil }
                rest = rest[rest.index(after: i)...]
                if let next = rest.firstIndex(of: ";") { rest = rest[rest.index(after: next)...] } else { rest = "" }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
            }
            if key == name.lowercased() { return value }
        }
        return nil
    }
}
