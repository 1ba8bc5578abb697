import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 upstream on 127.0.0.1 (raw sockets, a thread per connection) that answers
/// each request as `behave` says: the remote-validator tests' well-behaved and badly-behaved
/// servers (no mocks: formd's client talks to it over TCP).
public final class TestUpstream: @unchecked Sendable {
    public enum Behavior: Sendable {
        /// A response with Content-Length (keep-alive unless `close`).
        case json(status: Int = 200, String, close: Bool = false)
        /// The same body, chunked.
        case chunked(String)
        /// These bytes, then the connection closes.
        case raw([UInt8])
        /// Waits, then behaves.
        indirect case delay(ms: Int, Behavior)
        /// The bytes one at a time, `intervalMs` apart.
        case drip([UInt8], intervalMs: Int)
        /// Reads the request and never answers (until the upstream stops).
        case hang
        /// Closes without answering.
        case close
    }

    public let port: Int
    private let listenFD: Int32
    private let behave: @Sendable (_ body: [String: Any]) -> Behavior
    private let lock = NSLock()
    private var stopped = false
    /// Signalled when the accept thread has returned: only then is the listening socket closed.
    private let acceptDone = DispatchSemaphore(value: 0)
    /// Connections being served. A descriptor is removed and closed under `lock`, and `stop`
    /// shuts them down under `lock`: it never reaches a number already closed (and perhaps
    /// reused by another test's socket in this process).
    private var openFDs: Set<Int32> = []
    private var _connections = 0
    private var _requests = 0
    private var _inFlight = 0
    private var _maxInFlight = 0
    private var _bodies: [[String: Any]] = []
    private var _headers: [[String: String]] = []

    /// Connections accepted, requests read, the most requests answered at once.
    public var connections: Int { lock.withLock { _connections } }
    public var requests: Int { lock.withLock { _requests } }
    public var maxInFlight: Int { lock.withLock { _maxInFlight } }
    /// The JSON bodies received, in order, and the request headers (names lower-cased).
    public var bodies: [[String: Any]] { lock.withLock { _bodies } }
    public var requestHeaders: [[String: String]] { lock.withLock { _headers } }

    public init(_ behave: @escaping @Sendable (_ body: [String: Any]) -> Behavior) throws {
        self.behave = behave
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0, listen(fd, 128) == 0 else { close(fd); throw HarnessError("bind/listen: errno \(errno)") }
        var bound = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = Int(UInt16(bigEndian: bound.sin_port))
        listenFD = fd
        let t = Thread { [self] in
            acceptLoop()
            acceptDone.signal()
        }
        t.start()
    }

    /// A URL for formd's settings.
    public var url: String { "http://127.0.0.1:\(port)/check" }

    /// Stops accepting and ends every connection. The listening socket is closed only after the
    /// accept thread has returned: closed earlier, that thread could call `accept` on the same
    /// number reused by another test's listening socket, take a connection meant for it and
    /// close it, and that test's client would see a reset.
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            if !stopped { for fd in openFDs { shutdown(fd, Int32(SHUT_RDWR)) } }
            return !stopped
        }
        guard first else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))  // wakes the accept thread on Linux (EINVAL)
        // Bounded: where `shutdown` does not wake a blocked `accept`, the close below does.
        _ = acceptDone.wait(timeout: .now() + 5)
        close(listenFD)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let c = accept(listenFD, nil, nil)
            if c < 0 {
                if errno == EINTR { continue }
                return
            }
            let go = lock.withLock { () -> Bool in
                if stopped { return false }
                _connections += 1
                openFDs.insert(c)
                return true
            }
            guard go else { close(c); return }
            #if canImport(Darwin)
            var noSigPipe: Int32 = 1
            setsockopt(c, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, 4)
            #endif
            let t = Thread { [self] in serve(c) }
            t.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.withLock {
                _ = openFDs.remove(fd)
                close(fd)
            }
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            // One request: head, then Content-Length bytes.
            var headEnd: Int?
            while headEnd == nil {
                if let r = find(buffer, [13, 10, 13, 10]) { headEnd = r; break }
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer += chunk[0..<n]
            }
            let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
            var headers: [String: String] = [:]
            for line in head.split(separator: "\r\n").dropFirst() {
                if let c = line.firstIndex(of: ":") {
                    headers[line[..<c].lowercased()] = line[line.index(after: c)...].trimmingCharacters(in: .whitespaces)
                }
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            while buffer.count < headEnd! + 4 + length {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer += chunk[0..<n]
            }
            let body = Array(buffer[(headEnd! + 4)..<(headEnd! + 4 + length)])
            buffer.removeFirst(headEnd! + 4 + length)
            let json = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
            lock.withLock {
                _requests += 1
                _inFlight += 1
                _maxInFlight = max(_maxInFlight, _inFlight)
                _bodies.append(json)
                _headers.append(headers)
            }
            let keep = answer(fd, behave(json))
            lock.withLock { _inFlight -= 1 }
            if !keep { return }
        }
    }

    /// Whether the connection stays open.
    private func answer(_ fd: Int32, _ b: Behavior) -> Bool {
        switch b {
        case .json(let status, let text, let closeAfter):
            let body = Array(text.utf8)
            var head = "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            if closeAfter { head += "Connection: close\r\n" }
            return sendAll(fd, Array((head + "\r\n").utf8) + body) && !closeAfter
        case .chunked(let text):
            let body = Array(text.utf8)
            var out = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            let mid = body.count / 2
            for part in [body[..<mid], body[mid...]] where !part.isEmpty {
                out += Array(String(part.count, radix: 16).utf8) + [13, 10] + part + [13, 10]
            }
            out += Array("0\r\n\r\n".utf8)
            return sendAll(fd, out)
        case .raw(let bytes):
            _ = sendAll(fd, bytes)
            return false
        case .delay(let ms, let then):
            if !sleepUnlessStopped(ms) { return false }
            return answer(fd, then)
        case .drip(let bytes, let interval):
            for b in bytes {
                if !sendAll(fd, [b]) || !sleepUnlessStopped(interval) { return false }
            }
            return false
        case .hang:
            var b: UInt8 = 0
            while !lock.withLock({ stopped }) {
                if recv(fd, &b, 1, 0) <= 0 { return false }
            }
            return false
        case .close:
            return false
        }
    }

    private func sleepUnlessStopped(_ ms: Int) -> Bool {
        var left = ms
        while left > 0 {
            if lock.withLock({ stopped }) { return false }
            let step = min(left, 20)
            usleep(useconds_t(step * 1000))
            left -= step
        }
        return true
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + off, bytes.count - off, flags) }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    private func find(_ hay: [UInt8], _ needle: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] && Array(hay[i..<i + needle.count]) == needle { return i }
        return nil
    }
}
