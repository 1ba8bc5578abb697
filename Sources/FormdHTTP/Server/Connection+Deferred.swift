import Foundation

/// Deferred responses (`HTTPResponse.deferred`): the connection stays "in flight" (no parsing
/// of later requests, reads paused once bytes wait) until the completion hands the real
/// response back to the loop thread, as a worker-pool response comes back.
extension Connection {
    func startDeferred(_ deferred: DeferredResponse, _ context: ResponseContext) {
        inFlight = true
        let loop = self.loop
        let once = DeferredOnce()
        deferred.start { [self] response in
            guard once.claim() else { return }
            loop.execute { [self] in
                // A handler that defers again (it should not) is answered with what it gave.
                complete(response.deferred == nil ? response : HTTPResponse(status: 500), context)
            }
        }
    }
}

/// A completion may be called from any thread; only the first call counts.
final class DeferredOnce: @unchecked Sendable {
    private var done = false
    private let lock = NSLock()

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if done { return false }
        done = true
        return true
    }
}
