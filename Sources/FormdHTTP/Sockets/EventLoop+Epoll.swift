#if os(Linux)
import CFormdLinux
import Foundation
import Glibc

/// The epoll event queue (Linux): a thread per loop blocked in `epoll_wait`, level-triggered,
/// woken for cross-thread tasks through a pipe. The listening socket is registered in every loop
/// with `EPOLLEXCLUSIVE`, so the kernel wakes one loop per incoming connection.
extension EventLoop {
    static func makeEpoll() throws -> (epfd: Int32, wakeRead: Int32, wakeWrite: Int32) {
        let epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epfd >= 0 else { throw HTTPServerError(description: "epoll_create1: \(Sys.errnoString)") }
        var fds: [Int32] = [0, 0]
        guard formd_pipe2(&fds, O_NONBLOCK | O_CLOEXEC) == 0 else { throw HTTPServerError(description: "pipe2: \(Sys.errnoString)") }
        _ = Sys.epollCtl(epfd, EPOLL_CTL_ADD, fds[0], Readiness.readable)
        return (epfd, fds[0], fds[1])
    }

    func run() {
        Thread.current.threadDictionary[Self.threadKey] = index
        let maxEvents = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: maxEvents)
        defer { events.deallocate() }
        nextSweep = Sys.nowMillis() + sweepInterval
        while !stopped {
            let timeout = Int32(max(0, min(nextSweep - now, 1000)))
            let n = epoll_wait(epfd, events, Int32(maxEvents), timeout)
            now = Sys.nowMillis()
            if n < 0 && errno != EINTR { break }
            var i = 0
            while i < Int(n) {
                let ev = events[i]
                i += 1
                let fd = ev.data.fd
                if fd == wakeRead { runTasks(); continue }
                if fd == listenFD { acceptConnections(); continue }
                guard Int(fd) < connections.count, let c = connections[Int(fd)] else { continue }
                c.handleEvents(ev.events)
            }
            if hasJobs { flushJobs() }
            if now >= nextSweep {
                nextSweep = now + sweepInterval
                if draining { nextSweep = min(nextSweep, max(drainDeadline, now + 1)) }
                sweep()
            }
        }
        shutdownLoop()
    }

    func epollResumeAccepting() -> Bool {
        Sys.epollCtl(epfd, EPOLL_CTL_ADD, listenFD, Readiness.readable | Sys.epollExclusive) == 0
    }

    func epollPauseAccepting() {
        _ = Sys.epollCtl(epfd, EPOLL_CTL_DEL, listenFD, 0)
    }

    /// A new connection starts wanting input.
    func epollRegister(_ fd: Int32) -> Bool {
        Sys.epollCtl(epfd, EPOLL_CTL_ADD, fd, Readiness.readable) == 0
    }

    /// `events` is a `Readiness` mask; its bits are epoll's own.
    func epollSetInterest(_ fd: Int32, _ events: UInt32) {
        _ = Sys.epollCtl(epfd, EPOLL_CTL_MOD, fd, events)
    }
}
#endif
