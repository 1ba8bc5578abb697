#if canImport(Darwin)
import Darwin

/// Darwin (macOS, iOS): no `SOCK_NONBLOCK`/`accept4`/`MSG_NOSIGNAL`; `fcntl` and `SO_NOSIGPIPE`
/// instead. Not compiled in this project's CI (Linux); the Dispatch event queue is the one that
/// runs here.
extension Sys {
    static let streamSocket = SOCK_STREAM

    /// Non-blocking, close-on-exec, no SIGPIPE.
    private static func prepare(_ fd: Int32) -> Int32 {
        guard fd >= 0 else { return fd }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        setInt(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        return fd
    }

    static func nonBlockingSocket(family: Int32) -> Int32 {
        prepare(socket(family, streamSocket, 0))
    }

    static func acceptNonBlocking(_ listenFD: Int32) -> Int32 {
        prepare(accept(listenFD, nil, nil))
    }

    static func sendNoSignal(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        send(fd, bytes, count, 0)  // SO_NOSIGPIPE is set on every socket
    }
}
#endif
