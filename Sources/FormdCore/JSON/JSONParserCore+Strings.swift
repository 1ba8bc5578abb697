extension JSONParserCore {
    /// `i` is at the opening quote; on return `i` is just past the closing quote.
    /// Fast path: no escapes, so the String is made straight from the validated slice. The scan
    /// looks at 8 bytes at a time for a quote, a backslash, a control character or a non-ASCII
    /// byte; an all-ASCII string (the usual key or value) is then built without the second
    /// UTF-8 validation `String(decoding:as:)` would do.
    mutating func parseString() throws(JSONParseError) -> String {
        let quote = i
        let start = i + 1
        if record { lastEscapes = [] }
        guard let end = try scanPlainString() else { return try parseEscapedString(quote: quote, start: start) }
        let text = UnsafeBufferPointer(start: buf.baseAddress.unsafelyUnwrapped + start, count: end &- start)
        return lastStringASCII ? Self.asciiString(text) : String(decoding: text, as: UTF8.self)
    }

    /// Reads the string at `i` (its opening quote) without making it. Without escapes, `i` ends
    /// just past the closing quote, `lastStringASCII` says whether it is all ASCII, and the
    /// result is where its text ends (the closing quote). At a backslash, nil, with `i` there.
    @inline(__always)
    mutating func scanPlainString() throws(JSONParseError) -> Int? {
        let quote = i
        let start = i + 1
        let base = buf.baseAddress.unsafelyUnwrapped  // non-empty: `i` is at a quote
        let end = buf.count
        var j = start
        var ascii = true
        while true {
            // Whole words while 8 bytes remain; the first flagged byte of a word is exact
            // (the borrows of the subtractions only run upwards from a flagged byte).
            while end &- j >= 8 {
                let flags = Self.specialBytes(ByteWords.load(base + j))
                if flags == 0 {
                    j &+= 8
                    continue
                }
                j &+= flags.trailingZeroBitCount >> 3
                break
            }
            guard j < end else { break }
            let b = base[j]
            if b == UInt8(ascii: "\"") {
                i = j
                if j &- start > maxStringBytes { throw tooLong(at: quote) }
                i = j &+ 1
                lastStringASCII = ascii
                lastStringEscaped = false
                return j
            }
            if b == UInt8(ascii: "\\") {
                i = j
                return nil
            }
            if b < 0x20 {
                i = j
                throw controlCharacter(b)
            }
            if b < 0x80 {
                j &+= 1
            } else {
                guard let (_, length) = UTF8Validation.decode(buf, at: j) else {
                    i = j
                    throw error("invalid UTF-8", at: j)
                }
                ascii = false
                j &+= length
            }
        }
        i = end
        throw error("unterminated string", at: quote)
    }

    /// A mask with the high bit set in each byte of `w` that is a quote, a backslash, below
    /// 0x20 or at least 0x80: exact up to and including the lowest flagged byte.
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        ByteWords.equal(w, UInt8(ascii: "\"")) | ByteWords.equal(w, UInt8(ascii: "\\")) | ByteWords.below(w, 0x20)
            | (w & ByteWords.highs)
    }

    /// A String of ASCII bytes, without re-validating them; short ones (the usual keys and
    /// values) are built in place as small strings.
    @inline(__always)
    static func asciiString(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(ascii: bytes) }

    /// Slow path, from the first backslash on: decodes into `scratch`.
    mutating func parseEscapedString(quote: Int, start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
        // Scalar count of `scratch[..<counted]`, kept only when recording escape positions.
        var counted = 0
        var scalars = 0
        while i < buf.count {
            let b = buf[i]
            if b == UInt8(ascii: "\"") {
                if i - start > maxStringBytes { throw tooLong(at: quote) }
                i += 1
                lastStringASCII = false
                lastStringEscaped = true
                return String(decoding: scratch, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                let escape = i
                guard i + 1 < buf.count else { break }
                if record {
                    for j in counted..<scratch.count where scratch[j] & 0xC0 != 0x80 { scalars += 1 }
                    counted = scratch.count
                }
                try decodeEscape()
                if record {
                    lastEscapes.append(.init(scalarIndex: scalars, sourceLength: i - escape))
                }
            } else if b < 0x20 {
                throw controlCharacter(b)
            } else if b < 0x80 {
                scratch.append(b)
                i += 1
            } else {
                guard let (_, length) = UTF8Validation.decode(buf, at: i) else {
                    throw error("invalid UTF-8", at: i)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<(i + length)]))
                i += length
            }
        }
        throw error("unterminated string", at: quote)
    }

    /// `i` is at a backslash; appends the escaped scalar's UTF-8 to `scratch`.
    mutating func decodeEscape() throws(JSONParseError) {
        let escape = i
        i += 1
        guard i < buf.count else { throw error("unterminated string", at: escape) }  // callers check
        let c = buf[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(c)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: i) else { throw error("invalid \\u escape", at: escape) }
            i += 4
            var scalar = unit
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard i + 1 < buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u"),
                    let low = hex4(at: i + 2), low >= 0xDC00 && low <= 0xDFFF
                else { throw loneSurrogate(unit, at: escape) }
                i += 6
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw loneSurrogate(unit, at: escape)
            }
            appendUTF8(scalar)
        default:
            if c >= 0x20 && c < 0x7F {
                throw error("invalid escape '\\\(Character(Unicode.Scalar(c)))'", at: escape)
            }
            throw error("invalid escape: '\\' followed by \(describe(at: escape + 1))", at: escape)
        }
    }

    func hex4(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= buf.count else { return nil }
        var v: UInt32 = 0
        for k in offset..<(offset + 4) {
            let b = buf[k]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case ..<0x80:
            scratch.append(UInt8(v))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | v >> 6))
            scratch.append(UInt8(0x80 | v & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | v >> 12))
            scratch.append(UInt8(0x80 | v >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | v >> 18))
            scratch.append(UInt8(0x80 | v >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | v >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        }
    }

    func loneSurrogate(_ unit: UInt32, at offset: Int) -> JSONParseError {
        let hex = String(unit, radix: 16)
        return error("lone surrogate \\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex, at: offset)
    }

    func controlCharacter(_ b: UInt8) -> JSONParseError {
        error("unescaped control character \(Self.hexScalar(UInt32(b))) in string", at: i)
    }

    func tooLong(at offset: Int) -> JSONParseError {
        error("string longer than \(maxStringBytes) bytes", at: offset)
    }
}

/// UTF-8 per RFC 3629: no overlongs, no encoded surrogates, nothing above U+10FFFF.
enum UTF8Validation {
    /// The scalar starting at `offset` and its length in bytes, or nil if the bytes there
    /// are not a complete, well-formed UTF-8 sequence.
    static func decode(_ buf: UnsafeBufferPointer<UInt8>, at offset: Int) -> (UInt32, Int)? {
        guard offset >= 0, offset < buf.count else { return nil }
        let b0 = buf[offset]
        if b0 < 0x80 { return (UInt32(b0), 1) }
        let length: Int
        var lower: UInt8 = 0x80  // allowed range of the second byte
        var upper: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0  // overlong below U+0800
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F  // U+D800...U+DFFF
        case 0xF0: length = 4; lower = 0x90  // overlong below U+10000
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F  // above U+10FFFF
        default: return nil  // continuation byte, C0/C1 overlong lead, F5...FF
        }
        guard buf.count - offset >= length else { return nil }
        let b1 = buf[offset + 1]
        guard b1 >= lower && b1 <= upper else { return nil }
        var scalar = UInt32(b0) & (0xFF >> (length + 1))
        scalar = scalar << 6 | UInt32(b1 & 0x3F)
        var k = 2
        while k < length {
            let b = buf[offset + k]
            guard b & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(b & 0x3F)
            k += 1
        }
        return (scalar, length)
    }
}
