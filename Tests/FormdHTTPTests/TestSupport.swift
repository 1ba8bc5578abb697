import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP
import FormdTestSupport

/// A test handler: `/echo` answers the body, `/slow` sleeps 300 ms, `/big` answers 8 KiB,
/// anything else `{"path":...,"len":N}`.
struct EchoHandler: HTTPHandler {
    func handle(_ r: HTTPRequest) -> HTTPResponse {
        switch r.path {
        case "/echo": return HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: r.body)
        case "/slow": usleep(300_000); return .json("{\"slow\":true}")
        case "/big": return .json(Array(repeating: UInt8(ascii: "a"), count: 8192))
        case "/big-raw":
            var resp = HTTPResponse.json(Array(repeating: UInt8(ascii: "a"), count: 8192))
            resp.allowsCompression = false
            return resp
        case "/id": return .json("{\"id\":\"\(r.requestID)\"}")
        default: return .json("{\"path\":\"\(r.path)\",\"query\":\"\(r.query ?? "")\",\"len\":\(r.body.count)}")
        }
    }
}

/// A configuration on the event queue the run asks for: `.ci/run` runs the suites once per
/// queue with `FORMD_TEST_EVENT_QUEUE` (`epoll`, `dispatch`); unset, the platform's default.
func testConfiguration() -> HTTPServerConfiguration {
    var c = HTTPServerConfiguration()
    if let name = ProcessInfo.processInfo.environment["FORMD_TEST_EVENT_QUEUE"], let kind = EventQueueKind(rawValue: name) {
        c.eventQueue = kind
    }
    return c
}

func makeServer(
    handler: any HTTPHandler = EchoHandler(), _ tweak: (inout HTTPServerConfiguration) -> Void = { _ in }
) throws -> (HTTPServer, Int) {
    var c = testConfiguration()
    c.port = 0
    c.ioThreads = 2
    tweak(&c)
    let s = HTTPServer(configuration: c, handler: handler)
    let p = try s.start()
    return (s, p)
}

/// Shuts down and waits (bounded) for completion.
func stop(_ s: HTTPServer) {
    let sem = DispatchSemaphore(value: 0)
    s.shutdown { sem.signal() }
    _ = sem.wait(timeout: .now() + 10)
}
