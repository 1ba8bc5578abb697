import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client loop on the Dispatch event queue: a read and a write source per socket on the
/// loop's serial queue, suspended while unwanted (as the server's `EventLoop+Dispatch.swift`).
extension ClientLoop {
    func dispatchRegister(_ fd: Int32, interest: UInt32) {
        guard let queue else { return }
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        read.setEventHandler { [unowned self] in
            now = Sys.nowMillis()
            members[fd]?.handleEvents(Readiness.readable)
        }
        let reg = DispatchRegistration(read: read)
        reg.readActive = false
        sources[fd] = reg
        dispatchSetInterest(fd, interest)
    }

    func dispatchSetInterest(_ fd: Int32, _ events: UInt32) {
        guard let queue, let reg = sources[fd] else { return }
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
                    w.setEventHandler { [unowned self] in
                        now = Sys.nowMillis()
                        members[fd]?.handleEvents(Readiness.writable)
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

    func dispatchClose(_ fd: Int32) {
        guard let reg = sources.removeValue(forKey: fd) else {
            _ = close(fd)
            return
        }
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
}
