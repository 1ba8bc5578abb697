#if os(Linux)
import CFormdLinux
import Foundation
import Glibc

/// The client loop on the epoll event queue: a thread in `epoll_wait`, whose timeout is the
/// nearest call deadline, so a timed-out call is answered within a millisecond or two.
extension ClientLoop {
    func epollAdd(_ fd: Int32, _ interest: UInt32) { _ = Sys.epollCtl(epfd, EPOLL_CTL_ADD, fd, interest) }
    func epollModify(_ fd: Int32, _ interest: UInt32) { _ = Sys.epollCtl(epfd, EPOLL_CTL_MOD, fd, interest) }

    func run() {
        let maxEvents = 64
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: maxEvents)
        defer { events.deallocate() }
        var timeout: Int32 = 1000
        while lock.withLock({ alive }) {
            let n = epoll_wait(epfd, events, Int32(maxEvents), timeout)
            now = Sys.nowMillis()
            if n < 0 && errno != EINTR { break }
            var i = 0
            while i < Int(n) {
                let ev = events[i]
                i += 1
                let fd = ev.data.fd
                if fd == wakeRead { runTasks(); continue }
                members[fd]?.handleEvents(ev.events)
            }
            now = Sys.nowMillis()
            timeout = fireDueTimers()
        }
        for fd in Array(members.keys) { closeSocket(fd) }
        lock.withLock {
            _ = close(epfd)
            _ = close(wakeRead)
            _ = close(wakeWrite)
        }
    }
}
#endif
