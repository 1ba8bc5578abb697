import CZlib

/// Incremental gunzip for streamed request bodies: compressed bytes go in as they arrive, and
/// come out at most `max` bytes at a time, so a small bomb cannot produce more than the reader
/// asked for (the rest stays compressed until it asks again). Confined to one connection.
final class StreamInflater {
    private var strm = z_stream()
    private var ok = false
    /// Compressed bytes not yet inflated (`offset` of them already taken).
    private var input: [UInt8] = []
    private var offset = 0
    private(set) var ended = false
    private(set) var failed = false

    init() {
        ok = inflateInit2_(&strm, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        failed = !ok
    }

    deinit { if ok { inflateEnd(&strm) } }

    /// Compressed bytes waiting.
    var pendingInput: Int { input.count - offset }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        if offset > 0 && offset == input.count {
            input.removeAll(keepingCapacity: true)
            offset = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Inflates into `out` until it holds `max` more bytes, the input runs out or the gzip member
    /// ends. Bytes after the member's end, or a corrupt stream, set `failed`.
    func drain(max: Int, into out: inout [UInt8]) {
        guard !failed, !ended, max > 0, offset < input.count else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: max))
        var produced = 0
        input.withUnsafeMutableBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { o in
                strm.next_in = inBuf.baseAddress! + offset
                strm.avail_in = UInt32(inBuf.count - offset)
                strm.next_out = o.baseAddress! + start
                strm.avail_out = UInt32(max)
                let rc = inflate(&strm, Z_NO_FLUSH)
                produced = max - Int(strm.avail_out)
                offset = inBuf.count - Int(strm.avail_in)
                switch rc {
                case Z_STREAM_END: ended = true
                case Z_OK, Z_BUF_ERROR: break
                default: failed = true
                }
            }
        }
        out.removeLast(max - produced)
        if ended && offset < input.count { failed = true }  // bytes after the gzip member
    }
}
