/// The outcome of coercing a submitted or default value to its field's kind (SEMANTICS §2).
enum Coerced: Equatable {
    /// No value: absent, `null`, or an empty/whitespace string.
    case none
    case value(JSONValue)
    /// The value is its own canonical form: no new value is made. Evaluation then reads a
    /// submitted value where it is: copying a submitted string retained it (an atomic operation
    /// on memory that large submissions have evicted) and released it again at the end.
    case asSent
    /// The kind cannot hold it: a `type` error; the value is returned as sent.
    case invalid

    /// The canonical value of `input` after this outcome; nil for `.none` and `.invalid`.
    func canonical(of input: JSONValue) -> JSONValue? {
        switch self {
        case .value(let c): c
        case .asSent: input
        case .none, .invalid: nil
        }
    }
}

/// Per-field coercion rules, resolved once at load: the field's `CoercionRule` and its options.
struct ValueCoercer: Sendable {
    let rule: CoercionRule
    /// Option ids of select/segment fields, in definition order.
    let optionIDs: [JSONValue?]

    init(kind: FieldKind, formatter: InputFormatter?, optionIDs: [JSONValue?]) {
        rule = CoercionRule(kind: kind, formatter: formatter)
        self.optionIDs = optionIDs
    }

    var kind: FieldKind { rule.kind }
    var formatter: InputFormatter? { rule.formatter }

    func coerce(_ value: JSONValue) -> Coerced { rule.coerce(value, options: optionIDs[...]) }

    /// The option a canonical value chose, by position. Canonical select values are option ids
    /// as typed, so plain equality finds it; numeric equality (`1` vs `1.0`) is the fallback.
    func optionIndex(for value: JSONValue) -> Int? { Self.optionIndex(for: value, in: optionIDs[...]) }
}

/// A field's coercion without its option ids: a kind and a formatter, no reference. A form keeps
/// one per field in a table (`FormPlan.coercers`) that every request reads; a `ValueCoercer`
/// copied out of it retained and released its (empty) option array each time.
struct CoercionRule: Sendable {
    let kind: FieldKind
    let formatter: InputFormatter?

    /// `coerce(value)` with the option ids given (only the kinds with options read them: a
    /// form's option ids are in one array, and evaluation passes a slice of it for those).
    func coerce(_ value: JSONValue, options: ArraySlice<JSONValue?>) -> Coerced {
        switch value {
        case .null: return .none
        case .string(let s):
            if s.isBlank { return .none }
            if let f = formatter, s.containsByte(f.removedByte) { return coerceString(f.normalise(s), options, asSent: false) }
            return coerceString(s, options, asSent: true)
        default:
            return coerceNonString(value, options)
        }
    }

    /// `coerce(.string(s))` for a string sent without escapes, decided from `utf8`, its bytes in
    /// the submission (between the quotes), for the kinds that keep such a string as sent: no
    /// copy of the value, no `String` read. Nil when the `String` is needed: a value that may be
    /// blank (it does not start with printable ASCII), one the formatter changes, or another kind.
    @inline(__always) func coerceSent(utf8: UnsafeBufferPointer<UInt8>) -> Coerced? {
        if utf8.isEmpty { return Coerced.none }
        guard readsAsWritten(utf8) else { return nil }
        switch kind {
        case .text, .name, .password, .custom: return .asSent
        case .email: return EmailAddress.isValid(utf8: utf8) ? .asSent : .invalid
        case .date: return CalendarValue.isCanonicalDate(utf8: utf8) ? .asSent : nil
        default: return nil
        }
    }

    /// `coerce(value)` for a number, `true` or `false` sent as `utf8` (its JSON text in the
    /// submission), decided from the bytes for the kinds that usually keep it: a float or a
    /// count written canonically is kept as sent, a float in plain digits is made canonical
    /// (`25000.50` -> `25000.5`, the only `.value` result: the same number as the text), a switch
    /// keeps `true` and `false`. Nil otherwise: the value is made and coerced.
    func coerceSentScalar(utf8: UnsafeBufferPointer<UInt8>) -> Coerced? {
        guard let first = utf8.first else { return nil }
        switch kind {
        case .float:
            guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else { return nil }
            if DecimalText.canonicalShape(utf8: utf8) != nil { return .asSent }
            return DecimalText.canonicalPlain(bytes: utf8).map { .value(.number(JSONNumber(literal: $0))) }
        case .count:
            guard let shape = DecimalText.canonicalShape(utf8: utf8), !shape.fraction, shape.digits <= 18 else { return nil }
            return .asSent
        case .switch:
            return first == UInt8(ascii: "t") || first == UInt8(ascii: "f") ? .asSent : nil
        default:
            return nil
        }
    }

    /// Whether the non-empty string these bytes are is decided by its bytes as they are: it is
    /// not blank (its first byte is printable ASCII) and the formatter removes nothing from it.
    @inline(__always) func readsAsWritten(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = utf8.first, first > 0x20 && first < 0x80 else { return false }
        if let f = formatter, ByteWords.contains(utf8, f.removedByte) { return false }
        return true
    }

    /// `asSent`: `s` is the submitted string itself.
    private func coerceString(_ s: String, _ options: ArraySlice<JSONValue?>, asSent: Bool) -> Coerced {
        switch kind {
        case .text, .name, .password, .custom:
            return asSent ? .asSent : .value(.string(s))
        case .email:
            guard EmailAddress.isValid(s) else { return .invalid }
            return asSent ? .asSent : .value(.string(s))
        case .number:
            var digits: [UInt8] = []
            digits.reserveCapacity(s.utf8.count)
            for b in s.utf8 where b != UInt8(ascii: " ") {
                guard b >= 48 && b <= 57 else { return .invalid }
                digits.append(b)
            }
            return digits.isEmpty ? .invalid : .value(.string(String(decoding: digits, as: UTF8.self)))
        case .count:
            let t = s.trimmingWhitespace
            guard let first = t.utf8.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57),
                t.utf8.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 }),
                let p = DecimalText.parse(t), let i = DecimalText.int64(p)
            else { return .invalid }
            return .value(.number(JSONNumber(literal: String(i))))
        case .float:
            // A decimal string longer than formd may write as a number (64 characters) is not a float.
            guard let p = DecimalText.parse(s.trimmingWhitespace, allowComma: true), let c = DecimalText.canonicalNumber(p)
            else { return .invalid }
            return .value(.number(JSONNumber(literal: c)))
        case .switch:
            switch s {
            case "true", "1": return .value(.bool(true))
            case "false", "0": return .value(.bool(false))
            default: return .invalid
            }
        case .select, .segment:
            return ValueCoercer.matchOption(.string(s), options)
        case .multiSelect:
            return ValueCoercer.matchOptions([.string(s)], options)
        case .date:
            if CalendarValue.isCanonicalDate(s) { return asSent ? .asSent : .value(.string(s)) }
            return calendar(s, .date)
        case .dateTime:
            return calendar(s, .dateTime)
        case .time:
            return calendar(s, .time)
        case .button, .spacer:
            return .none
        }
    }

    private func coerceNonString(_ value: JSONValue, _ options: ArraySlice<JSONValue?>) -> Coerced {
        switch kind {
        case .custom:
            return .asSent
        case .text, .name, .password, .email:
            let text: String
            switch value {
            case .number(let n): text = DecimalText.canonical(literal: n.text)
            case .bool(let b): text = b ? "true" : "false"
            default: return .invalid
            }
            if kind == .email { return EmailAddress.isValid(text) ? .value(.string(text)) : .invalid }
            return .value(.string(text))
        case .number:
            guard case .number(let n) = value, let p = DecimalText.parse(n.text),
                let digits = DecimalText.integerDigits(p)
            else { return .invalid }
            return .value(.string(digits))
        case .count:
            guard case .number(let n) = value else { return .invalid }
            // An integer as clients send it is its own canonical text (up to 18 digits, in Int64).
            if let shape = DecimalText.canonicalShape(n.text), !shape.fraction, shape.digits <= 18 { return .asSent }
            guard let p = DecimalText.parse(n.text), let i = DecimalText.int64(p) else { return .invalid }
            return .value(.number(JSONNumber(literal: String(i))))
        case .float:
            guard case .number(let n) = value else { return .invalid }
            if DecimalText.canonicalShape(n.text) != nil { return .asSent }
            if let c = DecimalText.canonicalPlain(n.text) { return .value(.number(JSONNumber(literal: c))) }
            // `1e400` would come back as a number clients read as Infinity, and formulas could not
            // use it: like the string "1e400", a number formd cannot hold is not a float.
            guard let p = DecimalText.parse(n.text), DecimalText.isRepresentable(p) else { return .invalid }
            // `canonicalNumber(literal: n.text)` without parsing the literal a second time.
            return .value(.number(JSONNumber(literal: DecimalText.canonicalNumber(p) ?? n.text)))
        case .switch:
            switch value {
            case .bool: return .asSent
            case .number(let n):
                guard let p = DecimalText.parse(n.text) else { return .invalid }
                if p.digits.isEmpty { return .value(.bool(false)) }
                if p.digits == [49] && p.exponent == 0 && !p.negative { return .value(.bool(true)) }
                return .invalid
            default: return .invalid
            }
        case .select, .segment:
            return ValueCoercer.matchOption(value, options)
        case .multiSelect:
            if case .array(let items) = value { return ValueCoercer.matchOptions(items, options) }
            return ValueCoercer.matchOptions([value], options)
        case .date, .dateTime, .time:
            return .invalid
        case .button, .spacer:
            return .none
        }
    }

    private func calendar(_ s: String, _ kind: CalendarKind) -> Coerced {
        CalendarValue(s, as: kind).map { .value(.string($0.canonical)) } ?? .invalid
    }
}

extension ValueCoercer {

    /// `optionIndex(for:)` among `options`; the index is the slice's (its base array's).
    static func optionIndex(for value: JSONValue, in options: ArraySlice<JSONValue?>) -> Int? {
        for i in options.indices where options[i] == value { return i }
        return options.firstIndex { $0.map { OptionMatch.sameID($0, value) } ?? false }
    }

    /// SEMANTICS §2: JSON equality, booleans also match 1/0 and "true"/"false"/"1"/"0", numeric
    /// ids also match their string form. The canonical value is the option id as typed.
    /// An option whose id is the value itself wins over one that only matches through a
    /// relaxation: with options `1` and `"01"`, `"01"` is the second (SEMANTICS §2).
    static func matchOption(_ value: JSONValue, _ options: ArraySlice<JSONValue?>) -> Coerced {
        guard let i = matchedOptionIndex(value, options), let id = options[i] else { return .invalid }
        return .value(id)
    }

    /// The index (the slice's) of the option `value` chooses, by `matchOption`'s rules.
    static func matchedOptionIndex(_ value: JSONValue, _ options: ArraySlice<JSONValue?>) -> Int? {
        for i in options.indices {
            if let id = options[i], OptionMatch.exactly(id: id, value: value) { return i }
        }
        for i in options.indices {
            if let id = options[i], OptionMatch.matches(id: id, value: value) { return i }
        }
        return nil
    }

    /// A multiple choice (SEMANTICS §2): every item chooses an option by `matchOption`'s rules,
    /// no option twice; the canonical value is the chosen ids in definition order. An empty list
    /// is a value (nothing chosen: it replaces the default) that checks treat as none;
    /// `null`, blank strings, objects and arrays as items are `type` errors.
    static func matchOptions(_ items: [JSONValue], _ options: ArraySlice<JSONValue?>) -> Coerced {
        if items.isEmpty { return .value(.array([])) }
        // More items than options: one repeats or matches none.
        guard items.count <= options.count else { return .invalid }
        // A submitter picks the number of items: past a few thousand comparisons, match through
        // an index of the options instead of a scan per item (the same rules, `OptionIndex`).
        let index = items.count * options.count > 4096 ? OptionIndex(options) : nil
        var taken = [Bool](repeating: false, count: options.count)
        var chosen: [Int] = []
        chosen.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .string(let s) where s.isBlank: return .invalid
            case .string, .number, .bool: break
            default: return .invalid
            }
            guard let i = index.map({ $0.match(item) }) ?? matchedOptionIndex(item, options) else { return .invalid }
            let k = i - options.startIndex
            guard !taken[k] else { return .invalid }
            taken[k] = true
            chosen.append(i)
        }
        chosen.sort()
        return .value(.array(chosen.compactMap { options[$0] }))
    }
}

/// The options of one field by `OptionMatch.idKey`, answering `matchedOptionIndex` without a scan:
/// an exact match (the same key) wins; otherwise the lowest option that the value matches through a
/// relaxation (a numeric id by its string form, a boolean id by `1`/`0`/`"true"`/...).
struct OptionIndex {
    private var first: [String: Int] = [:]

    init(_ options: ArraySlice<JSONValue?>) {
        for i in options.indices {
            guard let id = options[i] else { continue }
            let key = OptionMatch.idKey(id)
            if first[key] == nil { first[key] = i }
        }
    }

    func match(_ value: JSONValue) -> Int? {
        if let exact = first[OptionMatch.idKey(value)] { return exact }
        var relaxed: [String] = []
        switch value {
        case .string(let s):
            // A numeric id matches its string form, compared by value as `numericEqual` does.
            if DecimalText.parse(s) != nil { relaxed.append(OptionMatch.idKey(.number(JSONNumber(literal: s)))) }
            if s == "true" || s == "1" { relaxed.append("t") }
            if s == "false" || s == "0" { relaxed.append("f") }
        case .number(let n):
            if let p = DecimalText.parse(n.text) {
                if p.digits.isEmpty { relaxed.append("f") }
                if p.digits == [49] && p.exponent == 0 && !p.negative { relaxed.append("t") }
            }
        default: break
        }
        return relaxed.compactMap { first[$0] }.min()
    }
}

enum OptionMatch {
    /// The same JSON value (numbers compared by value: `1.0` is `1`).
    static func exactly(id: JSONValue, value: JSONValue) -> Bool {
        switch (id, value) {
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return numericEqual(a.text, b.text)
        case (.bool(let a), .bool(let b)): return a == b
        default: return false
        }
    }

    static func matches(id: JSONValue, value: JSONValue) -> Bool {
        switch (id, value) {
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return numericEqual(a.text, b.text)
        case (.number(let a), .string(let b)): return numericEqual(a.text, b)
        case (.bool(let a), .bool(let b)): return a == b
        case (.bool(let a), .number(let n)):
            guard let p = DecimalText.parse(n.text) else { return false }
            return a ? (p.digits == [49] && p.exponent == 0 && !p.negative) : p.digits.isEmpty
        case (.bool(let a), .string(let s)):
            return a ? (s == "true" || s == "1") : (s == "false" || s == "0")
        default: return false
        }
    }

    static func numericEqual(_ a: String, _ b: String) -> Bool {
        guard let pa = DecimalText.parse(a), let pb = DecimalText.parse(b) else { return false }
        return pa == pb
    }
}

/// `local@domain.tld` (SEMANTICS §6 `type` for `email` fields).
enum EmailAddress {
    /// Exactly one `@`, not first; no control characters or spaces; after the `@` at least two
    /// non-empty `.`-separated labels, the last of at least two bytes. One pass over the bytes,
    /// without copies: it runs for every e-mail value of every request.
    static func isValid(_ s: String) -> Bool {
        // Over the bytes in place when contiguous: iterating `utf8` cost several times more.
        s.utf8.withContiguousStorageIfAvailable { isValid(utf8: $0) } ?? Array(s.utf8).withUnsafeBufferPointer { isValid(utf8: $0) }
    }

    /// Two passes: the whole text for controls, spaces, DEL and the `@`, eight bytes at a time
    /// where it has none of them (`ByteWords`); then the domain's labels.
    static func isValid(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = utf8.baseAddress else { return false }
        let n = utf8.count
        var at = -1
        var i = 0
        while i < n {
            if n &- i >= 8 {
                let w = ByteWords.load(p + i)
                let found = ByteWords.below(w, 0x21) | ByteWords.equal(w, 0x7F) | ByteWords.equal(w, UInt8(ascii: "@"))
                if found == 0 {
                    i &+= 8
                    continue
                }
                // The lowest byte found is exact; the bytes before it are none of these.
                i &+= found.trailingZeroBitCount &>> 3
            }
            let b = p[i]
            if b <= 0x20 || b == 0x7F { return false }
            if b == UInt8(ascii: "@") {
                if at >= 0 { return false }
                at = i
            }
            i &+= 1
        }
        guard at > 0 else { return false }
        var dots = 0  // labels of the domain ended by a `.`
        var labelLength = 0
        i = at &+ 1
        while i < n {
            if p[i] == UInt8(ascii: ".") {
                if labelLength == 0 { return false }
                dots &+= 1
                labelLength = 0
            } else {
                labelLength &+= 1
            }
            i &+= 1
        }
        return dots >= 1 && labelLength >= 2
    }
}

extension String {
    /// Empty or only whitespace (SEMANTICS §2 "no value"); ASCII is decided from the bytes, read
    /// in place when they are contiguous (iterating `utf8` cost several times more).
    var isBlank: Bool {
        // Most values start with a printable ASCII byte: decided there, through the view's
        // iterator, which reads a small string's bytes in place (`utf8.first` is not specialized
        // for the view, and the contiguous read below copies a small string out first).
        var bytes = utf8.makeIterator()
        guard let first = bytes.next() else { return true }
        if first > 0x20 && first < 0x80 { return false }
        let ascii = utf8.withContiguousStorageIfAvailable { Self.asciiBlank($0) } ?? Self.asciiBlank(utf8)
        return ascii ?? allSatisfy({ $0.isWhitespace })
    }

    /// Whether `bytes` are only ASCII whitespace; nil at a non-ASCII byte before any other.
    private static func asciiBlank(_ bytes: some Collection<UInt8>) -> Bool? {
        for b in bytes {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D: continue
            case 0x80...: return nil
            default: return false
            }
        }
        return true
    }

    /// Whether the text's UTF-8 has `byte`, read in place when contiguous.
    func containsByte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}

extension StringProtocol {
    var trimmingWhitespace: Substring {
        let s = Substring(self)
        guard let first = s.firstIndex(where: { !$0.isWhitespace }) else { return s[s.endIndex...] }
        let last = s.lastIndex(where: { !$0.isWhitespace })!
        return s[first...last]
    }
}
