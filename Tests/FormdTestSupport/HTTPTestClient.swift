import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one HTTP/1.1 test client of every test target: a blocking client on a real socket, plain or
/// TLS, with byte-exact control over what is sent and when (half-sent bodies, pipelining, raw
/// garbage) and a receive timeout, so that a hung server fails a test instead of hanging it.
public final class HTTPTestClient: @unchecked Sendable {
    let stream: any ByteStream
    private var buffer: [UInt8] = []

    /// Bytes received and not yet read as a response.
    public var bufferedByteCount: Int { buffer.count }

    /// The socket, for tests that shut it down half-way or read its options.
    public var fd: Int32 { stream.fd }

    /// A plain connection to 127.0.0.1:`port`. `receiveBuffer`: SO_RCVBUF, set before connecting (a
    /// small window for slow-reader tests).
    public init(port: Int, timeout: Double = 5, receiveBuffer: Int32? = nil) throws {
        stream = try SocketStream(port: port, timeout: timeout, receiveBuffer: receiveBuffer)
    }

    /// A TLS connection to 127.0.0.1:`port`, verified against `tls.caFile` as "localhost".
    public init(port: Int, tls: TLSClientOptions, timeout: Double = 5) throws {
        stream = try TLSStream(socket: SocketStream(port: port, timeout: timeout, receiveBuffer: nil), options: tls)
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Writes all of `bytes`; throws if the connection cannot take them.
    public func send(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0[off...])) }
            guard n > 0 else { throw HarnessError("send failed after \(off) of \(bytes.count) bytes: errno \(errno)") }
            off += n
        }
    }

    /// A request head (with `Host`, and `Content-Length` when there is a body) and body.
    public static func encode(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil)
        -> [UInt8]
    {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Sends one request and reads its response.
    public func exchange(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws
        -> TestResponse
    {
        try send(Self.encode(method, path, headers: headers, body: body))
        return try readResponse(forHEAD: method == "HEAD")
    }

    private func fill() throws {
        var tmp = [UInt8](repeating: 0, count: 65536)
        let n = tmp.withUnsafeMutableBytes { stream.read(into: $0) }
        guard n > 0 else {
            throw HarnessError(n == 0 ? "connection closed by the server" : "read failed (timeout?): errno \(errno)")
        }
        buffer.append(contentsOf: tmp[0..<n])
    }

    /// Reads one response framed by `Content-Length` (none for HEAD, 1xx, 204 and 304).
    public func readResponse(forHEAD: Bool = false) throws -> TestResponse {
        while true {
            if let r = buffer.firstRange(of: [13, 10, 13, 10]) {
                let headText = String(decoding: buffer[..<r.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw HarnessError("bad status line: \(headText)")
                }
                var headers = TestHeaders()
                for l in lines {
                    guard let c = l.firstIndex(of: ":") else { continue }
                    headers.fields.append((String(l[..<c]), String(l[l.index(after: c)...]).trimmingCharacters(in: .whitespaces)))
                }
                let noBody = forHEAD || status == 304 || status == 204 || (100..<200).contains(status)
                if !noBody, headers["transfer-encoding"]?.lowercased() == "chunked" {
                    buffer.removeFirst(r.upperBound)
                    var body: [UInt8] = []
                    var trailers = TestHeaders()
                    while let chunk = try readChunk(trailers: &trailers) { body += chunk }
                    return TestResponse(status: status, headers: headers, body: body, trailers: trailers)
                }
                let length = noBody ? 0 : (headers["content-length"].flatMap { Int($0) } ?? 0)
                while buffer.count < r.upperBound + length { try fill() }
                let body = Array(buffer[r.upperBound..<(r.upperBound + length)])
                buffer.removeFirst(r.upperBound + length)
                return TestResponse(status: status, headers: headers, body: body)
            }
            try fill()
        }
    }

    /// Reads a response's head only (for a chunked answer read piece by piece with `readChunk`).
    public func readHead() throws -> TestResponse {
        while true {
            if let r = buffer.firstRange(of: [13, 10, 13, 10]) {
                let headText = String(decoding: buffer[..<r.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw HarnessError("bad status line: \(headText)") }
                var headers = TestHeaders()
                for l in lines {
                    guard let c = l.firstIndex(of: ":") else { continue }
                    headers.fields.append((String(l[..<c]), String(l[l.index(after: c)...]).trimmingCharacters(in: .whitespaces)))
                }
                buffer.removeFirst(r.upperBound)
                return TestResponse(status: status, headers: headers, body: [])
            }
            try fill()
        }
    }

    /// The next chunk of a chunked answer whose head was read; nil after the last chunk, whose
    /// trailer fields go to `trailers`.
    public func readChunk(trailers: inout TestHeaders) throws -> [UInt8]? {
        func line() throws -> String {
            while true {
                if let r = buffer.firstRange(of: [13, 10]) {
                    let text = String(decoding: buffer[..<r.lowerBound], as: UTF8.self)
                    buffer.removeFirst(r.upperBound)
                    return text
                }
                try fill()
            }
        }
        let sizeLine = try line()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else { throw HarnessError("bad chunk size line: \(sizeLine)") }
        if size == 0 {
            while true {
                let t = try line()
                if t.isEmpty { return nil }
                if let c = t.firstIndex(of: ":") {
                    trailers.fields.append((String(t[..<c]), String(t[t.index(after: c)...]).trimmingCharacters(in: .whitespaces)))
                }
            }
        }
        while buffer.count < size + 2 { try fill() }
        let chunk = Array(buffer[..<size])
        guard buffer[size] == 13, buffer[size + 1] == 10 else { throw HarnessError("no CRLF after a chunk") }
        buffer.removeFirst(size + 2)
        return chunk
    }

    /// Everything until the server closes (an unframed HTTP/1.0 answer).
    public func readToEnd() -> [UInt8] {
        while (try? fill()) != nil {}
        defer { buffer = [] }
        return buffer
    }

    /// One response, or nil when the connection ends (or times out) first: for tests that expect
    /// the server to close.
    public func read(head: Bool = false) -> TestResponse? { try? readResponse(forHEAD: head) }

    /// True when the server has closed the connection with nothing left to read.
    public func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        var tmp = [UInt8](repeating: 0, count: 1024)
        let n = tmp.withUnsafeMutableBytes { stream.read(into: $0) }
        if n > 0 {
            buffer.append(contentsOf: tmp[0..<n])
            return false
        }
        return n == 0 || errno == ECONNRESET || stream is TLSStream
    }
}
