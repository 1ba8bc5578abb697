/// The readiness mechanism of the I/O loops (`server.event_queue`).
package enum EventQueueKind: String, Sendable, CaseIterable {
    /// One thread per loop blocked in `epoll_wait` (Linux only).
    case epoll
    /// A serial `DispatchQueue` per loop with a `DispatchSource` per socket and direction.
    case dispatch

    /// epoll where it exists, Dispatch elsewhere.
    package static var platformDefault: EventQueueKind {
        #if os(Linux)
        .epoll
        #else
        .dispatch
        #endif
    }
}
