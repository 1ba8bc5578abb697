import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection's Dispatch sources. A source is suspended while the connection does not want its
/// direction (the epoll backend's interest mask), and resumed before it is cancelled: Dispatch
/// runs a cancel handler only for a resumed source, and the socket may be closed only then.
final class DispatchRegistration {
    let read: DispatchSourceRead
    var write: DispatchSourceWrite?
    var readActive = true
    var writeActive = false

    init(read: DispatchSourceRead) { self.read = read }
}

/// The `dispatch` event queue (`server.event_queue`): everything runs on the loop's serial
/// queue, so the connection code sees the same single-threaded world as on an epoll thread.
/// Level-triggered like the epoll loop: a source fires again while its socket stays readable
/// (or writable), and the connection reads (writes) what it can each time.
extension EventLoop {
    func dispatchExecute(on queue: DispatchQueue, _ task: @escaping @Sendable () -> Void) -> Bool {
        guard lock.withLock({ alive }) else { return false }
        queue.async { [self] in
            // A task that arrives after shutdown is dropped, as the epoll loop drops it.
            guard lock.withLock({ alive }) else { return }
            now = Sys.nowMillis()
            task()
        }
        return true
    }

    /// On the queue: accept, and the periodic sweep of deadlines.
    func dispatchStart() {
        guard let queue else { return }
        resumeAccepting()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(Int(sweepInterval)), repeating: .milliseconds(Int(sweepInterval)))
        timer.setEventHandler { [unowned self] in
            now = Sys.nowMillis()
            sweep()
        }
        timer.resume()
        sweepTimer = timer
    }

    /// Creates (or resumes) this loop's source on the listening socket. True when accepting.
    func dispatchResumeAccepting() -> Bool {
        guard let queue else { return false }
        if let source = listenSource {
            if listenSourceSuspended {
                source.resume()
                listenSourceSuspended = false
            }
            return true
        }
        // Its own descriptor: the server closes the listening socket when the last loop has
        // drained, and a source's descriptor must stay open until the source is cancelled.
        let fd = dup(listenFD)
        guard fd >= 0 else { return false }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in
            now = Sys.nowMillis()
            acceptConnections()  // on the shared socket: the dup is only the source's handle
        }
        // On the loop's queue, like `finishDrain`: the drained report waits for this close.
        source.setCancelHandler { [self] in
            _ = close(fd)
            listenDescriptorOpen = false
            let next = afterListenDescriptorClosed
            afterListenDescriptorClosed = nil
            next?()
        }
        source.resume()
        listenSource = source
        listenDescriptorOpen = true
        listenSourceSuspended = false
        return true
    }

    /// Stops accepting: suspended for a while (out of descriptors), or cancelled (drain).
    func dispatchPauseAccepting(forever: Bool) {
        guard let source = listenSource else { return }
        if forever {
            if listenSourceSuspended { source.resume() }
            source.cancel()
            listenSource = nil
            listenSourceSuspended = false
        } else if !listenSourceSuspended {
            source.suspend()
            listenSourceSuspended = true
        }
    }

    /// A new connection: a read source (it starts wanting input, as with epoll).
    func dispatchRegister(_ c: Connection) {
        guard let queue else { return }
        let fd = c.fd
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        read.setEventHandler { [unowned self, weak c] in
            guard let c else { return }
            now = Sys.nowMillis()
            c.handleEvents(Readiness.readable)
        }
        if Int(fd) >= sources.count {
            sources.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - sources.count + 64))
        }
        sources[Int(fd)] = DispatchRegistration(read: read)
        read.resume()
    }

    /// The epoll interest mask, as sources resumed or suspended.
    func dispatchSetInterest(_ fd: Int32, _ events: UInt32) {
        guard let queue, Int(fd) < sources.count, let reg = sources[Int(fd)] else { return }
        let wantRead = events & Readiness.readable != 0
        let wantWrite = events & Readiness.writable != 0
        if wantRead != reg.readActive {
            if wantRead { reg.read.resume() } else { reg.read.suspend() }
            reg.readActive = wantRead
        }
        if wantWrite != reg.writeActive {
            if wantWrite {
                if let w = reg.write {
                    w.resume()
                } else {
                    let w = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
                    let c = connection(fd)
                    w.setEventHandler { [unowned self, weak c] in
                        guard let c else { return }
                        now = Sys.nowMillis()
                        c.handleEvents(Readiness.writable)
                    }
                    reg.write = w
                    w.resume()
                }
            } else {
                reg.write?.suspend()
            }
            reg.writeActive = wantWrite
        }
    }

    /// Cancels the connection's sources and closes its socket once the last one is cancelled.
    func dispatchClose(_ fd: Int32) {
        guard Int(fd) < sources.count, let reg = sources[Int(fd)] else {
            _ = close(fd)
            return
        }
        sources[Int(fd)] = nil
        let all: [any DispatchSourceProtocol] = [reg.read] + (reg.write.map { [$0] } ?? [])
        let remaining = Countdown(all.count) { _ = close(fd) }
        if !reg.readActive { reg.read.resume() }
        if let w = reg.write, !reg.writeActive { w.resume() }
        for s in all {
            s.setEventHandler(handler: nil)
            s.setCancelHandler { remaining.tick() }
            s.cancel()
        }
    }

    /// After the last connection: the listener and the sweep timer go too.
    func dispatchShutdown() {
        dispatchPauseAccepting(forever: true)
        sweepTimer?.cancel()
        sweepTimer = nil
    }
}

/// Runs `done` when `tick()` has been called `count` times (on one serial queue).
final class Countdown: @unchecked Sendable {
    private var left: Int
    private let done: () -> Void

    init(_ count: Int, _ done: @escaping () -> Void) {
        left = count
        self.done = done
    }

    func tick() {
        left -= 1
        if left == 0 { done() }
    }
}
