/// An ordered list of header fields with case-insensitive name lookup.
///
/// Names and values are kept as received (names are not re-cased); lookups compare
/// ASCII case-insensitively without allocating.
package struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    package typealias Element = (name: String, value: String)
    @usableFromInline var fields: [Element]

    package init() { fields = [] }
    package init(_ fields: [(String, String)]) { self.fields = fields.map { (name: $0.0, value: $0.1) } }
    package init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    package var count: Int { fields.count }
    package var isEmpty: Bool { fields.isEmpty }
    package func makeIterator() -> IndexingIterator<[Element]> { fields.makeIterator() }

    /// The first value of `name`, or nil.
    package subscript(name: String) -> String? {
        for f in fields where HTTPHeaders.equalsIgnoringCase(f.name, name) { return f.value }
        return nil
    }

    /// Every value of `name`, in order.
    /// A list-valued field sent on one or several lines, combined as one comma-separated value
    /// (RFC 9110 §5.3); nil when absent.
    package func list(_ name: String) -> String? {
        // One pass, no array: this runs for every request (Accept-Encoding).
        var first: String?
        var combined: String?
        for f in fields where HTTPHeaders.equalsIgnoringCase(f.name, name) {
            if let so = combined ?? first { combined = so + ", " + f.value } else { first = f.value }
        }
        return combined ?? first
    }

    package func values(for name: String) -> [String] {
        fields.filter { HTTPHeaders.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    package func contains(_ name: String) -> Bool { self[name] != nil }

    package mutating func reserveCapacity(_ n: Int) { fields.reserveCapacity(n) }

    /// Appends a field (keeps existing fields of the same name).
    package mutating func add(_ name: String, _ value: String) { fields.append((name: name, value: value)) }

    /// Replaces every field of `name` with one field.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    package mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.equalsIgnoringCase($0.name, name) }
    }

    /// True when a comma-separated header (e.g. `Connection`) lists `token` (case-insensitive).
    package func hasToken(_ token: String, in name: String) -> Bool {
        for f in fields where HTTPHeaders.equalsIgnoringCase(f.name, name) {
            for part in f.value.split(separator: ",") {
                let t = part.trimmingASCIIWhitespace()
                if HTTPHeaders.equalsIgnoringCase(t, token) { return true }
            }
        }
        return false
    }

    @inlinable
    static func equalsIgnoringCase<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        // Native strings (every header here): compare the bytes in place; zipping the two
        // UTF-8 views cost an iterator step per byte on every header lookup.
        if let same = x.withContiguousStorageIfAvailable({ p in
            y.withContiguousStorageIfAvailable { q in Self.equalsIgnoringCase(p, q) }
        }), let same { return same }
        for (c, d) in zip(x, y) where c != d {
            if c | 0x20 != d | 0x20 { return false }
            let l = c | 0x20
            if l < UInt8(ascii: "a") || l > UInt8(ascii: "z") { return false }
        }
        return true
    }
}

extension HTTPHeaders {
    /// Two Strings (every lookup by name): lengths first, then the bytes in place.
    @inlinable
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a, b = b
        return a.withUTF8 { p in b.withUTF8 { q in equalsIgnoringCase(p, q) } }
    }

    @usableFromInline @inline(__always)
    static func equalsIgnoringCase(_ p: UnsafeBufferPointer<UInt8>, _ q: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<p.count where p[i] != q[i] {
            let l = p[i] | 0x20
            if l != q[i] | 0x20 || l < UInt8(ascii: "a") || l > UInt8(ascii: "z") { return false }
        }
        return true
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> Substring {
        let s = Substring(self)
        var start = s.startIndex, end = s.endIndex
        while start < end, s[start] == " " || s[start] == "\t" { start = s.index(after: start) }
        while end > start {
            let p = s.index(before: end)
            if s[p] == " " || s[p] == "\t" { end = p } else { break }
        }
        return s[start..<end]
    }
}
