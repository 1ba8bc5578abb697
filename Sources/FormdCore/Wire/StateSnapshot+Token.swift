/// The `state` token (API.md §5.1): a snapshot as base64url text, bound to one form version.
///
/// SlotMap, all integers little-endian or LEB128 (`varint`):
/// `1` (format) · 8 bytes binding (hash of the form id and version) · varint section count ·
/// per section: varint static index, varint instance + 1, flags byte, [8 bytes errors hash],
/// varint field count, per field: varint template + 1, varint spec index, flags byte,
/// [8 bytes value hash], [8 bytes errors hash] · flags byte and [8 bytes] for form errors ·
/// 8 bytes checksum of everything before it.
///
/// The server keeps nothing: any replica reads any token. A token from another form or another
/// version, or one that is damaged, is refused (400), never diffed against.
extension StateSnapshot {
    /// The most fields and sections a token describes (about 20 bytes each): a larger state is
    /// answered with `"state": null`, and its next answer lists everything again.
    package static let maxEntries = 4096
    /// The longest token accepted, in characters.
    package static let maxTokenLength = 4 * ((maxEntries * 32 + 64) / 3 + 1)

    package enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed
        case foreign
        case tooLong

        package var description: String {
            switch self {
            case .malformed: "the state token is damaged; send \"state\": null to start over"
            case .foreign: "the state token belongs to another form or another version of this form; send \"state\": null to start over"
            case .tooLong: "the state token is longer than formd ever issues"
            }
        }
    }

    static func binding(form: String, version: String) -> UInt64 {
        hash(Array(form.utf8) + [0] + Array(version.utf8))
    }

    /// The token, or nil when the state has more than `maxEntries` fields and sections.
    func token(form: String, version: String) -> String? {
        guard entryCount <= Self.maxEntries else { return nil }
        var out: [UInt8] = [1]
        out.reserveCapacity(16 + entryCount * 20)
        Self.put64(Self.binding(form: form, version: version), &out)
        Self.putVarint(UInt64(sections.count), &out)
        for s in sections {
            Self.putVarint(UInt64(s.section), &out)
            Self.putVarint(UInt64(s.instance + 1), &out)
            out.append(s.flags.rawValue)
            if s.flags.contains(.hasErrors) { Self.put64(s.errors, &out) }
            Self.putVarint(UInt64(s.fields.count), &out)
            for f in s.fields {
                Self.putVarint(UInt64(f.spec.template + 1), &out)
                Self.putVarint(UInt64(f.spec.index), &out)
                out.append(f.flags.rawValue)
                if f.flags.contains(.hasValue) { Self.put64(f.value, &out) }
                if f.flags.contains(.hasErrors) { Self.put64(f.errors, &out) }
            }
        }
        out.append(formErrors == 0 ? 0 : 1)
        if formErrors != 0 { Self.put64(formErrors, &out) }
        Self.put64(Self.hash(out), &out)
        return Base64URL.encode(out)
    }

    /// Reads a token issued for `plan`'s form `form` at `version`; every index is checked against
    /// the plan, so a decoded snapshot only names fields and sections the form has.
    package init(token: String, form: String, version: String, plan: FormPlan) throws(TokenError) {
        guard token.utf8.count <= Self.maxTokenLength else { throw .tooLong }
        guard let bytes = Base64URL.decode(token), bytes.count >= 18, bytes[0] == 1 else { throw .malformed }
        let body = bytes[0..<(bytes.count - 8)]
        var r = Reader(bytes: bytes, at: bytes.count - 8)
        guard try r.u64() == Self.hash(body) else { throw .malformed }
        r = Reader(bytes: Array(body), at: 1)
        guard try r.u64() == Self.binding(form: form, version: version) else { throw .foreign }
        let sectionCount = try r.count(limit: Self.maxEntries)
        var sections: [Section] = []
        var entries = sectionCount
        // Each section and field once: the diff pairs them by identity.
        var seenSections = Set<[Int]>()
        var seenFields = Set<[Int]>()
        for _ in 0..<sectionCount {
            let index = try r.count(limit: plan.sections.count - 1)
            let instance = try r.count(limit: 1_000_000_000) - 1
            guard seenSections.insert([index, instance]).inserted else { throw .malformed }
            let spec = plan.sections[index]
            // Instances only of dynamic sections.
            guard instance < 0 || spec.template != nil else { throw .foreign }
            let flags = Flags(rawValue: try r.byte())
            guard flags.isSubset(of: [.visible, .hasErrors]) else { throw .malformed }
            let errors = flags.contains(.hasErrors) ? try r.u64() : 0
            let fieldCount = try r.count(limit: Self.maxEntries)
            entries += fieldCount
            guard entries <= Self.maxEntries else { throw .malformed }
            var fields: [Field] = []
            fields.reserveCapacity(fieldCount)
            for _ in 0..<fieldCount {
                let template = try r.count(limit: plan.templates.count) - 1
                let specIndex = try r.count(limit: Int(Int32.max))
                // A section's own fields: static ones of a static section, template ones of an instance.
                if instance < 0 {
                    guard template < 0, spec.fields.contains(specIndex) else { throw .foreign }
                } else {
                    guard template == spec.template, specIndex < plan.templates[template].fields.count else { throw .foreign }
                }
                guard seenFields.insert([template, specIndex, instance]).inserted else {
                    throw .malformed
                }
                let flags = Flags(rawValue: try r.byte())
                guard flags.isSubset(of: .all) else { throw .malformed }
                let value = flags.contains(.hasValue) ? try r.u64() : 0
                let errors = flags.contains(.hasErrors) ? try r.u64() : 0
                fields.append(
                    Field(
                        spec: SlotMap.SpecRef(template: Int32(template), index: Int32(specIndex)), flags: flags, value: value,
                        errors: errors))
            }
            sections.append(Section(section: index, instance: instance, flags: flags, errors: errors, fields: fields))
        }
        let formFlag = try r.byte()
        guard formFlag <= 1 else { throw .malformed }
        let formErrors = formFlag == 1 ? try r.u64() : 0
        guard r.at == body.count else { throw .malformed }
        self.init(sections: sections, formErrors: formErrors)
    }

    private static func put64(_ v: UInt64, _ out: inout [UInt8]) {
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }

    private static func putVarint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private struct Reader {
        let bytes: [UInt8]
        var at: Int

        mutating func byte() throws(TokenError) -> UInt8 {
            guard at < bytes.count else { throw .malformed }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func u64() throws(TokenError) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(try byte()) << (8 * UInt64(i)) }
            return v
        }

        /// A varint no larger than `limit` (at most 5 bytes).
        mutating func count(limit: Int) throws(TokenError) -> Int {
            var v = 0
            var shift = 0
            while true {
                let b = try byte()
                v |= Int(b & 0x7F) << shift
                if b < 0x80 { break }
                shift += 7
                guard shift < 35 else { throw .malformed }
            }
            guard limit >= 0, v <= limit else { throw .foreign }
            return v
        }
    }
}

/// Base64 with the URL alphabet and no padding (RFC 4648 §5), so a token needs no escaping in
/// JSON, a header or a query.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest > 1 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int((n >> 18) & 63)])
            out.append(alphabet[Int((n >> 12) & 63)])
            if rest > 1 { out.append(alphabet[Int((n >> 6) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case 65...90: v = c - 65
            case 97...122: v = c - 97 + 26
            case 48...57: v = c - 48 + 52
            case 45: v = 62
            case 95: v = 63
            default: return nil
            }
            acc = acc << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
                acc &= (1 << UInt32(bits)) - 1
            }
        }
        // Only zero bits may be left over (a canonical encoding), and never a lone character.
        guard bits < 6, acc == 0 else { return nil }
        return out
    }
}
