import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `HTTPTestClient` reads and writes: a plain socket or a TLS session over one.
protocol ByteStream: AnyObject {
    /// Writes some of the bytes; the count written, or <= 0 on failure.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int
    /// Reads into `buffer`; the count read, 0 at end of stream, < 0 on error or timeout.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
    var fd: Int32 { get }
}

/// A connected TCP socket to 127.0.0.1 with a receive timeout and Nagle off.
final class SocketStream: ByteStream {
    let fd: Int32

    init(port: Int, timeout: Double, receiveBuffer: Int32?) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, 4) }
        #if canImport(Darwin)
        var noSigPipe: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, 4)
        #endif
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            // No close here: every stored property is set, so a throw runs deinit, which closes
            // the socket. Closing it here too closed it twice, and the second close hit whatever
            // another test thread had just opened under the same number (a CI run's TLS test
            // failed copying a file with EBADF while a parallel test expected a refused connect).
            throw HarnessError("connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        var tv = timeval()
        tv.tv_sec = Int(timeout)
        tv.tv_usec = .init((timeout - Double(Int(timeout))) * 1e6)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, 4)
    }

    deinit { close(fd) }

    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while true {
            let n = send(fd, bytes.baseAddress!, bytes.count, flags)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = recv(fd, buffer.baseAddress!, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }
}
