import CZlib

/// gzip through zlib: bounded inflation of request bodies, and a reusable deflater for responses.
package enum Gzip {
    /// Inflates a gzip body, never producing more than `limit` bytes (a bomb stops at the cap).
    package static func inflate(_ input: [UInt8], limit: Int) -> Result<[UInt8], HTTPError> {
        var strm = z_stream()
        // 16 + 15: gzip wrapper only, 32 KiB window.
        guard inflateInit2_(&strm, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .failure(.badRequest("Cannot inflate the request body."))
        }
        defer { inflateEnd(&strm) }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16384)
        let corrupt = HTTPError.badRequest("The gzip request body is corrupt.")
        return input.withUnsafeBufferPointer { inBuf -> Result<[UInt8], HTTPError> in
            strm.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
            strm.avail_in = UInt32(inBuf.count)
            while true {
                let (rc, produced) = chunk.withUnsafeMutableBufferPointer { c -> (Int32, Int) in
                    strm.next_out = c.baseAddress
                    strm.avail_out = UInt32(c.count)
                    let rc = CZlib.inflate(&strm, Z_NO_FLUSH)
                    return (rc, c.count - Int(strm.avail_out))
                }
                if produced > 0 {
                    if out.count + produced > limit { return .failure(.bodyTooLarge) }
                    out.append(contentsOf: chunk[0..<produced])
                }
                switch rc {
                case Z_STREAM_END:
                    return strm.avail_in == 0 ? .success(out) : .failure(corrupt)
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // no progress possible: input exhausted before the end of the stream
                    if produced == 0 { return .failure(corrupt) }
                default:
                    return .failure(corrupt)
                }
            }
        }
    }

    /// One-shot gzip (tests and callers without a `Deflater`).
    package static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8]? {
        let d = Deflater(level: level)
        return d.compress(input)
    }
}

/// A reusable gzip compressor (zlib state is ~256 KiB to set up, so each I/O loop keeps one).
/// Not thread-safe: confined to its owner (an I/O loop).
/// A `Deflater` confined to one serial worker queue.
final class WorkerDeflater: @unchecked Sendable {
    private var deflater: Deflater?

    func compress(_ body: [UInt8]) -> [UInt8]? {
        if deflater == nil { deflater = Deflater() }
        return deflater!.compress(body)
    }
}

final class Deflater {
    private var strm = z_stream()
    private var ok = false

    init(level: Int32 = 6) {
        ok = deflateInit2_(&strm, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                           zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit { if ok { deflateEnd(&strm) } }

    /// The gzip member for `input`, or nil when zlib fails.
    func compress(_ input: [UInt8]) -> [UInt8]? {
        guard ok else { return nil }
        deflateReset(&strm)
        let bound = Int(deflateBound(&strm, UInt(input.count))) + 32
        var out = [UInt8](repeating: 0, count: bound)
        let produced = input.withUnsafeBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { o -> Int in
                strm.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                strm.avail_in = UInt32(inBuf.count)
                strm.next_out = o.baseAddress
                strm.avail_out = UInt32(o.count)
                let rc = deflate(&strm, Z_FINISH)
                return rc == Z_STREAM_END ? o.count - Int(strm.avail_out) : -1
            }
        }
        if produced < 0 { return nil }
        // A copy of just the output: trimming `out` would keep its capacity (the input's size,
        // about), and compressed bodies are kept (the gzip cache, the form registry).
        return Array(out[..<produced])
    }
}
