/// Appends compact JSON to a byte buffer, either whole `JSONValue`s or streamed token by
/// token (so engine code can write responses without building a tree):
///
///     var w = JSONWriter()
///     w.beginObject(); w.key("ok"); w.bool(true); w.key("errors"); w.beginArray()
///     w.endArray(); w.endObject()          // {"ok":true,"errors":[]}
///
/// Commas are inserted automatically; the caller is responsible for a well-formed token
/// sequence (a `key` before every object member value, balanced begin/end) — not checked.
///
/// Output is deterministic: object members in stored order, no whitespace, minimal string
/// escaping per RFC 8259 (`"`, `\` and U+0000...U+001F; `\b \f \n \r \t` short forms, the
/// rest as lowercase `\u00XX`). Everything else, non-ASCII included, is written as UTF-8.
/// U+2028/U+2029 are not escaped: the output is JSON, and since ES2019 they are legal in
/// JavaScript string literals too.
///
/// The bytes live in one buffer the writer owns (not an `Array`): an append is a capacity test
/// and a copy, without the copy-on-write and generic paths of `Array.append(contentsOf:)`
/// (about 90 instructions a call, most of an invalid answer's writing cost under callgrind).
/// That is why the writer cannot be copied; `bytes` hands out an `Array` copy of the result, and
/// `array(reservingCapacity:_:)` writes into an array's own storage instead.
package struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count: Int
    private var capacity: Int
    /// Whether `base` is the writer's to free: false while it writes into memory it was lent
    /// (`array(reservingCapacity:_:)`), until it outgrows it.
    private var ownsBuffer = true
    /// True after a complete value/member: the next value, key or container needs a comma.
    var needsComma = false

    package init(reservingCapacity capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        count = 0
    }

    /// Continues writing after existing bytes (which are not inspected).
    package init(appendingTo bytes: [UInt8]) {
        self.init(reservingCapacity: bytes.count + 256)
        append(bytes)
    }

    /// Writes into `buffer`, which it does not own; past its end, into a buffer of its own.
    private init(lending buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress.unsafelyUnwrapped
        capacity = buffer.count
        count = 0
        ownsBuffer = false
    }

    deinit { if ownsBuffer { base.deallocate() } }

    /// What `body` writes, as an array, with one allocation where `bytes` makes two (the
    /// writer's buffer and the array's): about 250 instructions of a valid answer and 500 of an
    /// invalid one under callgrind, most of it the allocator's slow path for blocks past 1 KiB.
    /// * Up to 1 KiB (a typical valid answer), the writer starts in memory on the stack, which
    ///   `bytes` then copies into the array.
    /// * Past that, it writes straight into the storage of the array returned. (Not below: the
    ///   standard library makes such an array through its generic path, about 200 instructions
    ///   more than it takes to copy a small answer.)
    ///
    /// An answer longer than `capacity` moves to a buffer of the writer's own, and is copied from
    /// there.
    package static func array(reservingCapacity capacity: Int, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        // The size up to which the standard library allocates on the stack without asking the
        // system for the stack's bounds (which on Linux's main thread reads `/proc/self/maps`).
        let stackLimit = 1024
        if capacity <= stackLimit {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackLimit) { buffer in
                var w = JSONWriter(lending: buffer)
                body(&w)
                return w.bytes
            }
        }
        var spilled: [UInt8]?
        let direct = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var w = JSONWriter(lending: buffer)
            body(&w)
            if w.ownsBuffer {
                spilled = w.bytes
                initialized = 0
            } else {
                initialized = w.count
            }
        }
        return spilled ?? direct
    }

    /// What has been written (a copy: the writer keeps its buffer). Setting it replaces the
    /// content.
    package var bytes: [UInt8] {
        get { [UInt8](UnsafeBufferPointer(start: base, count: count)) }
        set {
            count = 0
            append(newValue)
        }
    }

    /// The number of bytes written.
    package var byteCount: Int { count }

    /// The compact encoding of `value`.
    package static func encode(_ value: JSONValue) -> [UInt8] {
        var w = JSONWriter()
        w.writeValue(value)
        return w.bytes
    }

    // MARK: - The buffer

    /// Makes room for `n` more bytes.
    @inline(__always) mutating func reserve(_ n: Int) {
        if capacity &- count < n { grow(n) }
    }

    @inline(never) mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        if ownsBuffer { base.deallocate() }
        ownsBuffer = true
        base = newBase
        capacity = newCapacity
    }

    /// One byte, room already made.
    @inline(__always) mutating func put(_ b: UInt8) {
        base[count] = b
        count &+= 1
    }

    /// `n` bytes from `p`, room already made. Most pieces of an answer (keys, ids, codes, short
    /// values) are 16 bytes or fewer: those are copied with two word moves, not a `memcpy` call.
    @inline(__always) mutating func put(_ p: UnsafePointer<UInt8>, _ n: Int) {
        let to = UnsafeMutableRawPointer(base + count)
        let from = UnsafeRawPointer(p)
        if n >= 8 && n <= 16 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
        } else if n < 8 {
            var k = 0
            while k < n {
                to.storeBytes(of: p[k], toByteOffset: k, as: UInt8.self)
                k &+= 1
            }
        } else {
            (base + count).initialize(from: p, count: n)
        }
        count &+= n
    }

    /// `n` bytes from `p`, as they are (already valid JSON where they go).
    @inline(__always) mutating func appendRaw(_ p: UnsafePointer<UInt8>, _ n: Int) {
        reserve(n)
        put(p, n)
    }

    /// One raw byte (e.g. a line feed after a JSON line).
    package mutating func append(byte b: UInt8) {
        reserve(1)
        put(b)
    }

    /// Raw bytes, verbatim.
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { p in
            if let a = p.baseAddress { appendRaw(a, p.count) }
        }
    }

    @inline(__always) mutating func separator() {
        if needsComma {
            reserve(1)
            put(UInt8(ascii: ","))
        }
    }

    package mutating func beginObject() {
        separator()
        reserve(1)
        put(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func endObject() {
        reserve(1)
        put(UInt8(ascii: "}"))
        needsComma = true
    }

    package mutating func beginArray() {
        separator()
        reserve(1)
        put(UInt8(ascii: "["))
        needsComma = false
    }

    package mutating func endArray() {
        reserve(1)
        put(UInt8(ascii: "]"))
        needsComma = true
    }

    /// An object member's key (and the colon); write its value next.
    package mutating func key(_ key: String) {
        separator()
        appendQuoted(key)
        reserve(1)
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key already written as JSON with its colon (`"id":`, see `QuotedKeys`): copied as it is.
    @inline(__always) package mutating func quotedKey(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count + 1)
        if needsComma { put(UInt8(ascii: ",")) }
        if let p = bytes.baseAddress { put(p, bytes.count) }
        needsComma = false
    }

    /// The start of an object already written as JSON, up to a complete member (`{"a":1`):
    /// copied as it is, and the next member gets its comma.
    package mutating func objectHead(_ bytes: [UInt8]) {
        separator()
        append(bytes)
        needsComma = true
    }

    /// A key known when the program is built, that needs no escaping (the answer's own keys):
    /// written without scanning it.
    @inline(__always) package mutating func fixedKey(_ key: StaticString) {
        let n = key.utf8CodeUnitCount
        reserve(n + 4)
        if needsComma { put(UInt8(ascii: ",")) }
        put(UInt8(ascii: "\""))
        put(key.utf8Start, n)
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A string value known when the program is built, that needs no escaping.
    package mutating func fixedString(_ value: StaticString) {
        let n = value.utf8CodeUnitCount
        reserve(n + 3)
        if needsComma { put(UInt8(ascii: ",")) }
        put(UInt8(ascii: "\""))
        put(value.utf8Start, n)
        put(UInt8(ascii: "\""))
        needsComma = true
    }

    package mutating func string(_ value: String) {
        separator()
        appendQuoted(value)
        needsComma = true
    }

    /// `text` must be a valid JSON number literal (not checked).
    package mutating func number(text: String) {
        separator()
        appendRaw(text)
        needsComma = true
    }

    package mutating func number(_ value: JSONNumber) { number(text: value.text) }

    package mutating func number(_ value: Int) {
        separator()
        reserve(21)
        if value < 0 { put(UInt8(ascii: "-")) }
        // Digits of the magnitude, written backwards, then turned around in place.
        var magnitude = value.magnitude
        let first = count
        repeat {
            put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude != 0
        var i = first
        var j = count - 1
        while i < j {
            let t = base[i]
            base[i] = base[j]
            base[j] = t
            i += 1
            j -= 1
        }
        needsComma = true
    }

    package mutating func bool(_ value: Bool) {
        separator()
        if value {
            appendStatic("true")
        } else {
            appendStatic("false")
        }
        needsComma = true
    }

    package mutating func null() {
        separator()
        appendStatic("null")
        needsComma = true
    }

    @inline(__always) mutating func appendStatic(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        put(s.utf8Start, n)
    }

    /// The UTF-8 of `s`, verbatim.
    @inline(__always) mutating func appendRaw(_ s: String) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { p in
            if let a = p.baseAddress { appendRaw(a, p.count) }
        }
        if done == nil { append(Array(s.utf8)) }
    }

    /// Splices in one already-encoded JSON value (e.g. a served definition), verbatim.
    package mutating func rawValue(_ json: [UInt8]) {
        json.withUnsafeBufferPointer { rawValue($0) }
    }

    @inline(__always) mutating func rawValue(_ json: UnsafeBufferPointer<UInt8>) {
        reserve(json.count &+ 1)
        if needsComma { put(UInt8(ascii: ",")) }
        if let p = json.baseAddress { put(p, json.count) }
        needsComma = true
    }

    package mutating func writeValue(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(text: n.text)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for element in elements { writeValue(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                writeValue(member.value)
            }
            endObject()
        }
    }

    // MARK: - Strings

    mutating func appendQuoted(_ s: String) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendQuoted($0) }
        if done == nil {
            // Non-contiguous (bridged) strings: rare, take the slow route.
            Array(s.utf8).withUnsafeBufferPointer { appendQuoted($0) }
        }
    }

    /// `"utf8"`, escaped. Text that needs no escaping (nearly all: ids, messages, values) is
    /// found so eight bytes at a time and copied in one go.
    mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(2)
        put(UInt8(ascii: "\""))
        if let p = utf8.baseAddress, let k = putUnlessEscaping(p, utf8.count) { appendEscaped(p + k, utf8.count - k) }
        reserve(1)
        put(UInt8(ascii: "\""))
    }

    /// `s` escaped, without quotes (a piece of a string value).
    mutating func appendEscaped(_ s: String) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { b in
            if let p = b.baseAddress, let k = putUnlessEscaping(p, b.count) { appendEscaped(p + k, b.count - k) }
        }
        if done == nil { appendEscaped(Array(s.utf8)) }
    }

    mutating func appendEscaped(_ utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { b in
            if let p = b.baseAddress { appendEscaped(p, b.count) }
        }
    }

    /// Copies `p[0..<n]`, then looks for a byte that needs escaping in the copy, eight bytes at
    /// a time: the buffer is given room past the copy, so the last, partial word is read there
    /// too (its bytes past the copy masked), where the source could end at the edge of its
    /// memory. Nearly all text (ids, labels, messages, values) needs no escaping and is then
    /// written; otherwise the copy is cut before the first such byte, whose index is returned.
    @inline(__always) mutating func putUnlessEscaping(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        reserve(n &+ 8)
        let start = count
        put(p, n)
        let copy = UnsafeRawPointer(base + start)
        var k = 0
        while k &+ 8 <= n {
            if Self.wordNeedsEscape(copy.loadUnaligned(fromByteOffset: k, as: UInt64.self)) { return cut(p, n, from: k, start) }
            k &+= 8
        }
        if k < n {
            // Little-endian: the copy's bytes are the low ones; the others read as "A".
            let keep: UInt64 = (1 &<< UInt64((n &- k) &* 8)) &- 1
            let w = UInt64(littleEndian: copy.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            if Self.wordNeedsEscape((w & keep) | (0x4141_4141_4141_4141 & ~keep)) { return cut(p, n, from: k, start) }
        }
        return nil
    }

    /// The index of the first byte of `p[k..<n]` that needs escaping; the copy made at `start`
    /// is cut there.
    private mutating func cut(_ p: UnsafePointer<UInt8>, _ n: Int, from k: Int, _ start: Int) -> Int? {
        var k = k
        while k < n {
            let b = p[k]
            if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                count = start &+ k
                return k
            }
            k &+= 1
        }
        return nil
    }

    /// Escapes `p[0..<count]` (no quotes): runs that need no escaping are copied whole.
    mutating func appendEscaped(_ p: UnsafePointer<UInt8>, _ count: Int) {
        var runStart = 0
        var k = 0
        while k < count {
            let b = p[k]
            if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                k += 1
                continue
            }
            reserve(k - runStart + 6)
            put(p + runStart, k - runStart)
            put(UInt8(ascii: "\\"))
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(b)
            case 0x08: put(UInt8(ascii: "b"))
            case 0x0C: put(UInt8(ascii: "f"))
            case 0x0A: put(UInt8(ascii: "n"))
            case 0x0D: put(UInt8(ascii: "r"))
            case 0x09: put(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                put(UInt8(ascii: "u"))
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "0"))
                put(hex.utf8Start[Int(b >> 4)])
                put(hex.utf8Start[Int(b & 0xF)])
            }
            k += 1
            runStart = k
        }
        reserve(count - runStart)
        put(p + runStart, count - runStart)
    }

    /// Whether any of the eight bytes of `w` is below 0x20, `"` or `\` (the classic "has a byte
    /// less than n" and "has a zero byte" tests: exact as to whether one exists, which is all
    /// that is asked; bytes of 0x80 and above never match).
    @inline(__always) static func wordNeedsEscape(_ w: UInt64) -> Bool {
        ByteWords.below(w, 0x20) | ByteWords.equal(w, UInt8(ascii: "\"")) | ByteWords.equal(w, UInt8(ascii: "\\")) != 0
    }
}

extension JSONWriter: @unchecked Sendable {}
