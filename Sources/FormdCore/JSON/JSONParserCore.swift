/// The parser proper: a byte index over a buffer, recursive descent bounded by `maxDepth`.
/// Internal; use `JSONParser.parse`.
struct JSONParserCore {
    let buf: UnsafeBufferPointer<UInt8>
    var i = 0
    let maxDepth: Int
    let maxNumberLength: Int
    let maxStringBytes: Int
    let allowTrailingCommas: Bool
    let record: Bool

    var trailingCommas: [Int] = []
    /// Reused decode buffer for strings with escapes.
    var scratch: [UInt8] = []
    /// Escapes of the string just parsed (only when recording).
    var lastEscapes: [JSONDocument.EscapeShift] = []
    var entries: [String: JSONDocument.Entry] = [:]
    /// When recording, the paths of the values parsed so far; a value's path is passed down as
    /// its index here (-1: the root, ""). An index, not the `String`: passing a string cost a
    /// retain and a release per member even when nothing is recorded.
    var paths: [String] = []
    var tracker = LineTracker()
    /// Whether the string just parsed is all ASCII (false when it had escapes).
    var lastStringASCII = false
    /// Whether the string just parsed had escapes.
    var lastStringEscaped = false
    /// The members of the objects being parsed; `release()` frees it.
    var members = MemberStack()
    /// The top-level object's likely keys (a form's submissions), and the one expected next.
    var keyHints: KeyHints.View?
    var expectedKey = 0
    /// Keys in a row that matched no hint: past `hintMissLimit`, hints are no longer tried (a
    /// submission of instance keys, `items[3].amount`, names no static id).
    var hintMisses = 0
    static let hintMissLimit = 8

    /// Small objects check duplicates linearly; from this many members on, with a `KeyIndex`
    /// (hostile objects with 100k members must not go quadratic).
    static let linearKeyCheckLimit = 16

    init(buffer: UnsafeBufferPointer<UInt8>, options: JSONParser.Options) {
        buf = buffer
        maxDepth = min(max(options.maxDepth, 1), 512)
        maxNumberLength = max(options.maxNumberLength, 1)
        maxStringBytes = options.maxStringBytes.map { max($0, 0) } ?? Int.max
        allowTrailingCommas = options.allowTrailingCommas
        record = options.recordLocations
    }

    // MARK: - Errors

    func error(_ message: String, at offset: Int) -> JSONParseError {
        var t = LineTracker()
        t.advance(to: min(max(offset, 0), buf.count), in: buf)
        return JSONParseError(message: message, line: t.line, column: t.column, offset: offset)
    }

    /// Describes the byte at `offset` for "unexpected ..." messages.
    func describe(at offset: Int) -> String {
        guard offset < buf.count else { return "end of input" }
        let b = buf[offset]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return "character " + Self.hexScalar(UInt32(b)) }
        if let (scalar, _) = UTF8Validation.decode(buf, at: offset) {
            return "character " + Self.hexScalar(scalar)
        }
        return "invalid UTF-8"
    }

    static func hexScalar(_ v: UInt32) -> String {
        let hex = String(v, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    func unexpected(_ context: String) -> JSONParseError {
        if i < buf.count, buf[i] >= 0x80, UTF8Validation.decode(buf, at: i) == nil {
            return error("invalid UTF-8", at: i)
        }
        if i >= buf.count { return error("unexpected end of input, " + context, at: i) }
        return error("unexpected \(describe(at: i)), " + context, at: i)
    }

    // MARK: - Locations

    mutating func location(at offset: Int) -> SourceLocation {
        tracker.advance(to: offset, in: buf)
        return SourceLocation(line: tracker.line, column: tracker.column, offset: offset)
    }

    // MARK: - Grammar

    @inline(__always)
    mutating func skipWhitespace() {
        // Most documents a client sends have no whitespace between tokens: one comparison.
        if i < buf.count && buf[i] > UInt8(ascii: " ") { return }
        while i < buf.count {
            switch buf[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                i += 1
            default:
                return
            }
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if buf.count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF {
            throw error("byte order mark not allowed", at: 0)
        }
        skipWhitespace()
        if i >= buf.count { throw error("empty input", at: i) }
        let value = try parseValue(depth: 0, path: -1)
        skipWhitespace()
        if i < buf.count {
            if buf[i] >= 0x80, UTF8Validation.decode(buf, at: i) == nil {
                throw error("invalid UTF-8", at: i)
            }
            throw error("unexpected \(describe(at: i)) after JSON value", at: i)
        }
        return value
    }

    // Recording locations (definitions only), out of line: inlined, the dictionary's `default:`
    // closure was set up and destroyed for every value of every parse, recording or not (about
    // 12 instructions a member of a submission, callgrind).

    @inline(never) mutating func recordValueLocation(path: Int) {
        entries[pathText(path), default: .init()].value = location(at: i)
    }

    @inline(never) mutating func recordString(_ s: String, path: Int) {
        entries[pathText(path), default: .init()].string = .init(text: s, escapes: lastEscapes)
    }

    /// The member's path (an index into `paths`), with its key's location recorded.
    @inline(never) mutating func recordKey(_ key: String, at keyStart: Int, parent path: Int) -> Int {
        let childPath = addPath(JSONDocument.memberPath(pathText(path), key))
        entries[paths[childPath], default: .init()].key = location(at: keyStart)
        return childPath
    }

    /// `i` is at the value's first byte (whitespace already skipped, not at end).
    /// `depth` counts the containers enclosing this value.
    mutating func parseValue(depth: Int, path: Int) throws(JSONParseError) -> JSONValue {
        guard i < buf.count else { throw unexpected("expected a value") }
        if record { recordValueLocation(path: path) }
        switch buf[i] {
        case UInt8(ascii: "\""):
            let s = try parseString()
            if record { recordString(s, path: path) }
            return .string(s)
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1, path: path)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1, path: path)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        default:
            throw unexpected("expected a value")
        }
    }

    mutating func parseLiteral(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        let p = word.utf8Start
        var k = 0
        while k < n {
            guard i + k < buf.count, buf[i + k] == p[k] else {
                throw error("invalid literal, expected '\(word)'", at: i)
            }
            k += 1
        }
        i += n
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = try scanNumber()
        return JSONNumber(literal: Self.asciiString(UnsafeBufferPointer(rebasing: buf[start..<i])))
    }

    /// Reads the number at `i` without making it; returns where it starts (`i` ends past it).
    @inline(__always) mutating func scanNumber() throws(JSONParseError) -> Int {
        let start = i
        if buf[i] == UInt8(ascii: "-") { i += 1 }
        guard i < buf.count, isDigit(buf[i]) else {
            throw error("expected digit after '-'", at: i)
        }
        if buf[i] == UInt8(ascii: "0") {
            i += 1
            if i < buf.count, isDigit(buf[i]) {
                throw error("leading zeros are not allowed", at: start)
            }
        } else {
            skipDigits()
        }
        if i < buf.count, buf[i] == UInt8(ascii: ".") {
            i += 1
            guard i < buf.count, isDigit(buf[i]) else {
                throw error("expected digit after '.'", at: i)
            }
            skipDigits()
        }
        if i < buf.count, buf[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
            guard i < buf.count, isDigit(buf[i]) else {
                throw error("expected digit in exponent", at: i)
            }
            skipDigits()
        }
        if i - start > maxNumberLength {
            throw error("number longer than \(maxNumberLength) characters", at: start)
        }
        return start
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    @inline(__always) mutating func skipDigits() {
        while i < buf.count, isDigit(buf[i]) { i += 1 }
    }

    /// The path recorded at `index` (`paths`).
    func pathText(_ index: Int) -> String { index < 0 ? "" : paths[index] }

    /// Records `path`; returns its index for `parseValue`.
    mutating func addPath(_ path: String) -> Int {
        paths.append(path)
        return paths.count - 1
    }

    mutating func parseArray(depth: Int, path: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth)", at: i) }
        i += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if i < buf.count, buf[i] == UInt8(ascii: "]") {
            i += 1
            return .array(elements)
        }
        while true {
            let childPath = record ? addPath(JSONDocument.elementPath(pathText(path), elements.count)) : -1
            elements.append(try parseValue(depth: depth, path: childPath))
            skipWhitespace()
            guard i < buf.count else { throw unexpected("expected ',' or ']' after array element") }
            switch buf[i] {
            case UInt8(ascii: ","):
                let comma = i
                i += 1
                skipWhitespace()
                if i < buf.count, buf[i] == UInt8(ascii: "]") {
                    guard allowTrailingCommas else { throw error("trailing comma", at: comma) }
                    trailingCommas.append(comma)
                    i += 1
                    return .array(elements)
                }
            case UInt8(ascii: "]"):
                i += 1
                return .array(elements)
            default:
                throw unexpected("expected ',' or ']' after array element")
            }
        }
    }

    /// The members go to `members` (moved, not copied) and leave it as one array of the
    /// object's size: no array growth per object. On an error they stay there for `release()`.
    mutating func parseObject(depth: Int, path: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth)", at: i) }
        i += 1
        skipWhitespace()
        if i < buf.count, buf[i] == UInt8(ascii: "}") {
            i += 1
            return .object(JSONObject())
        }
        let first = members.count
        let hints = depth == 1 ? keyHints : nil
        /// Whether a key so far was not matched to a hint. Until one is, the keys are distinct:
        /// hints match in increasing order (`KeyHints.View.match` only looks ahead).
        var unhinted = false
        var keyIndex: KeyIndex? = nil
        /// Bit k: the key of member k is all ASCII (tracked below the linear limit only).
        var asciiKeys: UInt32 = 0
        while true {
            guard i < buf.count, buf[i] == UInt8(ascii: "\"") else {
                throw unexpected("expected string key")
            }
            let keyStart = i
            // A parsed key; a key matched with a hint is read from the hints where it is needed
            // (the common path reads it once, for the member: it was copied twice per member).
            var key = ""
            var hint = -1
            if let hints, hintMisses < Self.hintMissLimit, let (k, end) = hints.match(buf, at: i, expected: &expectedKey) {
                lastStringASCII = hints.isASCII(k)
                i = end
                hint = k
                hintMisses = 0
            } else {
                key = try parseString()
                hintMisses += 1
            }
            let keyASCII = lastStringASCII
            let index = members.count &- first
            if hint >= 0 && !unhinted && index < Self.linearKeyCheckLimit {
                // Every key so far is an id matched after the one before it: no duplicate.
                if keyASCII { asciiKeys |= 1 &<< UInt32(truncatingIfNeeded: index) }
            } else {
                if hint >= 0 { key = hints.unsafelyUnwrapped.id(hint) }
                unhinted = true
                if keyIndex == nil && index >= Self.linearKeyCheckLimit {
                    keyIndex = KeyIndex(members.buffer(from: first))
                }
                if keyIndex != nil {
                    if !keyIndex!.insert(key, at: index, in: members.buffer(from: first)) { throw duplicate(key, at: keyStart) }
                } else {
                    // Two ASCII keys are equal only if their lengths are (Swift's canonical
                    // equivalence relates different byte counts only beyond ASCII).
                    let keyLength = key.utf8.count
                    let object = members.buffer(from: first)
                    for k in 0..<index {
                        if keyASCII && asciiKeys & (1 &<< UInt32(truncatingIfNeeded: k)) != 0 && object[k].key.utf8.count != keyLength {
                            continue
                        }
                        if object[k].key == key { throw duplicate(key, at: keyStart) }
                    }
                    if keyASCII { asciiKeys |= 1 &<< UInt32(truncatingIfNeeded: index) }
                }
            }
            skipWhitespace()
            guard i < buf.count, buf[i] == UInt8(ascii: ":") else {
                throw unexpected("expected ':' after object key")
            }
            i += 1
            skipWhitespace()
            // The value's path, an index into `paths`; -1 when nothing is recorded.
            var childPath = -1
            if record {
                childPath = recordKey(hint >= 0 ? hints.unsafelyUnwrapped.id(hint) : key, at: keyStart, parent: path)
            }
            let valueStart = i
            let value = try parseValue(depth: depth, path: childPath)
            // Where the value's text is, when it is what `JSONWriter` writes for the value
            // (`Member.textStart`): a scalar's, a string's only without escapes. Beyond 2 GiB,
            // not kept.
            let plain: Bool
            switch buf[valueStart] {
            case UInt8(ascii: "\""): plain = !lastStringEscaped
            case UInt8(ascii: "["), UInt8(ascii: "{"): plain = false
            default: plain = true
            }
            let textStart = plain && i <= Int(Int32.max) ? Int32(truncatingIfNeeded: valueStart) : -1
            members.push(
                JSONObject.Member(
                    key: hint >= 0 ? hints.unsafelyUnwrapped.id(hint) : key, value: value, hint: Int32(truncatingIfNeeded: hint),
                    textStart: textStart, textCount: Int32(truncatingIfNeeded: i &- valueStart)))
            skipWhitespace()
            guard i < buf.count else { throw unexpected("expected ',' or '}' after object member") }
            switch buf[i] {
            case UInt8(ascii: ","):
                let comma = i
                i += 1
                skipWhitespace()
                if i < buf.count, buf[i] == UInt8(ascii: "}") {
                    guard allowTrailingCommas else { throw error("trailing comma", at: comma) }
                    trailingCommas.append(comma)
                    i += 1
                    return .object(JSONObject(members.pop(from: first)))
                }
            case UInt8(ascii: "}"):
                i += 1
                return .object(JSONObject(members.pop(from: first)))
            default:
                throw unexpected("expected ',' or '}' after object member")
            }
        }
    }

    func duplicate(_ key: String, at offset: Int) -> JSONParseError {
        error("duplicate key \"\(Self.displayKey(key))\"", at: offset)
    }

    /// A key as shown in a message: quotes, backslashes and control characters escaped,
    /// long keys cut (error messages must not echo megabytes of hostile input).
    static func displayKey(_ key: String) -> String {
        var out = ""
        var n = 0
        for scalar in key.unicodeScalars {
            if n == 64 { out += "…"; break }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{0}"..."\u{1F}", "\u{7F}": out += "\\u" + hexScalar(scalar.value).dropFirst(2)
            default: out.unicodeScalars.append(scalar)
            }
            n += 1
        }
        return out
    }
}

/// A stack of object members in manually managed memory, so that an object's members can be
/// moved out into an array of exactly their number (a Swift array would copy them, retaining
/// each key and value, and release them again on removal). Owned by one `JSONParserCore`;
/// `release()` must be called once parsing ends, whether it succeeded or not.
struct MemberStack {
    private(set) var base: UnsafeMutablePointer<JSONObject.Member>? = nil
    private(set) var count = 0
    private var capacity = 0
    /// Whether `base` is the stack's to free: false while it is memory it was lent (`lending`).
    private var ownsBase = true

    /// Room for as many members as fit in 1 KiB, which the parse can lend the stack from its
    /// own frame (`withLentRoom`): a submission's members then need no allocation of their own
    /// before they are moved into their array.
    static let lentCapacity = max(1, 1024 / MemoryLayout<JSONObject.Member>.stride)

    init() {}

    /// A stack that starts in `room` (not freed by it) and moves to memory of its own past it.
    init(lending room: UnsafeMutableBufferPointer<JSONObject.Member>) {
        base = room.baseAddress
        capacity = room.count
        ownsBase = false
    }

    /// `body` with room for `lentCapacity` members on the stack (see `init(lending:)`).
    static func withLentRoom<R>(_ body: (UnsafeMutableBufferPointer<JSONObject.Member>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: JSONObject.Member.self, capacity: lentCapacity, body)
    }

    @inline(__always)
    mutating func push(_ member: consuming JSONObject.Member) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: member)
        count &+= 1
    }

    private mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let new = UnsafeMutablePointer<JSONObject.Member>.allocate(capacity: newCapacity)
        if let base {
            new.moveInitialize(from: base, count: count)
            if ownsBase { base.deallocate() }
        }
        base = new
        capacity = newCapacity
        ownsBase = true
    }

    /// Members `first...` (valid until the next push or pop).
    @inline(__always)
    func buffer(from first: Int) -> UnsafeBufferPointer<JSONObject.Member> {
        UnsafeBufferPointer(start: base.map { $0 + first }, count: count &- first)
    }

    /// Moves members `first...` out into an array.
    mutating func pop(from first: Int) -> [JSONObject.Member] {
        let n = count &- first
        guard n > 0, let base else { return [] }
        // Reserved, then appended: `Array(unsafeUninitializedCapacity:)` allocates through the
        // standard library's unspecialized path, which looks the storage type up at run time
        // (about 450 instructions a call).
        var out: [JSONObject.Member] = []
        out.reserveCapacity(n)
        for k in first..<count { out.append((base + k).move()) }
        count = first
        return out
    }

    /// Destroys what is left (members of the objects an error interrupted) and frees the memory
    /// the stack owns.
    mutating func release() {
        guard let base else { return }
        base.deinitialize(count: count)
        if ownsBase { base.deallocate() }
        self.base = nil
        count = 0
        capacity = 0
        ownsBase = true
    }
}

/// Incremental line/column counter. Locations are requested in ascending offset order,
/// so total work is linear in the input even for one huge line.
struct LineTracker {
    var offset = 0
    var line = 1
    var column = 1

    mutating func advance(to target: Int, in buf: UnsafeBufferPointer<UInt8>) {
        let end = min(target, buf.count)
        while offset < end {
            let b = buf[offset]
            if b == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1  // counts scalars: UTF-8 continuation bytes don't start one
            }
            offset += 1
        }
    }
}
