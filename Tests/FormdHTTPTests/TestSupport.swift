import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

/// A parsed response as seen by a test client.
struct ClientResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var bodyString: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking test client on a real socket (receive timeout 5 s).
final class TestClient {
    let fd: Int32
    var buffer: [UInt8] = []

    /// `receiveBuffer`: SO_RCVBUF, set before connecting (a small window for slow-reader tests).
    init(port: Int, timeout: Double = 5, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, 4) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { Glibc.close(fd); throw HTTPServerError(description: "connect failed: \(errno)") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, 4)
    }

    deinit { Glibc.close(fd) }

    func send(_ s: String) { send(Array(s.utf8)) }
    func send(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    /// Reads more bytes; false on EOF/error/timeout.
    private func fill() -> Bool {
        var tmp = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &tmp, tmp.count, 0)
        if n <= 0 { return false }
        buffer.append(contentsOf: tmp[0..<n])
        return true
    }

    /// True when the server closed the connection (EOF) with nothing more to read.
    func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        var tmp = [UInt8](repeating: 0, count: 1024)
        let n = recv(fd, &tmp, tmp.count, 0)
        if n > 0 { buffer.append(contentsOf: tmp[0..<n]); return false }
        return n == 0 || errno == ECONNRESET
    }

    /// Reads one response; `head` true for a response to HEAD (no body read).
    func read(head: Bool = false) -> ClientResponse? {
        while true {
            if let r = buffer.firstRange(of: [13, 10, 13, 10]) {
                let headText = String(decoding: buffer[0..<r.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
                var headers = HTTPHeaders()
                for l in lines {
                    guard let c = l.firstIndex(of: ":") else { continue }
                    headers.add(String(l[..<c]), String(l[l.index(after: c)...]).trimmingCharacters(in: .whitespaces))
                }
                let length = head || status == 100 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
                while buffer.count < r.upperBound + length { if !fill() { return nil } }
                let body = Array(buffer[r.upperBound..<(r.upperBound + length)])
                buffer.removeFirst(r.upperBound + length)
                return ClientResponse(status: status, headers: headers, body: body)
            }
            if !fill() { return nil }
        }
    }
}

/// A test handler: `/echo` answers the body, `/slow` sleeps 300 ms, `/big` answers 8 KiB,
/// anything else `{"path":...,"len":N}`.
struct EchoHandler: HTTPHandler {
    func handle(_ r: HTTPRequest) -> HTTPResponse {
        switch r.path {
        case "/echo": return HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: r.body)
        case "/slow": usleep(300_000); return .json("{\"slow\":true}")
        case "/big": return .json(Array(repeating: UInt8(ascii: "a"), count: 8192))
        case "/big-raw":
            var resp = HTTPResponse.json(Array(repeating: UInt8(ascii: "a"), count: 8192))
            resp.allowsCompression = false
            return resp
        case "/id": return .json("{\"id\":\"\(r.requestID)\"}")
        default: return .json("{\"path\":\"\(r.path)\",\"query\":\"\(r.query ?? "")\",\"len\":\(r.body.count)}")
        }
    }
}

/// A configuration on the event queue the run asks for: `.ci/run` runs the suites once per
/// queue with `FORMD_TEST_EVENT_QUEUE` (`epoll`, `dispatch`); unset, the platform's default.
func testConfiguration() -> HTTPServerConfiguration {
    var c = HTTPServerConfiguration()
    if let name = ProcessInfo.processInfo.environment["FORMD_TEST_EVENT_QUEUE"], let kind = EventQueueKind(rawValue: name) {
        c.eventQueue = kind
    }
    return c
}

func makeServer(
    handler: any HTTPHandler = EchoHandler(), _ tweak: (inout HTTPServerConfiguration) -> Void = { _ in }
) throws -> (HTTPServer, Int) {
    var c = testConfiguration()
    c.port = 0
    c.ioThreads = 2
    tweak(&c)
    let s = HTTPServer(configuration: c, handler: handler)
    let p = try s.start()
    return (s, p)
}

/// Shuts down and waits (bounded) for completion.
func stop(_ s: HTTPServer) {
    let sem = DispatchSemaphore(value: 0)
    s.shutdown { sem.signal() }
    _ = sem.wait(timeout: .now() + 10)
}
