/// A fast path for the `format` patterns most forms use: postal codes, phone numbers, user
/// names, simple e-mail shapes. A pattern qualifies when it is built from single characters,
/// `.`, `\d`, `\w` and bracket classes with greedy quantifiers (`?`, `*`, `+`, `{n}`, `{n,}`,
/// `{n,m}`), and groups (`(…)`, `(?:…)`, with `|` inside them, quantified too unless they repeat
/// inside: `(a+)+` is ICU's, with its step budget), with or without
/// `^` at the start and `$` at the end. Such a pattern describes a regular language, so whether
/// it matches is decided by a deterministic automaton made once (`PatternAutomaton`), or, for a
/// pattern too large for one, by carrying the set of text positions reachable so far through
/// the pattern, as a bit mask, one pass over the text per element: no backtracking, no engine,
/// no UTF-16 copy, no allocation and no budget to spend.
///
/// Only ASCII patterns qualify, and only ASCII text under 64 bytes takes the fast path (postal
/// codes, phone numbers and names are far shorter; longer values go to ICU): there ICU's
/// case-insensitive matching is ASCII case folding and `\d`/`\w` are `[0-9]`/`[A-Za-z0-9_]`.
/// Everything else (top-level `|`, back-references, look-around, negated classes, other escapes,
/// lazy or possessive quantifiers, non-ASCII text) goes to ICU. `$` matches at the end or before
/// one final line terminator, as ICU's does. `SimplePatternTests` checks the two against each
/// other on random patterns and texts.
struct SimplePattern: Sendable {
    /// One character position: a set of ASCII bytes (closed under case).
    struct Element: Sendable {
        var lo: UInt64 = 0  // bytes 0-63
        var hi: UInt64 = 0  // bytes 64-127

        func contains(_ b: UInt8) -> Bool {
            // Masking shifts: the amounts are below 64, so no over-shift check is needed.
            b < 64 ? (lo &>> UInt64(b)) & 1 != 0 : b < 128 && (hi &>> UInt64(b &- 64)) & 1 != 0
        }
    }

    /// Not `indirect`: a group holds its alternatives in arrays already, and a boxed node was
    /// retained and released each time a check visited it.
    enum Node: Sendable {
        /// `min`...`max` characters of a set in a row (`max`: Int.max when unbounded); the set
        /// is `classes[class]`.
        case run(class: Int, min: Int, max: Int)
        /// A group: one of `alternatives` (each a sequence), `min`...`max` times.
        case group([[Node]], min: Int, max: Int)

        /// Whether this node, or one inside it, can match more than once in a row.
        var repeats: Bool {
            switch self {
            case .run(_, _, let max): max > 1
            case .group(let alternatives, _, let max): max > 1 || alternatives.contains { $0.contains(where: { $0.repeats }) }
            }
        }
    }

    let nodes: [Node]
    /// The distinct sets of the pattern's runs.
    let classes: [Element]
    /// Per ASCII byte, bit c set when `classes[c]` holds it; 128 more entries of `nonASCII` (no
    /// class holds those, and the text goes to ICU). Empty past 63 classes.
    let classTable: [UInt64]
    static let nonASCII: UInt64 = 1 << 63
    let anchoredStart: Bool
    let anchoredEnd: Bool
    /// The pattern as a deterministic automaton, when it is small enough: `matches` then reads
    /// each byte once. Nil: the bit masks decide.
    private(set) var automaton: PatternAutomaton? = nil

    /// nil when `pattern` is outside the subset (ICU decides those).
    init?(_ pattern: String) {
        var p = Array(pattern.utf8)
        guard !p.isEmpty, p.count <= 512, p.allSatisfy({ $0 < 128 }) else { return nil }
        anchoredStart = p.first == UInt8(ascii: "^")
        if anchoredStart { p.removeFirst() }
        // A final `$` is an anchor unless it is escaped (an odd number of backslashes before it).
        var backslashes = 0
        if p.last == UInt8(ascii: "$") {
            var k = p.count - 2
            while k >= 0, p[k] == UInt8(ascii: "\\") { backslashes += 1; k -= 1 }
        }
        anchoredEnd = p.last == UInt8(ascii: "$") && backslashes % 2 == 0
        if anchoredEnd { p.removeLast() }
        var parser = Parser(p: p)
        guard let nodes = parser.sequence(depth: 0), parser.i == p.count, !nodes.isEmpty else { return nil }
        self.nodes = nodes
        classes = parser.classes
        if classes.count < 64 {
            var table = [UInt64](repeating: 0, count: 256)
            for b in 0..<256 {
                if b >= 128 { table[b] = Self.nonASCII; continue }
                for (c, e) in classes.enumerated() where e.contains(UInt8(b)) { table[b] |= 1 << UInt64(c) }
            }
            classTable = table
        } else {
            classTable = []
        }
        automaton = PatternAutomaton(self)
    }

    /// Whether `text` matches; nil when the text is not ASCII or has 64 bytes or more (ICU decides).
    func matches(_ text: String) -> Bool? {
        let fast: Bool?? = text.utf8.withContiguousStorageIfAvailable { matches(utf8: $0) }
        if let fast { return fast }
        var text = text
        return text.withUTF8 { matches(utf8: $0) }
    }

    /// `matches(_:)` of the text these bytes are.
    func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count < 64 else { return nil }
        return matches(bytes)
    }

    /// The automaton's answer when the pattern has one, else the bit masks'.
    private func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if let automaton { return automaton.matches(bytes, anchoredEnd: anchoredEnd) }
        return matchesByMasks(bytes)
    }

    /// The positions reachable so far are a bit mask (bit q: text position q), so each element
    /// costs a few word operations per character. A repeated group settles within 65 rounds:
    /// nothing inside it repeats, so each round either consumes a character or only adds positions.
    ///
    /// Which positions hold a byte of each class is worked out first, in one pass over the text
    /// for all classes (`classTable`): a pass per run of the pattern read every byte again.
    ///
    /// Used whether or not the pattern has an automaton by the tests, which compare the two.
    func matchesByMasks(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let n = bytes.count
        let all: UInt64 = n == 63 ? .max : (1 << UInt64(n + 1)) - 1
        let start = anchoredStart ? 1 : all
        let end: UInt64? = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: classes.count) { masks -> UInt64? in
            masks.initialize(repeating: 0)
            if classTable.isEmpty {
                guard bytes.allSatisfy({ $0 < 128 }) else { return nil }
                for c in classes.indices {
                    var m: UInt64 = 0
                    for (p, b) in bytes.enumerated() where classes[c].contains(b) { m |= 1 &<< UInt64(p) }  // p < 63
                    masks[c] = m
                }
            } else {
                let ok = classTable.withUnsafeBufferPointer { table -> Bool in
                    for p in 0..<n {
                        var m = table[Int(bytes[p])]
                        if m & Self.nonASCII != 0 { return false }
                        let bit: UInt64 = 1 &<< UInt64(p)
                        while m != 0 {
                            masks[m.trailingZeroBitCount] |= bit
                            m &= m &- 1
                        }
                    }
                    return true
                }
                guard ok else { return nil }
            }
            return Self.apply(nodes, to: start, UnsafeBufferPointer(masks))
        }
        guard let end else { return nil }
        if !anchoredEnd { return end != 0 }
        // `$`: at the end, or before one final line terminator (`\r\n` counts as one).
        if end >> UInt64(n) & 1 != 0 { return true }
        guard n > 0, Self.lineTerminators.contains(bytes[n - 1]) else { return false }
        if end >> UInt64(n - 1) & 1 != 0 { return true }
        return n >= 2 && bytes[n - 2] == 13 && bytes[n - 1] == 10 && end >> UInt64(n - 2) & 1 != 0
    }

    private static func apply(_ seq: [Node], to start: UInt64, _ masks: UnsafeBufferPointer<UInt64>) -> UInt64 {
        var reach = start
        for node in seq {
            reach = apply(node, to: reach, masks)
            if reach == 0 { return 0 }
        }
        return reach
    }

    private static func apply(_ node: Node, to reach: UInt64, _ masks: UnsafeBufferPointer<UInt64>) -> UInt64 {
        switch node {
        case .run(let c, let min, let max):
            // in: bit p set when byte p is in the set; one step moves every position on by one
            let inSet = masks[c]
            var current = reach
            if max == .max {
                // `min` steps, then every position the run can go on to, at once: adding a
                // position's bit to a stretch of set bits carries to the stretch's end, so
                // `(t + inSet) ^ inSet` has the bits from each reached position to the end of
                // its stretch, one past it included (no bit reaches bit 64: n < 64).
                var k = 0
                while k < min {
                    current = (current & inSet) << 1
                    if current == 0 { return 0 }
                    k += 1
                }
                return current | (((current & inSet) &+ inSet) ^ inSet)
            }
            var result: UInt64 = min == 0 ? reach : 0
            var k = 0
            while k < max {
                current = (current & inSet) << 1
                k += 1
                if current == 0 { break }
                if k >= min { result |= current }
            }
            return result
        case .group(let alternatives, let min, let max):
            var current = reach
            var result: UInt64 = min == 0 ? reach : 0
            var seen = result
            var round = 0
            while round < max {
                round += 1
                var next: UInt64 = 0
                for alt in alternatives { next |= apply(alt, to: current, masks) }
                if next == 0 { break }
                // A round that changes nothing: every later one gives the same (`(a?){9999}`).
                if round < min && next == current { result |= next; break }
                if round >= min {
                    if next & ~seen == 0 { break }
                    seen |= next
                    result |= next
                }
                current = next
            }
            return result
        }
    }

    // MARK: parsing

    /// Line terminators that end a line for `$` and that `.` does not match (ASCII ones).
    static let lineTerminators: [UInt8] = [10, 11, 12, 13]

    /// Recursive descent over the pattern's bytes (without its anchors).
    struct Parser {
        let p: [UInt8]
        var i = 0
        /// The distinct sets of the runs read so far (`Node.run`'s class).
        var classes: [Element] = []

        init(p: [UInt8]) { self.p = p }

        mutating func classIndex(_ e: Element) -> Int {
            if let k = classes.firstIndex(where: { $0.lo == e.lo && $0.hi == e.hi }) { return k }
            classes.append(e)
            return classes.count - 1
        }

        /// A sequence up to the end, `)` or `|`. Top-level `|` is ICU's (it splits the anchors).
        mutating func sequence(depth: Int) -> [Node]? {
            var nodes: [Node] = []
            while i < p.count {
                let c = p[i]
                if c == UInt8(ascii: ")") || c == UInt8(ascii: "|") {
                    return depth > 0 ? nodes : nil
                }
                var node: Node
                if c == UInt8(ascii: "(") {
                    guard depth < 8 else { return nil }
                    i += 1
                    if i < p.count, p[i] == UInt8(ascii: "?") {
                        // only `(?:`; look-around, flags and named groups are ICU's
                        guard i + 1 < p.count, p[i + 1] == UInt8(ascii: ":") else { return nil }
                        i += 2
                    }
                    var alternatives: [[Node]] = []
                    while true {
                        guard let alt = sequence(depth: depth + 1) else { return nil }
                        alternatives.append(alt)
                        guard i < p.count else { return nil }  // unclosed
                        if p[i] == UInt8(ascii: "|") { i += 1; continue }
                        i += 1  // `)`
                        break
                    }
                    node = .group(alternatives, min: 1, max: 1)
                } else {
                    var set = SetBuilder()
                    switch c {
                    case UInt8(ascii: "["):
                        guard let next = SimplePattern.parseClass(p, from: i + 1, end: p.count, into: &set) else { return nil }
                        i = next
                    case UInt8(ascii: "."):
                        set.addAll()
                        for t in SimplePattern.lineTerminators { set.remove(t) }
                        i += 1
                    case UInt8(ascii: "\\"):
                        guard i + 1 < p.count, SimplePattern.addEscape(p[i + 1], to: &set) else { return nil }
                        i += 2
                    default:
                        guard SimplePattern.isPlainLiteral(c) else { return nil }
                        set.add(c)
                        i += 1
                    }
                    node = .run(class: classIndex(set.element()), min: 1, max: 1)
                }
                guard let (min, max) = quantifier() else { return nil }
                switch node {
                case .run(let e, _, _): node = .run(class: e, min: min, max: max)
                case .group(let a, _, _):
                    // A repeated group that repeats inside (`(a+)+`, `(.*a){12}`) is the shape
                    // whose backtracking explodes; it stays with ICU and its step budget, so that
                    // such a pattern fails `format` the same way on every platform and path.
                    if max > 1 && a.contains(where: { $0.contains(where: { $0.repeats }) }) { return nil }
                    node = .group(a, min: min, max: max)
                }
                nodes.append(node)
            }
            return nodes
        }

        /// The quantifier at `i` ((1, 1) when there is none); nil for forms outside the subset.
        mutating func quantifier() -> (Int, Int)? {
            guard i < p.count else { return (1, 1) }
            var bounds: (Int, Int)
            switch p[i] {
            case UInt8(ascii: "?"): bounds = (0, 1); i += 1
            case UInt8(ascii: "*"): bounds = (0, .max); i += 1
            case UInt8(ascii: "+"): bounds = (1, .max); i += 1
            case UInt8(ascii: "{"):
                var j = i + 1
                guard let low = number(&j) else { return nil }
                var high = low
                if j < p.count, p[j] == UInt8(ascii: ",") {
                    j += 1
                    if j < p.count, p[j] == UInt8(ascii: "}") { high = .max } else {
                        guard let h = number(&j), h >= low else { return nil }
                        high = h
                    }
                }
                guard j < p.count, p[j] == UInt8(ascii: "}") else { return nil }
                bounds = (low, high)
                i = j + 1
            default: return (1, 1)
            }
            // Lazy (`+?`), possessive (`++`) and stacked quantifiers are ICU's to read.
            if i < p.count, "?+*{".utf8.contains(p[i]) { return nil }
            return bounds
        }

        private func number(_ j: inout Int) -> Int? {
            var value = 0
            let start = j
            while j < p.count, (48...57).contains(p[j]), j - start < 4 {
                value = value * 10 + Int(p[j] - 48)
                j += 1
            }
            return j > start && (j >= p.count || !(48...57).contains(p[j])) ? value : nil
        }
    }

    /// Characters that stand for themselves outside a class.
    static func isPlainLiteral(_ c: UInt8) -> Bool {
        guard c >= 32, c < 127 else { return false }
        return !"()|*+?{}[]^$.\\#".utf8.contains(c)
    }

    /// `\d`, `\w`, or an escaped punctuation character.
    static func addEscape(_ c: UInt8, to set: inout SetBuilder) -> Bool {
        switch c {
        case UInt8(ascii: "d"): set.add(48...57)
        case UInt8(ascii: "w"):
            set.add(48...57); set.add(65...90); set.add(97...122); set.add(UInt8(ascii: "_"))
        default:
            // Escaped punctuation is that character; letters and digits are other escapes.
            guard c >= 33, c < 127, !isLetterOrDigit(c) else { return false }
            set.add(c)
        }
        return true
    }

    /// A bracket class from after `[` to its `]`; the index after `]`, or nil outside the subset.
    static func parseClass(_ p: [UInt8], from start: Int, end: Int, into set: inout SetBuilder) -> Int? {
        var i = start
        guard i < end, p[i] != UInt8(ascii: "^"), p[i] != UInt8(ascii: "]") else { return nil }  // negated or empty
        var previous: UInt8?  // the last single character, for a range
        while i < end {
            let c = p[i]
            if c == UInt8(ascii: "]") { return previous == nil && i == start ? nil : i + 1 }
            if Self.unsafeInClass(c) { return nil }  // nested sets, intersections, strings, controls
            if c == UInt8(ascii: "-"), let low = previous, i + 1 < end, p[i + 1] != UInt8(ascii: "]") {
                var high = p[i + 1]
                var step = 2
                if high == UInt8(ascii: "\\") {
                    guard i + 2 < end else { return nil }
                    high = p[i + 2]
                    guard !isLetterOrDigit(high), high >= 33, high < 127 else { return nil }
                    step = 3
                } else if unsafeInClass(high) || high == UInt8(ascii: "-") {
                    return nil
                }
                guard low <= high else { return nil }
                set.add(low...high)
                previous = nil
                i += step
                continue
            }
            if c == UInt8(ascii: "\\") {
                guard i + 1 < end else { return nil }
                let e = p[i + 1]
                if e == UInt8(ascii: "d") || e == UInt8(ascii: "w") {
                    _ = addEscape(e, to: &set)
                    previous = nil
                } else {
                    guard !isLetterOrDigit(e), e >= 33, e < 127 else { return nil }
                    set.add(e)
                    previous = e
                }
                i += 2
                continue
            }
            // `-` first or last is itself (a `-` right after a range is ICU's to read); anything
            // else printable is itself
            if c == UInt8(ascii: "-"), i != start, i + 1 < end, p[i + 1] != UInt8(ascii: "]") { return nil }
            set.add(c)
            previous = c
            i += 1
        }
        return nil  // no closing `]` before the final `$`
    }

    /// Characters whose meaning inside an ICU set is more than themselves (or that differ with
    /// options): left to ICU. A space is itself (formd's patterns are not free-spacing), as in
    /// phone number classes such as `[0-9 ]`.
    private static func unsafeInClass(_ c: UInt8) -> Bool {
        c < 32 || c >= 127 || "[&${}^:".utf8.contains(c)
    }

    private static func isLetterOrDigit(_ c: UInt8) -> Bool {
        (48...57).contains(c) || (65...90).contains(c) || (97...122).contains(c)
    }

    /// Builds an element's byte set, closed under ASCII case (the patterns are case-insensitive).
    struct SetBuilder {
        var bits = [Bool](repeating: false, count: 128)
        mutating func add(_ c: UInt8) { bits[Int(c)] = true }
        mutating func add(_ r: ClosedRange<UInt8>) { for c in r { bits[Int(c)] = true } }
        mutating func addAll() { for i in 0..<128 { bits[i] = true } }
        mutating func remove(_ c: UInt8) { bits[Int(c)] = false }

        func element() -> Element {
            var e = Element()
            for c in 0..<128 {
                var on = bits[c]
                if (65...90).contains(c) { on = on || bits[c + 32] }
                if (97...122).contains(c) { on = on || bits[c - 32] }
                guard on else { continue }
                if c < 64 { e.lo |= 1 << UInt64(c) } else { e.hi |= 1 << UInt64(c - 64) }
            }
            return e
        }
    }
}
