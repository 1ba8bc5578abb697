extension JSONParserCore {
    /// Keys other than the hints' ids a submission read in place may have (unknown keys,
    /// instance keys, escaped spellings); more, and it is decoded.
    static let maxOtherKeys = 4

    /// The document as `SentMembers`, when it is an object whose keys are the hints' ids, each
    /// found where `KeyHints.View.match` looks for it (the usual submission: a form's fields in
    /// its order, some left out), and at most `maxOtherKeys` others. Nil for any other document,
    /// valid or not: the caller then parses it (`parseDocument`), which gives the same values
    /// and errors as ever. Hinted keys match in increasing order, so they are distinct; once
    /// another key is seen, every key is compared with those before it (a duplicate: nil).
    mutating func scanSubmission() -> SentMembers? {
        guard let hints = keyHints, !record, buf.count <= Int(Int32.max) else { return nil }
        guard !(buf.count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) else { return nil }
        skipWhitespace()
        guard i < buf.count, buf[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        skipWhitespace()
        var sent = SentMembers()
        /// Bit k: other key k is all ASCII.
        var otherKeysASCII: UInt8 = 0
        if i < buf.count, buf[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            sent.members.reserveCapacity(min(hints.count + Self.maxOtherKeys, 64))
            while true {
                guard i < buf.count, buf[i] == UInt8(ascii: "\"") else { return nil }
                var id: Int32 = -1
                var key: Int32 = -1
                if let (k, end) = hints.match(buf, at: i, expected: &expectedKey) {
                    id = Int32(truncatingIfNeeded: k)
                    i = end
                } else {
                    guard sent.keys.count < Self.maxOtherKeys, let s = try? parseString() else { return nil }
                    if lastStringASCII { otherKeysASCII |= 1 &<< UInt8(truncatingIfNeeded: sent.keys.count) }
                    sent.keys.append(s)
                    key = Int32(truncatingIfNeeded: sent.keys.count - 1)
                }
                if !sent.keys.isEmpty {
                    // As the parser's duplicate check (below its linear limit; past it, it decides).
                    guard sent.members.count < Self.linearKeyCheckLimit else { return nil }
                    if isDuplicate(id: id, key: key, in: sent, hints: hints, otherKeysASCII: otherKeysASCII) { return nil }
                }
                skipWhitespace()
                guard i < buf.count, buf[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipWhitespace()
                guard i < buf.count, let member = scanMemberValue(id: id, key: key, into: &sent) else { return nil }
                sent.members.append(member)
                skipWhitespace()
                guard i < buf.count else { return nil }
                if buf[i] == UInt8(ascii: "}") {
                    i += 1
                    break
                }
                guard buf[i] == UInt8(ascii: ",") else { return nil }
                i += 1
                skipWhitespace()
            }
        }
        skipWhitespace()
        return i == buf.count ? sent : nil
    }

    /// Whether the key of a member (an id's index `id`, or an other key's `key`) is one of the
    /// members' before it. Two ids matched in order are distinct, so an id is compared only with
    /// the other keys; two ASCII keys of different lengths are unequal (Swift's canonical
    /// equivalence relates different byte counts only beyond ASCII), so most pairs cost no
    /// `String` comparison (on 32-bit WebAssembly, each one copied both strings' storage).
    private func isDuplicate(id: Int32, key: Int32, in sent: SentMembers, hints: KeyHints.View, otherKeysASCII: UInt8) -> Bool {
        let name = id >= 0 ? hints.id(Int(id)) : sent.keys[Int(key)]
        let nameASCII = id >= 0 ? hints.isASCII(Int(id)) : otherKeysASCII & (1 &<< UInt8(truncatingIfNeeded: key)) != 0
        let length = name.utf8.count
        for m in sent.members where id < 0 || m.id < 0 {
            let ascii = m.id >= 0 ? hints.isASCII(Int(m.id)) : otherKeysASCII & (1 &<< UInt8(truncatingIfNeeded: m.key)) != 0
            let other = m.id >= 0 ? hints.id(Int(m.id)) : sent.keys[Int(m.key)]
            if nameASCII && ascii && other.utf8.count != length { continue }
            if other == name { return true }
        }
        return false
    }

    /// The member whose value starts at `i` (not at the end), with `i` past it; nil where
    /// `parseValue` would throw.
    @inline(__always)
    private mutating func scanMemberValue(id: Int32, key: Int32, into sent: inout SentMembers) -> SentMembers.Member? {
        let start = i
        let kind: SentMembers.Kind
        switch buf[i] {
        case UInt8(ascii: "\""):
            let scanned: Int?
            do { scanned = try scanPlainString() } catch { return nil }
            if scanned == nil {
                // Escapes: decoded (from the quote again).
                i = start
                guard let s = try? parseString() else { return nil }
                return other(.string(s), id: id, key: key, into: &sent)
            }
            kind = lastStringASCII ? .asciiString : .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard (try? scanNumber()) != nil else { return nil }
            kind = .number
        case UInt8(ascii: "t"):
            guard (try? parseLiteral("true")) != nil else { return nil }
            kind = .true
        case UInt8(ascii: "f"):
            guard (try? parseLiteral("false")) != nil else { return nil }
            kind = .false
        case UInt8(ascii: "n"):
            guard (try? parseLiteral("null")) != nil else { return nil }
            kind = .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard let v = try? parseValue(depth: 1, path: -1) else { return nil }
            return other(v, id: id, key: key, into: &sent)
        default:
            return nil
        }
        return SentMembers.Member(
            id: id, key: key, textStart: Int32(truncatingIfNeeded: start), textCount: Int32(truncatingIfNeeded: i &- start), decoded: -1,
            kind: kind)
    }

    private func other(_ v: JSONValue, id: Int32, key: Int32, into sent: inout SentMembers) -> SentMembers.Member {
        sent.decoded.append(v)
        return SentMembers.Member(
            id: id, key: key, textStart: -1, textCount: 0, decoded: Int32(truncatingIfNeeded: sent.decoded.count - 1), kind: .other)
    }
}

extension JSONParser {
    /// `JSONParserCore.scanSubmission` of `buffer` (submission options).
    static func scanSubmission(buffer: UnsafeBufferPointer<UInt8>, keyHints: KeyHints.View) -> SentMembers? {
        MemberStack.withLentRoom { room -> SentMembers? in
            var parser = JSONParserCore(buffer: buffer, options: .submission)
            parser.members = MemberStack(lending: room)
            parser.keyHints = keyHints
            defer { parser.members.release() }
            return parser.scanSubmission()
        }
    }
}
