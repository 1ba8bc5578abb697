import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPServer {
    /// Stops accepting, closes idle connections at once, lets in-flight requests finish (their
    /// responses carry `Connection: close`) for up to `shutdownTimeout`, then closes whatever is
    /// left. `completion` runs once everything is closed (on a global queue). Safe to call twice.
    package func shutdown(completion: @escaping @Sendable () -> Void = {}) {
        let (toDrain, done): ([EventLoop], Bool) = withStateLock { s in
            switch s.state {
            case .idle, .starting, .stopped:
                s.state = .stopped
                return ([], true)
            case .draining:
                s.completions.append(completion)
                return ([], false)
            case .ready:
                s.state = .draining
                s.completions.append(completion)
                return (s.loops, false)
            }
        }
        if done { DispatchQueue.global().async { completion() }; return }
        let deadline = Sys.nowMillis() + Int64(configuration.shutdownTimeout * 1000)
        for l in toDrain { l.execute { l.beginDrain(deadline: deadline) } }
    }

    /// Async form of `shutdown(completion:)`.
    package func shutdown() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            shutdown { c.resume() }
        }
    }

    /// Called by each loop (on its thread) once it has no connection left.
    func loopDidDrain(_ loop: EventLoop) {
        let finished: [@Sendable () -> Void]? = withStateLock { s in
            s.drainedLoops += 1
            guard s.drainedLoops == s.loops.count else { return nil }
            if s.listenFD >= 0 { Sys.closeFD(s.listenFD); s.listenFD = -1 }
            s.state = .stopped
            s.loops = []  // break the server <-> loop cycle; the loop threads are exiting
            let c = s.completions
            s.completions = []
            return c
        }
        if let finished { DispatchQueue.global().async { for f in finished { f() } } }
    }
}
