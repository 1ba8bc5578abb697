/// Request ids (`X-Request-Id`): the client's when sane, else generated. One per I/O loop
/// (confined to it): a random prefix, the loop's index and a counter, so ids are unique across
/// loops and restarts without coordination.
final class RequestIDs {
    private let prefix: String
    private var counter: UInt64 = 0

    init(loopIndex: Int) {
        let r = UInt32.random(in: 0...UInt32.max) & 0xFFFFFF
        prefix = String(r, radix: 16) + String(loopIndex, radix: 16) + "-"
    }

    /// The client's id when sane (1-128 of `[A-Za-z0-9._:-]`), else a new one. Generated ids
    /// are at most 15 bytes for the first 16^6 requests, i.e. Swift small strings (no allocation).
    func id(from headers: HTTPHeaders) -> String {
        if let v = headers["x-request-id"], isSaneID(v) { return v }
        return next()
    }

    func next() -> String {
        counter &+= 1
        return prefix + String(counter, radix: 16)
    }

    private func isSaneID(_ v: String) -> Bool {
        let u = v.utf8
        guard u.count >= 1, u.count <= 128 else { return false }
        for b in u {
            switch b {
            case 48...57, 65...90, 97...122, 46, 95, 58, 45: continue
            default: return false
            }
        }
        return true
    }
}
