import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// formd's own HTTP/1.1 client for outgoing calls (remote validators): non-blocking sockets on
/// a loop of its own (epoll or Dispatch, as the server's `event_queue`), TLS through OpenSSL
/// with certificate and host-name verification, keep-alive connections reused per origin, and
/// a hard deadline per call that covers name resolution, connect, handshake, request and the
/// whole response. Answers are capped (64 KiB of body by default). Nothing here blocks the
/// caller: `send` returns at once and the completion runs on the client's loop.
package final class HTTPClient: @unchecked Sendable {
    let loop: ClientLoop
    package let maxBodyBytes: Int
    /// Idle keep-alive connections per origin, most recent last (on the loop).
    private var idle: [String: [ClientConnection]] = [:]
    /// Connections with a call, by call identity (on the loop).
    private var busy: [ObjectIdentifier: ClientConnection] = [:]
    /// TLS contexts by CA file ("" for the system store); made on first use.
    private var tlsContexts: [String: ClientTLSContext] = [:]
    private let tlsLock = NSLock()
    /// Resolved names: addresses and when they expire (on the loop).
    private var resolved: [String: (addresses: [[UInt8]], expires: Int64)] = [:]
    /// At most this many idle connections are kept per origin.
    package var maxIdlePerOrigin = 32
    /// An idle connection older than this is not reused (upstreams close theirs after a while).
    package var idleTimeoutMs: Int64 = 30_000

    package init(eventQueue: EventQueueKind = .platformDefault, maxBodyBytes: Int = 64 * 1024) throws {
        loop = try ClientLoop(kind: eventQueue)
        self.maxBodyBytes = maxBodyBytes
    }

    /// Stops the loop; calls in flight are not answered.
    package func shutdown() { loop.stop() }

    /// Checks a CA file now (configuration time), so a bad one is reported at start.
    package func prepareTLS(caFile: String?) throws { _ = try context(caFile: caFile) }

    /// Sends `request`; `completion` runs once, on the client's loop, within the deadline
    /// (plus the loop's wake-up).
    package func send(
        _ request: HTTPClientRequest, caFile: String? = nil,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        let deadline = Sys.nowMillis() + Int64(max(1, request.timeoutMs))
        let call = ClientCall(request: request, deadline: deadline, completion: completion)
        let caFile = caFile
        if !loop.execute({ [self] in begin(call, caFile: caFile) }) { completion(.failure(.stopped)) }
    }

    private var callCAFile: [ObjectIdentifier: String?] = [:]

    private func begin(_ call: ClientCall, caFile: String?) {
        callCAFile[ObjectIdentifier(call)] = caFile
        call.timer = loop.addTimer(at: call.deadline) { [self] in timedOut(call) }
        connect(call)
    }

    private func connect(_ call: ClientCall) {
        let url = call.request.url
        let key = poolKey(call)
        // A kept connection, if one is still fresh.
        while var list = idle[key], let c = list.popLast() {
            idle[key] = list
            if c.state == .idle && loop.now - c.idleSince < idleTimeoutMs && c.stillOpen {
                busy[ObjectIdentifier(call)] = c
                c.start(call)
                return
            }
            c.close()
        }
        let port = url.port
        if let addr = numericAddress(url.host, port: port) {
            open(call, addresses: [addr])
            return
        }
        if let r = resolved[url.host], r.expires > loop.now {
            open(call, addresses: r.addresses.map { withPort($0, port) })
            return
        }
        // getaddrinfo blocks: off the loop; the call's deadline still runs.
        let host = url.host
        DispatchQueue.global().async { [self] in
            let found = Self.resolve(host)
            loop.execute { [self] in
                guard !call.finished else { return }
                if found.isEmpty {
                    finished(call, .failure(.connect("cannot resolve \(host)")), idle: nil)
                    return
                }
                resolved[host] = (found, loop.now + 60_000)
                open(call, addresses: found.map { withPort($0, port) })
            }
        }
    }

    /// A non-blocking connect to the first address that takes one.
    private func open(_ call: ClientCall, addresses: [[UInt8]]) {
        var lastError = "no address"
        for addr in addresses {
            let family = Int32(addr.withUnsafeBytes { $0.load(fromByteOffset: 0, as: sockaddr.self).sa_family })
            let fd = Sys.nonBlockingSocket(family: family)
            if fd < 0 { lastError = Sys.errnoString; continue }
            Sys.setInt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            let rc = addr.withUnsafeBytes { connectRaw(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count)) }
            if rc != 0 && errno != EINPROGRESS {
                lastError = Sys.errnoString
                _ = Glibc_or_Darwin_close(fd)
                continue
            }
            var tls: TLSConnection?
            if call.request.url.isTLS {
                do {
                    let ctx = try context(caFile: callCAFile[ObjectIdentifier(call)] ?? nil)
                    tls = TLSConnection(clientContext: ctx.ctx, fd: fd, host: call.request.url.host)
                } catch {
                    _ = Glibc_or_Darwin_close(fd)
                    finished(call, .failure(.tls("\(error)")), idle: nil)
                    return
                }
                if tls == nil {
                    _ = Glibc_or_Darwin_close(fd)
                    finished(call, .failure(.tls("cannot set up TLS")), idle: nil)
                    return
                }
            }
            let c = ClientConnection(fd: fd, loop: loop, client: self, origin: poolKey(call), tls: tls)
            loop.register(fd, c, interest: Readiness.writable)
            c.registered()
            busy[ObjectIdentifier(call)] = c
            c.start(call)
            return
        }
        finished(call, .failure(.connect(lastError)), idle: nil)
    }

    // MARK: from connections (on the loop)

    func finished(_ call: ClientCall, _ result: Result<HTTPClientResponse, HTTPClientError>, idle connection: ClientConnection?) {
        busy[ObjectIdentifier(call)] = nil
        callCAFile[ObjectIdentifier(call)] = nil
        if let connection {
            var list = idle[connection.origin] ?? []
            if list.count >= maxIdlePerOrigin { list.removeFirst().close() }
            list.append(connection)
            idle[connection.origin] = list
        }
        guard !call.finished else { return }
        call.finished = true
        loop.cancelTimer(call.timer)
        call.completion(result)
    }

    /// A reused connection was closed by the upstream before answering: once more, fresh.
    func restart(_ call: ClientCall) {
        busy[ObjectIdentifier(call)] = nil
        guard !call.finished else { return }
        connect(call)
    }

    func discardIdle(_ c: ClientConnection) {
        idle[c.origin]?.removeAll { $0 === c }
    }

    private func timedOut(_ call: ClientCall) {
        guard !call.finished else { return }
        busy.removeValue(forKey: ObjectIdentifier(call))?.abandon()
        callCAFile[ObjectIdentifier(call)] = nil
        call.finished = true
        call.completion(.failure(.timeout))
    }

    // MARK: helpers

    /// Connections are kept per origin and trust: one verified against a `ca_file` is not
    /// reused for a call that trusts only the system store.
    private func poolKey(_ call: ClientCall) -> String {
        guard call.request.url.isTLS else { return call.request.url.origin }
        return call.request.url.origin + " " + ((callCAFile[ObjectIdentifier(call)] ?? nil) ?? "")
    }

    private func context(caFile: String?) throws -> ClientTLSContext {
        try tlsLock.withLock {
            if let c = tlsContexts[caFile ?? ""] { return c }
            let c = try ClientTLSContext(caFile: caFile)
            tlsContexts[caFile ?? ""] = c
            return c
        }
    }


    /// A sockaddr for a numeric IPv4 or IPv6 host, as bytes.
    private func numericAddress(_ host: String, port: Int) -> [UInt8]? {
        var a4 = sockaddr_in()
        if inet_pton(AF_INET, host, &a4.sin_addr) == 1 {
            a4.sin_family = sa_family_t(AF_INET)
            a4.sin_port = UInt16(port).bigEndian
            return withUnsafeBytes(of: &a4) { Array($0) }
        }
        var a6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &a6.sin6_addr) == 1 {
            a6.sin6_family = sa_family_t(AF_INET6)
            a6.sin6_port = UInt16(port).bigEndian
            return withUnsafeBytes(of: &a6) { Array($0) }
        }
        return nil
    }

    private func withPort(_ addr: [UInt8], _ port: Int) -> [UInt8] {
        var a = addr
        a.withUnsafeMutableBytes { p in
            // sin_port and sin6_port are both at offset 2.
            p.storeBytes(of: UInt16(port).bigEndian, toByteOffset: 2, as: UInt16.self)
        }
        return a
    }

    private static func resolve(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Sys.streamSocket
        var res: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &res) == 0, let first = res else { return [] }
        defer { freeaddrinfo(res) }
        var out: [[UInt8]] = []
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            if let addr = a.pointee.ai_addr {
                out.append(Array(UnsafeRawBufferPointer(start: addr, count: Int(a.pointee.ai_addrlen))))
            }
        }
        return out
    }
}

private func connectRaw(_ fd: Int32, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t) -> Int32 {
    connect(fd, addr, len)
}

private func Glibc_or_Darwin_close(_ fd: Int32) -> Int32 { close(fd) }
