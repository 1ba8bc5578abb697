/// Why an outgoing call has no usable answer. `kind` names it in metrics and logs.
package enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The deadline passed (connect, TLS, request and the whole answer count against it).
    case timeout
    /// No connection: refused, unreachable, or the name did not resolve.
    case connect(String)
    /// The TLS handshake failed (an untrusted certificate, a wrong host name, ...).
    case tls(String)
    /// The answer is not HTTP/1.1 as we read it.
    case malformed(String)
    /// The answer is larger than the client accepts.
    case oversized
    /// The upstream closed the connection before the answer was complete.
    case closed
    /// The client is shutting down.
    case stopped

    package var kind: String {
        switch self {
        case .timeout: "timeout"
        case .connect: "connect"
        case .tls: "tls"
        case .malformed: "malformed"
        case .oversized: "oversized"
        case .closed: "closed"
        case .stopped: "stopped"
        }
    }

    package var description: String {
        switch self {
        case .timeout: "timed out"
        case .connect(let why): "cannot connect: \(why)"
        case .tls(let why): "TLS: \(why)"
        case .malformed(let why): "malformed answer: \(why)"
        case .oversized: "answer too large"
        case .closed: "connection closed before the answer was complete"
        case .stopped: "client stopped"
        }
    }
}

/// An upstream's answer.
package struct HTTPClientResponse: Sendable {
    package var status: Int
    /// Lower-cased names.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}

/// A call: `POST url` with `body` (JSON), extra `headers`, answered within `timeoutMs`.
package struct HTTPClientRequest: Sendable {
    package var method: String
    package var url: UpstreamURL
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    package var timeoutMs: Int

    package init(method: String = "POST", url: UpstreamURL, headers: [(name: String, value: String)] = [], body: [UInt8], timeoutMs: Int) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMs = timeoutMs
    }
}
