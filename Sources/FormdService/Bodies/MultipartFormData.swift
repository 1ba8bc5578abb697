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
        let delimiter: [UInt8] = [45, 45] + boundary  // "--boundary"
        let separator: [UInt8] = [13, 10] + delimiter  // CRLF "--boundary": ends a part's value
        let headEnd: [UInt8] = [13, 10, 13, 10]
        guard let first = find(delimiter, in: body, from: 0) else { return bad("no part starts with the boundary") }
        var position = first + delimiter.count
        var pairs: Pairs = []
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
            guard let headLength = find(headEnd, in: window, from: 0) else {
                return bad(window.count > maxHeadBytes ? "a part's headers are longer than \(maxHeadBytes) bytes" : "a part's headers do not end")
            }
            let head = UnsafeBufferPointer(rebasing: body[position..<position + headLength])
            let valueStart = position + headLength + 4
            guard let valueEnd = find(separator, in: body, from: valueStart) else {
                return bad("a part does not end with the boundary")
            }
            let disposition: Disposition
            switch Disposition.parse(head) {
            case .failure(let problem): return .failure(problem)
            case .success(let d): disposition = d
            }
            guard let name = disposition.name else { return bad("a part has no Content-Disposition name") }
            guard let text = String(validating: body[valueStart..<valueEnd], as: UTF8.self) else {
                return bad("the value of \"\(name)\" is not UTF-8")
            }
            pairs.append((name, text))
            position = valueEnd + separator.count
        }
    }

    /// The offset of the first `needle` in `haystack` at or after `start`. Knuth-Morris-Pratt:
    /// each byte of the haystack is read once, whatever near-misses it holds.
    static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let m = needle.count
        guard m > 0, start <= haystack.count, m <= haystack.count - start else { return nil }
        // fail[i]: the length of the longest proper prefix of needle[...i] that is also its suffix.
        var fail = [Int](repeating: 0, count: m)
        var k = 0
        for i in 1..<max(m, 1) {
            while k > 0 && needle[i] != needle[k] { k = fail[k - 1] }
            if needle[i] == needle[k] { k += 1 }
            fail[i] = k
        }
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

    /// What a part's `Content-Disposition` says: its `name`, and whether it is a file.
    struct Disposition {
        var name: String?

        /// Reads the head's lines as bytes; other headers (`Content-Type` of a text part) are
        /// ignored. A `filename` or `filename*` parameter is 415: files are not accepted.
        static func parse(_ head: UnsafeBufferPointer<UInt8>) -> Result<Disposition, HTTPError> {
            var d = Disposition()
            var lineStart = 0
            while lineStart <= head.count {
                var lineEnd = lineStart
                while lineEnd < head.count, !(head[lineEnd] == 13 && lineEnd + 1 < head.count && head[lineEnd + 1] == 10) {
                    lineEnd += 1
                }
                let line = UnsafeBufferPointer(rebasing: head[lineStart..<lineEnd])
                if let colon = line.firstIndex(of: 58), Self.isDisposition(UnsafeBufferPointer(rebasing: line[..<colon])) {
                    let (name, isFile) = Self.parameters(UnsafeBufferPointer(rebasing: line[(colon + 1)...]))
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
        /// Parameter names match case-insensitively; a parameter without `=` ends the list.
        static func parameters(_ v: UnsafeBufferPointer<UInt8>) -> (name: String?, isFile: Bool) {
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
                let key = String(decoding: v[i..<k].map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
                i = keyEnd + 1
                var value: [UInt8] = []
                if i < v.count, v[i] == quote {
                    i += 1
                    var closed = false
                    while i < v.count {
                        if v[i] == backslash, i + 1 < v.count {
                            value.append(v[i + 1])
                            i += 2
                        } else if v[i] == quote {
                            closed = true
                            i += 1
                            break
                        } else {
                            value.append(v[i])
                            i += 1
                        }
                    }
                    guard closed else { break }
                    while i < v.count, v[i] != semicolon { i += 1 }
                    i += 1
                } else {
                    var end = i
                    while end < v.count, v[end] != semicolon { end += 1 }
                    var s = i
                    var e = end
                    while s < e, isBlank(v[s]) { s += 1 }
                    while e > s, isBlank(v[e - 1]) { e -= 1 }
                    value = Array(v[s..<e])
                    i = end + 1
                }
                switch key {
                case "name": if name == nil { name = String(decoding: value, as: UTF8.self) }
                case "filename", "filename*": isFile = true
                default: break
                }
            }
            return (name, isFile)
        }

        /// `Content-Disposition`, any case, with spaces or tabs around it.
        static func isDisposition(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            let want = Array("content-disposition".utf8)
            var start = 0
            var end = name.count
            while start < end, name[start] == 0x20 || name[start] == 0x09 { start += 1 }
            while end > start, name[end - 1] == 0x20 || name[end - 1] == 0x09 { end -= 1 }
            guard end - start == want.count else { return false }
            for i in 0..<want.count {
                let c = name[start + i]
                if (c >= 65 && c <= 90 ? c | 0x20 : c) != want[i] { return false }
            }
            return true
        }
    }
}
