import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response as read off the wire.
struct HTTPTestResponse: CustomStringConvertible {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (nil if it is not JSON).
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    var description: String { "HTTP \(status) \(headers.map { "\($0.0): \($0.1)" }) \(text.prefix(600))" }
}

/// A tiny blocking HTTP/1.1 client on a plain socket: predictable framing, byte-exact control over
/// what is sent and when (for half-sent bodies), and a receive timeout so a hung server fails a
/// test instead of hanging it.
final class HTTPTestClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeout: Double) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw HarnessError("socket() failed: \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let e = errno
            close(fd)
            throw HarnessError("connect to 127.0.0.1:\(port) failed: errno \(e)")
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, 4)
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let n = bytes.withUnsafeBytes { sysSend(fd, $0.baseAddress! + off, bytes.count - off, flags) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw HarnessError("send failed: errno \(errno)") }
            off += n
        }
    }

    /// The request head (with `Host`, and `Content-Length` when there is a body) and body.
    static func encode(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Sends one request and reads its response.
    func exchange(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws
        -> HTTPTestResponse
    {
        try send(Self.encode(method, path, headers: headers, body: body))
        return try readResponse(forHEAD: method == "HEAD")
    }

    private func fill() throws {
        var tmp = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &tmp, tmp.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n > 0 {
                buffer.append(contentsOf: tmp[0..<n])
                return
            }
            throw HarnessError(n == 0 ? "connection closed by the server" : "recv failed (timeout?): errno \(errno)")
        }
    }

    /// Reads one response (every formd response has `Content-Length`).
    func readResponse(forHEAD: Bool = false) throws -> HTTPTestResponse {
        while true {
            if let r = buffer.firstRange(of: [13, 10, 13, 10]) {
                let headText = String(decoding: buffer[..<r.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw HarnessError("bad status line: \(headText)")
                }
                var headers: [(String, String)] = []
                for l in lines {
                    guard let c = l.firstIndex(of: ":") else { continue }
                    headers.append((String(l[..<c]), String(l[l.index(after: c)...]).trimmingCharacters(in: .whitespaces)))
                }
                let declared = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) }
                let noBody = forHEAD || status == 304 || status == 204 || (100..<200).contains(status)
                let length = noBody ? 0 : (declared ?? 0)
                while buffer.count < r.upperBound + length { try fill() }
                let body = Array(buffer[r.upperBound..<(r.upperBound + length)])
                buffer.removeFirst(r.upperBound + length)
                return HTTPTestResponse(status: status, headers: headers, body: body)
            }
            try fill()
        }
    }

    /// True when the server has closed the connection (EOF) with nothing left to read.
    func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        var tmp = [UInt8](repeating: 0, count: 1024)
        let n = recv(fd, &tmp, tmp.count, 0)
        if n > 0 {
            buffer.append(contentsOf: tmp[0..<n])
            return false
        }
        return n == 0 || errno == ECONNRESET
    }
}

private func sysSend(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
    Glibc.send(fd, p, n, flags)
    #else
    Darwin.send(fd, p, n, flags)
    #endif
}

/// `gzip -dc` as an independent decoder for compressed responses.
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["gzip", "-dc"]
    let input = Pipe()
    let output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    let writer = Thread {
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw HarnessError("gzip -dc failed") }
    return Array(data)
}
