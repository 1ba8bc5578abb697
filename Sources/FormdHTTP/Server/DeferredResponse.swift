/// A response that is not ready when the handler returns: the handler starts the work (an
/// outgoing call, say) and the connection answers when `start`'s completion runs, from any
/// thread. The I/O loop does not wait meanwhile: the connection holds its later (pipelined)
/// requests, as it does while a request is with the worker pool, so answers stay in order.
package final class DeferredResponse: Sendable {
    package let start: @Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void

    package init(_ start: @escaping @Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void) {
        self.start = start
    }
}

extension HTTPResponse {
    /// A response produced later (`DeferredResponse`). `start` runs on the thread that handled
    /// the request (an I/O loop or a worker) and must not block; `complete` must be called once.
    package static func deferred(_ start: @escaping @Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void) -> HTTPResponse {
        var r = HTTPResponse(status: 200)
        r.deferred = DeferredResponse(start)
        return r
    }

    /// `transform` applied to the response that is sent: now, or when a deferred one is ready.
    package func finally(_ transform: @escaping @Sendable (inout HTTPResponse) -> Void) -> HTTPResponse {
        guard let d = deferred else {
            var r = self
            transform(&r)
            return r
        }
        return .deferred { complete in
            d.start { response in
                var r = response
                transform(&r)
                complete(r)
            }
        }
    }
}
