#if os(Linux)
import Glibc

/// The health check's socket constants on Linux.
enum Socket {
    static let stream = Int32(SOCK_STREAM.rawValue)
    /// `send` flags: no SIGPIPE when the server has closed.
    static let noSignal = Int32(MSG_NOSIGNAL)
    static func prepare(_ fd: Int32) {}
}
#endif
