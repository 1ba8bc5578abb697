#if os(Linux)
import CFormdLinux
import Glibc

/// Linux: flags on `socket`/`accept4`, `MSG_NOSIGNAL`, epoll.
extension Sys {
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
    static let epollExclusive: UInt32 = 1 << 28
    private static let nonBlocking: Int32 = 0o4000  // SOCK_NONBLOCK
    private static let closeOnExec: Int32 = 0o2000000  // SOCK_CLOEXEC

    /// The CPUs in the process's affinity mask, or 0 if unknown.
    static var affinityCores: Int { Int(formd_affinity_cores()) }

    static func nonBlockingSocket(family: Int32) -> Int32 {
        socket(family, streamSocket | nonBlocking | closeOnExec, 0)
    }

    /// A non-blocking, close-on-exec connection from a listening socket, or -1 (`errno`).
    static func acceptNonBlocking(_ listenFD: Int32) -> Int32 {
        formd_accept4(listenFD, nonBlocking | closeOnExec)
    }

    /// `send` that never raises SIGPIPE on a connection the peer closed.
    static func sendNoSignal(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    }

    static func epollCtl(_ ep: Int32, _ op: Int32, _ fd: Int32, _ events: UInt32) -> Int32 {
        var ev = epoll_event()
        ev.events = events
        ev.data.fd = fd
        return epoll_ctl(ep, op, fd, &ev)
    }
}
#endif
