/// Request ids (`X-Request-Id`): the client's when sane, else generated. One per I/O loop
/// (confined to it): a random prefix, the loop's index and a counter, so ids are unique across
/// loops and restarts without coordination.
final class RequestIDs {
    /// The random part and the loop's index, in hex, and a `-`.
    private let prefixBytes: [UInt8]
    private var counter: UInt64 = 0

    init(loopIndex: Int) {
        let r = UInt32.random(in: 0...UInt32.max) & 0xFFFFFF
        prefixBytes = Array((String(r, radix: 16) + String(loopIndex, radix: 16) + "-").utf8)
    }

    /// The client's id when sane (1-128 of `[A-Za-z0-9._:-]`), else a new one. Generated ids
    /// are at most 15 bytes for the first 16^6 requests, i.e. Swift small strings (no allocation).
    func id(from headers: HTTPHeaders) -> String {
        if let v = headers["x-request-id"], isSaneID(v) { return v }
        return next()
    }

    func next() -> String {
        counter &+= 1
        // The prefix and the counter in lowercase hex, written in one go (String(_:radix:) and a
        // concatenation cost several times as much).
        var digits = 1
        while digits < 16 && counter >> (4 * UInt64(digits)) != 0 { digits += 1 }
        let count = prefixBytes.count + digits
        return String(unsafeUninitializedCapacity: count) { out in
            for i in 0..<prefixBytes.count { out[i] = prefixBytes[i] }
            var v = counter
            for i in stride(from: count - 1, through: prefixBytes.count, by: -1) {
                out[i] = Self.hexDigits[Int(v & 15)]
                v >>= 4
            }
            return count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

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
