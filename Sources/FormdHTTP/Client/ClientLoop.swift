import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something a `ClientLoop` drives: readiness of its socket, and its deadline.
protocol ClientLoopMember: AnyObject {
    func handleEvents(_ events: UInt32)
}

/// The outgoing-call loop of an `HTTPClient`: its sockets and timers, on one thread of its own
/// (the epoll event queue, `ClientLoop+Epoll.swift`) or one serial `DispatchQueue` with a source
/// per socket and direction (`ClientLoop+Dispatch.swift`). The server's I/O loops never wait
/// on an upstream: they hand a call here and get the answer back through `EventLoop.execute`.
///
/// Concurrency: everything but `tasks` (under `lock`) is confined to the loop; other threads
/// talk to it through `execute(_:)`, hence `@unchecked Sendable`.
final class ClientLoop: @unchecked Sendable {
    let kind: EventQueueKind
    let lock = NSLock()
    var tasks: [() -> Void] = []
    var wakePending = false
    var alive = true

    // epoll (-1 with Dispatch)
    var epfd: Int32 = -1
    var wakeRead: Int32 = -1
    var wakeWrite: Int32 = -1
    // Dispatch
    let queue: DispatchQueue?
    var sources: [Int32: DispatchRegistration] = [:]

    /// Members by socket.
    var members: [Int32: any ClientLoopMember] = [:]
    /// Timers by id: when (monotonic ms) and what.
    var timers: [Int: (at: Int64, action: () -> Void)] = [:]
    var nextTimerID = 0
    var now: Int64 = Sys.nowMillis()
    /// A reusable read buffer (64 KiB + head room, the most a response may hold).
    let readBuffer: UnsafeMutableRawBufferPointer

    init(kind: EventQueueKind) throws {
        self.kind = kind
        readBuffer = .allocate(byteCount: 32 * 1024, alignment: 16)
        if kind == .epoll {
            queue = nil
            #if os(Linux)
            (epfd, wakeRead, wakeWrite) = try EventLoop.makeEpoll()
            let t = Thread { [self] in run() }
            t.name = "formd-client"
            t.start()
            #else
            throw HTTPServerError(description: "the epoll event queue exists on Linux only")
            #endif
        } else {
            queue = DispatchQueue(label: "formd-client")
        }
    }

    deinit { readBuffer.deallocate() }

    /// Runs `task` on the loop. False when the loop has stopped.
    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        if let queue {
            guard lock.withLock({ alive }) else { return false }
            queue.async { [self] in
                now = Sys.nowMillis()
                task()
            }
            return true
        }
        lock.lock()
        guard alive else { lock.unlock(); return false }
        tasks.append(task)
        let needWake = !wakePending
        wakePending = true
        if needWake {
            var b: UInt8 = 1
            _ = write(wakeWrite, &b, 1)
        }
        lock.unlock()
        return true
    }

    /// Stops the loop (a server stopping): pending calls are not answered any more.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        let wasAlive = alive
        alive = false
        guard wasAlive, queue == nil else { return }
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)  // under the lock: the loop closes the pipe under it too
    }

    // MARK: members (on the loop)

    func register(_ fd: Int32, _ member: any ClientLoopMember, interest: UInt32) {
        members[fd] = member
        if kind == .dispatch { dispatchRegister(fd, interest: interest); return }
        #if os(Linux)
        epollAdd(fd, interest)
        #endif
    }

    func setInterest(_ fd: Int32, _ interest: UInt32) {
        if kind == .dispatch { dispatchSetInterest(fd, interest); return }
        #if os(Linux)
        epollModify(fd, interest)
        #endif
    }

    /// Forgets the socket and closes it (with Dispatch, once its sources are cancelled).
    func closeSocket(_ fd: Int32) {
        members[fd] = nil
        if kind == .dispatch { dispatchClose(fd); return }
        _ = close(fd)  // closing removes it from the epoll set
    }

    // MARK: timers (on the loop)

    /// Runs `action` on the loop at `at` (monotonic ms) unless cancelled first.
    func addTimer(at: Int64, _ action: @escaping () -> Void) -> Int {
        nextTimerID += 1
        let id = nextTimerID
        timers[id] = (at, action)
        if let queue {
            let delay = max(0, at - Sys.nowMillis())
            queue.asyncAfter(deadline: .now() + .milliseconds(Int(delay))) { [self] in
                now = Sys.nowMillis()
                fireTimer(id)
            }
        }
        return id
    }

    func cancelTimer(_ id: Int) { timers[id] = nil }

    private func fireTimer(_ id: Int) {
        guard let t = timers.removeValue(forKey: id) else { return }
        t.action()
    }

    /// Fires the timers that are due (epoll loop); returns ms until the next one (max 1000).
    func fireDueTimers() -> Int32 {
        var next: Int64 = 1000
        var due: [Int] = []
        for (id, t) in timers {
            if t.at <= now { due.append(id) } else { next = min(next, t.at - now) }
        }
        for id in due.sorted() { fireTimer(id) }
        if !due.isEmpty { for t in timers.values { next = min(next, max(0, t.at - now)) } }
        return Int32(max(0, next))
    }

    func runTasks() {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &drain, 64) > 0 {}
        lock.lock()
        let batch = tasks
        tasks.removeAll()
        wakePending = false
        lock.unlock()
        for t in batch { t() }
    }
}
