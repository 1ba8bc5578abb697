#if canImport(Darwin)
import Darwin

/// The health check's socket constants on Darwin: no `MSG_NOSIGNAL`; `SO_NOSIGPIPE` instead.
enum Socket {
    static let stream = SOCK_STREAM
    static let noSignal: Int32 = 0
    static func prepare(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    }
}
#endif
