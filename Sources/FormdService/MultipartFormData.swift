@_spi(Engine) import FormdCore
import FormdHTTP
import Foundation

/// `multipart/form-data` without files (RFC 7578), what a `<form enctype="multipart/form-data">`
/// posts: each part's `name` and text value, in order. A part with a `filename` is refused: formd
/// validates answers, it does not take uploads.
enum MultipartFormData {
    static func decode(_ body: [UInt8], contentType: String) -> Result<[(key: String, value: String)], HTTPError> {
        func bad(_ detail: String) -> Result<[(key: String, value: String)], HTTPError> {
            .failure(HTTPError(status: 400, slug: "bad-request", detail: "multipart/form-data: \(detail)"))
        }
        guard let boundary = MediaType.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 70
        else { return bad("the Content-Type has no boundary") }
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        guard var position = body.firstRange(of: delimiter)?.upperBound else { return bad("no part starts with the boundary") }
        var pairs: [(key: String, value: String)] = []
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body[position...].starts(with: [45, 45]) { return .success(pairs) }
            guard body[position...].starts(with: crlf) else { return bad("a boundary is not followed by a line break") }
            position += 2
            guard let headEnd = body[position...].firstRange(of: crlf + crlf) else { return bad("a part's headers do not end") }
            let head = String(decoding: body[position..<headEnd.lowerBound], as: UTF8.self)
            guard let next = body[headEnd.upperBound...].firstRange(of: crlf + delimiter) else {
                return bad("a part does not end with the boundary")
            }
            var name: String?
            for line in head.components(separatedBy: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
                let value = String(parts[1])
                if MediaType.parameter("filename", in: value) != nil || MediaType.parameter("filename*", in: value) != nil {
                    return .failure(HTTPError(status: 415, slug: "unsupported-media-type", detail: "files are not accepted, only text fields"))
                }
                name = MediaType.parameter("name", in: value)
            }
            guard let name else { return bad("a part has no Content-Disposition name") }
            guard let text = String(validating: body[headEnd.upperBound..<next.lowerBound], as: UTF8.self) else {
                return bad("the value of \"\(name)\" is not UTF-8")
            }
            pairs.append((name, text))
            position = next.upperBound
        }
    }
}
