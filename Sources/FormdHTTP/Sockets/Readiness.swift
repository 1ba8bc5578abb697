/// What a connection waits for. The bits are epoll's (the epoll backend passes them through);
/// the Dispatch backend turns them into resumed or suspended sources.
enum Readiness {
    static let readable: UInt32 = 0x001
    static let writable: UInt32 = 0x004
    static let error: UInt32 = 0x008
    static let hangup: UInt32 = 0x010
}
