/// The keys a top-level object is expected to have, most likely in this order: a form's field
/// ids, for decoding its submissions (`Form.values(json:)`). A key written exactly as the
/// expected id's JSON string is taken as that id's `String`, shared, instead of a new one being
/// decoded and made: one comparison of bytes instead of a string scan and (for ids longer than
/// 15 bytes) an allocation. Any other key is decoded as usual, so the result is the same.
final class KeyHints: @unchecked Sendable {
    /// What the parser and the evaluation read, as plain pointers into memory this object owns:
    /// holding or copying it touches no reference count. Every worker thread decodes with the
    /// same form's hints, and a retain and release of this object per request wrote to memory
    /// all of them share (moving it between cores). Valid while this object lives: the form
    /// that owns it is borrowed for the whole decode and evaluation.
    let view: View
    /// Immutable after `init`, hence `@unchecked Sendable`: each id's JSON string (quotes
    /// included) in one block, where it starts and its length, the ids and whether each is
    /// all ASCII.
    private let text: UnsafeMutablePointer<UInt8>
    private let spans: UnsafeMutablePointer<(start: Int32, count: Int32)>
    private let idBlock: UnsafeMutablePointer<String>
    private let asciiBlock: UnsafeMutablePointer<Bool>

    init(ids: [String], quoted: QuotedKeys) {
        let count = ids.count
        var total = 0
        for k in 0..<count { total += quoted.withString(k) { $0.count } }
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, total))
        let spans = UnsafeMutablePointer<(start: Int32, count: Int32)>.allocate(capacity: max(1, count))
        let idBlock = UnsafeMutablePointer<String>.allocate(capacity: max(1, count))
        let asciiBlock = UnsafeMutablePointer<Bool>.allocate(capacity: max(1, count))
        var at = 0
        for k in 0..<count {
            quoted.withString(k) { q in
                if let p = q.baseAddress { (text + at).initialize(from: p, count: q.count) }
                (spans + k).initialize(to: (Int32(at), Int32(q.count)))
                at += q.count
            }
            (idBlock + k).initialize(to: ids[k])
            (asciiBlock + k).initialize(to: ids[k].utf8.allSatisfy { $0 < 0x80 })
        }
        self.text = text
        self.spans = spans
        self.idBlock = idBlock
        self.asciiBlock = asciiBlock
        view = View(text: text, spans: spans, ids: idBlock, ascii: asciiBlock, count: count)
    }

    deinit {
        idBlock.deinitialize(count: view.count)
        idBlock.deallocate()
        asciiBlock.deallocate()
        text.deallocate()
        spans.deallocate()
    }

    /// The hints as plain pointers (see `view`).
    struct View: @unchecked Sendable {
        fileprivate let text: UnsafePointer<UInt8>
        fileprivate let spans: UnsafePointer<(start: Int32, count: Int32)>
        private let ids: UnsafePointer<String>
        private let ascii: UnsafePointer<Bool>
        let count: Int

        fileprivate init(
            text: UnsafeMutablePointer<UInt8>, spans: UnsafeMutablePointer<(start: Int32, count: Int32)>,
            ids: UnsafeMutablePointer<String>, ascii: UnsafeMutablePointer<Bool>, count: Int
        ) {
            self.text = UnsafePointer(text)
            self.spans = UnsafePointer(spans)
            self.ids = UnsafePointer(ids)
            self.ascii = UnsafePointer(ascii)
            self.count = count
        }

        /// Id `k` (`k` in `0..<count`).
        @inline(__always) func id(_ k: Int) -> String { ids[k] }
        /// Whether id `k` is all ASCII (what the duplicate check wants to know of a key).
        @inline(__always) func isASCII(_ k: Int) -> Bool { ascii[k] }

        /// The id whose JSON string starts `buf` at `i` (at its opening quote), trying `expected`
        /// and the two after it (clients leave out formula fields and the like), and the index just
        /// past its closing quote; `expected` moves past the id found. Only ids after the last one
        /// matched are tried, so the ids matched in one object are distinct.
        @inline(__always) func match(_ buf: UnsafeBufferPointer<UInt8>, at i: Int, expected: inout Int) -> (id: Int, end: Int)? {
            guard let b = buf.baseAddress else { return nil }
            var k = expected
            let last = min(expected &+ 3, count)
            while k < last {
                let span = spans[k]
                let n = Int(span.count)
                if n <= buf.count &- i && KeyHints.equal(b + i, text + Int(span.start), n) {
                    expected = k &+ 1
                    return (k, i &+ n)
                }
                k &+= 1
            }
            return nil
        }
    }

    /// Whether `n` bytes at `a` and `b` are the same: eight at a time, the last word overlapping
    /// the ones before it (a byte loop for the tail was a fifth of a key's match), four for
    /// shorter keys (no libc: the engine builds for WebAssembly without it).
    @inline(__always) static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        if n >= 8 {
            var k = 0
            while k &+ 8 < n {
                if ra.loadUnaligned(fromByteOffset: k, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: k, as: UInt64.self) {
                    return false
                }
                k &+= 8
            }
            return ra.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == rb.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        }
        if n >= 4 {
            return ra.loadUnaligned(as: UInt32.self) == rb.loadUnaligned(as: UInt32.self)
                && ra.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self) == rb.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        }
        var k = 0
        while k < n {
            if a[k] != b[k] { return false }
            k &+= 1
        }
        return true
    }
}
