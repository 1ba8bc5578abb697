import Foundation

/// A response as read off the wire by `HTTPTestClient`.
public struct TestResponse: CustomStringConvertible, Sendable {
    public var status: Int
    public var headers: TestHeaders
    public var body: [UInt8]
    /// Trailer fields of a chunked answer.
    public var trailers: TestHeaders

    public init(status: Int, headers: TestHeaders, body: [UInt8], trailers: TestHeaders = TestHeaders()) {
        self.status = status
        self.headers = headers
        self.body = body
        self.trailers = trailers
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name] }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (nil if it is not JSON).
    public var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    public var object: [String: Any] { json as? [String: Any] ?? [:] }

    public var description: String {
        "HTTP \(status) \(headers.fields.map { "\($0.name): \($0.value)" }) \(text.prefix(600))"
    }
}

/// Response header fields in the order received; names compare case-insensitively.
public struct TestHeaders: Sequence, Sendable {
    public var fields: [(name: String, value: String)] = []

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of a repeated header.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}
