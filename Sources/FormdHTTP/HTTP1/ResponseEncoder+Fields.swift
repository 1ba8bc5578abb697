/// The byte-level pieces of a response head: which handler fields the encoder replaces, and the
/// hygiene check on the others.
extension ResponseEncoder {
    /// A handler's field name, as the encoder treats it.
    enum FieldName {
        /// Always the encoder's own (a handler's value is dropped).
        case date, connection, requestID, contentLength, transferEncoding
        /// Kept; gzip adds `Accept-Encoding` to it.
        case vary
        /// Kept, and then the encoder adds none.
        case server
        case other

        @inline(__always)
        init(_ n: UnsafeBufferPointer<UInt8>) {
            switch n.count {
            case 4: self = Self.matches(n, "date") ? .date : Self.matches(n, "vary") ? .vary : .other
            case 6: self = Self.matches(n, "server") ? .server : .other
            case 10: self = Self.matches(n, "connection") ? .connection : .other
            case 12: self = Self.matches(n, "x-request-id") ? .requestID : .other
            case 14: self = Self.matches(n, "content-length") ? .contentLength : .other
            case 17: self = Self.matches(n, "transfer-encoding") ? .transferEncoding : .other
            default: self = .other
            }
        }

        /// `n` is `lower` (same length, letters and `-`), ASCII case-insensitively.
        @inline(__always)
        private static func matches(_ n: UnsafeBufferPointer<UInt8>, _ lower: StaticString) -> Bool {
            let l = lower.utf8Start
            for i in 0..<n.count where n[i] != l[i] {
                // only a letter may differ, and only in case
                if l[i] < UInt8(ascii: "a") || n[i] | 0x20 != l[i] { return false }
            }
            return true
        }
    }

    /// One of a handler's fields, unless it is one the encoder writes itself or it holds a
    /// control character (never let a handler inject a line break into the head).
    @inline(__always)
    static func writeField(
        _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, gzipped: Bool,
        hasServer: inout Bool, hasVary: inout Bool, _ w: inout HeadWriter
    ) {
        let isVary: Bool
        switch FieldName(name) {
        case .date, .connection, .requestID, .contentLength, .transferEncoding: return
        case .vary: hasVary = true; isVary = true
        case .server: hasServer = true; isVary = false
        case .other: isVary = false
        }
        if hasControl(name, allowingTab: false) || hasControl(value, allowingTab: true) { return }
        w.write(name)
        w.write(": ")
        w.write(value)
        if isVary && gzipped { w.write(", Accept-Encoding") }
        w.write("\r\n")
    }

    /// A name without control characters.
    static func isCleanName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { !hasControl($0, allowingTab: false) }
    }

    /// A value without control characters other than tab.
    static func isCleanValue(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { !hasControl($0, allowingTab: true) }
    }

    /// Whether `p` has a byte below 0x20 (other than tab when `allowingTab`). Eight bytes at a
    /// time while none is below 0x20 (a digest or a JSON type is a few words), byte by byte from
    /// the word that may have one.
    @inline(__always)
    private static func hasControl(_ p: UnsafeBufferPointer<UInt8>, allowingTab: Bool) -> Bool {
        guard let base = p.baseAddress else { return false }
        var i = 0
        while i + 8 <= p.count {
            let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // non-zero exactly when some byte of x is below 0x20
            if (x &- 0x2020_2020_2020_2020) & ~x & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
        while i < p.count {
            let b = p[i]
            if b < 0x20 && !(allowingTab && b == 9) { return true }
            i += 1
        }
        return false
    }
}
