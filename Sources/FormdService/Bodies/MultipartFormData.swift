import FormdCore
import FormdHTTP
import Foundation

/// `multipart/form-data` without files (RFC 7578), what a `<form enctype="multipart/form-data">`
/// posts: each part's `name` and text value, in order. A part with a `filename` is refused: formd
/// validates answers, it does not take uploads.
///
/// One pass over the body: each boundary and each head end is found with `memmem` (linear, it
/// never re-reads bytes), and part heads are read as bytes, bounded by `maxHeadBytes`. The
/// generic `firstRange(of:)` and per-part Foundation string work made 1 MiB of multipart cost
/// 18x the same keys as JSON (round three, docs/RELIABILITY.md).
enum MultipartFormData {
    /// The longest head (its header lines) one part may have.
    static let maxHeadBytes = 8192

    typealias Pairs = [(key: String, value: String)]

    static func decode(_ body: [UInt8], contentType: String) -> Result<Pairs, HTTPError> {
        guard let boundary = MediaType.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 70
        else { return bad("the Content-Type has no boundary") }
        return body.withUnsafeBufferPointer { decode($0, boundary: Array(boundary.utf8)) }
    }

    private static func bad(_ detail: String) -> Result<Pairs, HTTPError> {
        .failure(HTTPError(status: 400, slug: "bad-request", detail: "multipart/form-data: \(detail)"))
    }

    private static func decode(_ body: UnsafeBufferPointer<UInt8>, boundary: [UInt8]) -> Result<Pairs, HTTPError> {
        // The three searches' tables are made once per body, not once per part.
        let delimiter = Needle([45, 45] + boundary)  // "--boundary"
        let separator = Needle([13, 10, 45, 45] + boundary)  // CRLF "--boundary": ends a part's value
        let headEnd = Needle([13, 10, 13, 10])
        guard let first = delimiter.first(in: body, from: 0) else { return bad("no part starts with the boundary") }
        var position = first + delimiter.count
        var pairs: Pairs = []
        var scratch: [UInt8] = []
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if position + 2 <= body.count, body[position] == 45, body[position + 1] == 45 { return .success(pairs) }
            guard position + 2 <= body.count, body[position] == 13, body[position + 1] == 10 else {
                return bad("a boundary is not followed by a line break")
            }
            position += 2
            // The head ends within maxHeadBytes: search only that far, so a huge head costs its
            // bound, not the body.
            let window = UnsafeBufferPointer(rebasing: body[position..<min(body.count, position + maxHeadBytes + 4)])
            guard let headLength = headEnd.first(in: window, from: 0) else {
                return bad(window.count > maxHeadBytes ? "a part's headers are longer than \(maxHeadBytes) bytes" : "a part's headers do not end")
            }
            let head = UnsafeBufferPointer(rebasing: body[position..<position + headLength])
            let valueStart = position + headLength + 4
            guard let valueEnd = separator.first(in: body, from: valueStart) else {
                return bad("a part does not end with the boundary")
            }
            let disposition: Disposition
            switch Disposition.parse(head, scratch: &scratch) {
            case .failure(let problem): return .failure(problem)
            case .success(let d): disposition = d
            }
            guard let name = disposition.name else { return bad("a part has no Content-Disposition name") }
            guard let text = UTF8Text.string(UnsafeBufferPointer(rebasing: body[valueStart..<valueEnd])) else {
                return bad("the value of \"\(name)\" is not UTF-8")
            }
            pairs.append((name, text))
            position = valueEnd + separator.count
        }
    }

    /// Bytes to search for, with their Knuth-Morris-Pratt table: each byte of the haystack is
    /// read once, whatever near-misses it holds.
    struct Needle {
        let bytes: [UInt8]
        /// fail[i]: the length of the longest proper prefix of bytes[...i] that is also its suffix.
        let fail: [Int]

        var count: Int { bytes.count }

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var fail = [Int](repeating: 0, count: bytes.count)
            var k = 0
            for i in 1..<max(bytes.count, 1) {
                while k > 0 && bytes[i] != bytes[k] { k = fail[k - 1] }
                if bytes[i] == bytes[k] { k += 1 }
                fail[i] = k
            }
            self.fail = fail
        }

        /// The offset of the first match in `haystack` at or after `start`.
        func first(in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            let m = bytes.count
            guard m > 0, start <= haystack.count, m <= haystack.count - start else { return nil }
            return bytes.withUnsafeBufferPointer { needle in
                fail.withUnsafeBufferPointer { fail in
                    let first = needle[0]
                    var matched = 0
                    var i = start
                    let n = haystack.count
                    while i < n {
                        let c = haystack[i]
                        if matched == 0 {
                            // The common case: skip to the next possible start.
                            if c != first {
                                i += 1
                                continue
                            }
                            matched = 1
                        } else {
                            while matched > 0 && c != needle[matched] { matched = fail[matched - 1] }
                            if c == needle[matched] { matched += 1 }
                        }
                        if matched == m { return i - m + 1 }
                        i += 1
                    }
                    return nil
                }
            }
        }
    }

    /// What a part's `Content-Disposition` says: its `name`, and whether it is a file.
    struct Disposition {
        var name: String?

        /// Reads the head's lines as bytes; other headers (`Content-Type` of a text part) are
        /// ignored. A `filename` or `filename*` parameter is 415: files are not accepted.
        /// `scratch` is room for unescaping a quoted name, reused from part to part.
        static func parse(_ head: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> Result<Disposition, HTTPError> {
            var d = Disposition()
            var lineStart = 0
            while lineStart <= head.count {
                // The line ends at the next CR LF, or at the head's end. A lone CR is text.
                var lineEnd = lineStart
                while true {
                    while lineEnd < head.count, head[lineEnd] != 13 { lineEnd += 1 }
                    if lineEnd == head.count || (lineEnd + 1 < head.count && head[lineEnd + 1] == 10) { break }
                    lineEnd += 1
                }
                let line = UnsafeBufferPointer(rebasing: head[lineStart..<lineEnd])
                if let colon = line.firstIndex(of: 58), Self.isDisposition(UnsafeBufferPointer(rebasing: line[..<colon])) {
                    let (name, isFile) = Self.parameters(UnsafeBufferPointer(rebasing: line[(colon + 1)...]), scratch: &scratch)
                    if isFile {
                        return .failure(HTTPError(status: 415, slug: "unsupported-media-type", detail: "files are not accepted, only text fields"))
                    }
                    d.name = name
                }
                lineStart = lineEnd + 2
            }
            return .success(d)
        }

        /// The `name` parameter of a Content-Disposition value (`form-data; name="a"`), unquoted
        /// (`\"` and `\\` escapes), and whether a `filename` or `filename*` parameter is there.
        /// Parameter names match case-insensitively; a parameter without `=` ends the list. Only
        /// the first `name`'s value is copied.
        static func parameters(_ v: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> (name: String?, isFile: Bool) {
            let semicolon: UInt8 = 59, quote: UInt8 = 34, backslash: UInt8 = 92, equals: UInt8 = 61
            func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
            guard var i = v.firstIndex(of: semicolon).map({ $0 + 1 }) else { return (nil, false) }
            var name: String?
            var isFile = false
            while i < v.count {
                while i < v.count, isBlank(v[i]) { i += 1 }
                var keyEnd = i
                while keyEnd < v.count, v[keyEnd] != equals, v[keyEnd] != semicolon { keyEnd += 1 }
                guard keyEnd < v.count, v[keyEnd] == equals else { break }
                var k = keyEnd
                while k > i, isBlank(v[k - 1]) { k -= 1 }
                let key = UnsafeBufferPointer(rebasing: v[i..<k])
                let isName = name == nil && UTF8Text.equalsIgnoringCase(key, "name")
                // Counted once its value is read: a quoted value that never closes ends the list
                // without it.
                let isFileKey = UTF8Text.equalsIgnoringCase(key, "filename") || UTF8Text.equalsIgnoringCase(key, "filename*")
                i = keyEnd + 1
                if i < v.count, v[i] == quote {
                    i += 1
                    let valueStart = i
                    var escaped = false
                    var closed = false
                    while i < v.count {
                        if v[i] == backslash, i + 1 < v.count {
                            escaped = true
                            i += 2
                        } else if v[i] == quote {
                            closed = true
                            break
                        } else {
                            i += 1
                        }
                    }
                    guard closed else { break }
                    if isName {
                        let raw = UnsafeBufferPointer(rebasing: v[valueStart..<i])
                        if escaped {
                            scratch.removeAll(keepingCapacity: true)
                            var j = 0
                            while j < raw.count {
                                if raw[j] == backslash, j + 1 < raw.count { j += 1 }
                                scratch.append(raw[j])
                                j += 1
                            }
                            name = String(decoding: scratch, as: UTF8.self)
                        } else {
                            name = String(decoding: raw, as: UTF8.self)
                        }
                    }
                    i += 1
                    while i < v.count, v[i] != semicolon { i += 1 }
                    i += 1
                    if isFileKey { isFile = true }
                } else {
                    var end = i
                    while end < v.count, v[end] != semicolon { end += 1 }
                    var s = i
                    var e = end
                    while s < e, isBlank(v[s]) { s += 1 }
                    while e > s, isBlank(v[e - 1]) { e -= 1 }
                    if isName { name = String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self) }
                    if isFileKey { isFile = true }
                    i = end + 1
                }
            }
            return (name, isFile)
        }

        /// `Content-Disposition`, any case, with spaces or tabs around it.
        static func isDisposition(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            var start = 0
            var end = name.count
            while start < end, name[start] == 0x20 || name[start] == 0x09 { start += 1 }
            while end > start, name[end - 1] == 0x20 || name[end - 1] == 0x09 { end -= 1 }
            return UTF8Text.equalsIgnoringCase(UnsafeBufferPointer(rebasing: name[start..<end]), "content-disposition")
        }
    }
}
