import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin POSIX helpers, the same on every OS; the per-OS ones are in `Sys+Linux.swift` and
/// `Sys+Darwin.swift`. All sockets are non-blocking and close-on-exec.
enum Sys {
    /// Milliseconds on the monotonic clock.
    static func nowMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    static func setInt(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var v = value
        _ = setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
    }

    /// `close(2)`, callable where a type has a `close()` of its own.
    @discardableResult
    static func closeFD(_ fd: Int32) -> Int32 { close(fd) }

    static var errnoString: String { String(cString: strerror(errno)) }

    /// The cores this process may use: the machine's as Foundation counts them, and on Linux no
    /// more than the CPUs in its affinity mask (`taskset -c 1`, a container's cpuset) nor its
    /// cgroup v2 CPU limit rounded up (`docker run --cpus 1.5` gives 2). A server started on one
    /// core sizes its threads for one core, not for the machine.
    static var activeCores: Int {
        var cores = ProcessInfo.processInfo.activeProcessorCount
        #if os(Linux)
        let affinity = affinityCores
        if affinity > 0 { cores = min(cores, affinity) }
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8),
            let limit = cgroupCPULimit(text)
        {
            cores = min(cores, limit)
        }
        #endif
        return max(1, cores)
    }

    /// A cgroup v2 `cpu.max` (`QUOTA PERIOD` in microseconds, or `max PERIOD` for no limit) as
    /// whole cores, rounded up; nil when there is no limit or the text is not that.
    static func cgroupCPULimit(_ text: String) -> Int? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0
        else { return nil }
        return (quota + period - 1) / period
    }
}

extension Sys {
    /// Binds and listens on host:port (numeric IPv4/IPv6 or a name resolved by getaddrinfo).
    /// Returns the listening fd and the bound port.
    static func makeListener(host: String, port: Int, backlog: Int32) throws -> (Int32, Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Sys.streamSocket
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var res: UnsafeMutablePointer<addrinfo>? = nil
        let h = host.isEmpty ? nil : host
        let rc = getaddrinfo(h, String(port), &hints, &res)
        guard rc == 0, let first = res else {
            throw HTTPServerError(description: "cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(res) }
        var lastError = "no address"
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            let fd = Sys.nonBlockingSocket(family: a.pointee.ai_family)
            if fd < 0 { lastError = Sys.errnoString; continue }
            Sys.setInt(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            if a.pointee.ai_family == AF_INET6 { Sys.setInt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0) }
            if bind(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) != 0 || listen(fd, backlog) != 0 {
                lastError = Sys.errnoString
                Sys.closeFD(fd)
                continue
            }
            var ss = sockaddr_storage()
            var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let bound = withUnsafeMutablePointer(to: &ss) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
            }
            var boundPort = port
            if bound == 0 {
                if Int32(ss.ss_family) == AF_INET {
                    boundPort = withUnsafePointer(to: &ss) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) } }
                } else {
                    boundPort = withUnsafePointer(to: &ss) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) } }
                }
            }
            return (fd, boundPort)
        }
        throw HTTPServerError(description: "cannot listen on \(host):\(port): \(lastError)")
    }
}
