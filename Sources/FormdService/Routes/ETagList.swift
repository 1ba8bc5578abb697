import Foundation

/// `If-Match` / `If-None-Match` lists (RFC 9110 §13.1).
enum ETagList {
    /// True when `header` is `*` or lists `etag`. With `weak`, `W/"x"` matches `"x"` (If-None-Match);
    /// otherwise a weak tag never matches (If-Match's strong comparison).
    static func matches(_ header: String, _ etag: String, weak: Bool) -> Bool {
        for raw in header.split(separator: ",") {
            var tag = raw.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") {
                guard weak else { continue }
                tag.removeFirst(2)
            }
            if tag == etag { return true }
        }
        return false
    }
}
