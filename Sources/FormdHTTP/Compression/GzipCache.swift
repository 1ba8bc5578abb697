import Foundation

/// Gzipped copies of bodies that responses mark with the same `compressionKey` (a definition's
/// ETag, say): the first request compresses, the others reuse the bytes, so large answers served
/// from memory cost no deflate on the I/O loop. Bounded: past `maxBytes` it starts over.
final class GzipCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: [UInt8]] = [:]
    private var bytes = 0
    let maxBytes: Int

    init(maxBytes: Int = 32 << 20) { self.maxBytes = maxBytes }

    /// The gzipped body for `key` (nil when gzip does not make it smaller), compressing with
    /// `deflate` on a miss. The key must name the body's content: the cache trusts it.
    func compressed(key: String, body: [UInt8], using deflate: ([UInt8]) -> [UInt8]?) -> [UInt8]? {
        if let hit = lock.withLock({ entries[key] }) { return hit.isEmpty ? nil : hit }
        let z = deflate(body) ?? []
        lock.withLock {
            if bytes + z.count > maxBytes {
                entries.removeAll(keepingCapacity: true)
                bytes = 0
            }
            if entries.updateValue(z, forKey: key) == nil { bytes += z.count }
        }
        return z.isEmpty ? nil : z
    }
}
