/// A `format` pattern compiled for the linear matcher (`RegexProgram+Match.swift`): ICU's regex
/// dialect as docs/REGEX.md documents it, parsed and compiled once, when the form loads, into a
/// Thompson NFA whose simulation costs at most (text length + 1) × program size steps, whatever
/// the pattern and the text. Pure Swift, no Foundation and no ICU: it builds as Embedded Swift.
///
/// `validations.format` only asks *whether* the pattern matches somewhere, so the program has no
/// captures and no priorities: lazy quantifiers are greedy ones, groups are only grouping.
/// What cannot be matched in linear time (back-references, look-around, atomic groups,
/// possessive quantifiers) and what this parser does not read (see `RegexProgramError.unsupported`)
/// is **server-only**: ICU matches it on the server, with its budget.
struct RegexProgram: Sendable {
    /// Most instructions a pattern may compile to (bounded repetitions are expanded): the
    /// matcher's cost per character of text is at most this many steps.
    static let maxInstructions = 10_000

    enum Assertion: UInt8, Sendable {
        /// `^`, `\A`: the start of the text.
        case start
        /// `$`, `\Z`: the end, or before one final line terminator.
        case end
        /// `\z`: the end.
        case absoluteEnd
        /// `\b`, `\B`.
        case wordBoundary, notWordBoundary
    }

    enum Instruction: Sendable {
        /// One scalar, exactly (case-sensitive literals).
        case char(UInt32)
        /// One scalar of a case-folded literal string (case-insensitive literals, as ICU matches
        /// them: the text's full case folding must equal the string's); `run` counts this element
        /// and the ones after it in the same string, as a text scalar may fold to several (`ß`).
        case fold(UInt32, run: Int32)
        /// A character class: `classes[index]`.
        case set(Int32)
        /// `.`: anything but a line terminator.
        case any
        case split(Int32, Int32)
        case jump(Int32)
        case assert(Assertion)
        case match
    }

    let instructions: [Instruction]
    let classes: [RegexClass]
    /// Each class's answers for ASCII scalars (bits 0–63, 64–127): the matcher's fast path.
    let asciiTables: [(UInt64, UInt64)]
    /// The pattern can only match at the start of the text (it begins with `^` or `\A`).
    let anchoredStart: Bool
    /// The program has `\b` or `\B` (the matcher then tracks word characters).
    let usesWordBoundary: Bool

    /// Parses and compiles `pattern` (Unicode scalars of the pattern as written).
    init(_ pattern: String, caseInsensitive: Bool = true) throws(RegexProgramError) {
        var scalars: [UInt32] = []
        for s in pattern.unicodeScalars { scalars.append(s.value) }
        guard !scalars.isEmpty else { throw .invalid("empty pattern", offset: 0) }
        var parser = RegexParser(s: scalars, caseInsensitive: caseInsensitive)
        let tree = try parser.parseWhole()
        var compiler = RegexCompiler(classes: parser.classes)
        try compiler.emit(tree)
        compiler.append(.match)
        instructions = compiler.program
        classes = compiler.classes
        asciiTables = compiler.classes.map { ($0.asciiLow, $0.asciiHigh) }
        anchoredStart = RegexProgram.beginsAnchored(tree)
        usesWordBoundary = compiler.program.contains { instruction in
            if case .assert(let a) = instruction { return a == .wordBoundary || a == .notWordBoundary }
            return false
        }
    }

    private static func beginsAnchored(_ node: RegexNode) -> Bool {
        switch node {
        case .assert(.start): return true
        case .concat(let items): return items.first.map(beginsAnchored) ?? false
        case .alt(let items): return !items.isEmpty && items.allSatisfy(beginsAnchored)
        default: return false
        }
    }
}

/// Why a pattern is not compiled by `RegexProgram`. Offsets count Unicode scalars, as ICU's do.
enum RegexProgramError: Error, Sendable, Equatable {
    /// Valid ICU (or left for ICU to judge) but outside the linear dialect: the server matches it.
    case unsupported(String, offset: Int)
    /// Not a pattern (ICU refuses it too).
    case invalid(String, offset: Int)
    /// Its bounded repetitions expand past `RegexProgram.maxInstructions`: refused at load.
    case tooLarge(String, offset: Int)
}

/// A bracket class, a class escape (`\d`, `\w`, `\s` and their negations) or `\p{…}`.
struct RegexClass: Sendable {
    enum Item: Sendable {
        case word(negated: Bool), digit(negated: Bool), space(negated: Bool)
        case category(RegexUnicode.Category, negated: Bool)

        func contains(_ c: UInt32) -> Bool {
            switch self {
            case .word(let n): return RegexUnicode.isWord(c) != n
            case .digit(let n): return RegexUnicode.isDigit(c) != n
            case .space(let n): return RegexUnicode.isSpace(c) != n
            case .category(let cat, let n): return cat.contains(c) != n
            }
        }
    }

    /// Single scalars and ranges, as (low, high) pairs.
    var ranges: [(UInt32, UInt32)] = []
    var items: [Item] = []
    var negated = false
    /// ICU closes bracket classes and `\p{…}` over case when matching case-insensitively (before
    /// negating them); the class escapes `\w`, `\d`, `\s` are not closed.
    var caseClosed = false
    /// With `caseClosed`: the simple folds of the members whose fold is not themselves (sorted).
    private(set) var folds: [UInt32] = []
    /// The answer for each ASCII scalar, computed once.
    private(set) var asciiLow: UInt64 = 0
    private(set) var asciiHigh: UInt64 = 0

    func containsRaw(_ c: UInt32) -> Bool {
        for (lo, hi) in ranges where c >= lo && c <= hi { return true }
        for item in items where item.contains(c) { return true }
        return false
    }

    /// Fills in the case closure and the ASCII table; call once the members are known.
    mutating func finish() {
        if caseClosed {
            var folds: [UInt32] = []
            for entry in RegexUnicode.foldedScalars where containsRaw(entry.scalar) { folds.append(entry.fold) }
            folds.sort()
            self.folds = folds
        }
        asciiLow = 0
        asciiHigh = 0
        var c: UInt32 = 0
        while c < 128 {
            if slowMatches(c) {
                if c < 64 { asciiLow |= 1 << UInt64(c) } else { asciiHigh |= 1 << UInt64(c - 64) }
            }
            c += 1
        }
    }

    @inline(__always)
    func matches(_ c: UInt32) -> Bool {
        if c < 64 { return (asciiLow >> UInt64(c)) & 1 != 0 }
        if c < 128 { return (asciiHigh >> UInt64(c - 64)) & 1 != 0 }
        return slowMatches(c)
    }

    private func slowMatches(_ c: UInt32) -> Bool {
        var hit = containsRaw(c)
        if !hit && caseClosed {
            // Some member has the same simple fold as `c`.
            let f = RegexUnicode.simpleFold(c)
            hit = (f != c && containsRaw(f)) || Self.sortedContains(folds, f)
        }
        return hit != negated
    }

    private static func sortedContains(_ a: [UInt32], _ x: UInt32) -> Bool {
        var lo = 0
        var hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo < a.count && a[lo] == x
    }
}

indirect enum RegexNode: Sendable {
    case empty
    /// A run of literal scalars, matched exactly or by full case folding.
    case literal([UInt32], caseInsensitive: Bool)
    case set(Int)
    case any
    case assert(RegexProgram.Assertion)
    case concat([RegexNode])
    case alt([RegexNode])
    /// `max` < 0: unbounded.
    case repetition(RegexNode, min: Int, max: Int, offset: Int)
}

/// Recursive descent over the pattern's scalars.
struct RegexParser {
    let s: [UInt32]
    var i = 0
    var caseInsensitive: Bool
    var classes: [RegexClass] = []
    var depth = 0

    init(s: [UInt32], caseInsensitive: Bool) {
        self.s = s
        self.caseInsensitive = caseInsensitive
    }

    private static let backslash: UInt32 = 0x5C

    private func peek(_ k: Int = 0) -> UInt32? { i + k < s.count ? s[i + k] : nil }

    mutating func parseWhole() throws(RegexProgramError) -> RegexNode {
        let node = try parseAlternation()
        if i < s.count { throw .invalid("unbalanced parenthesis", offset: i) }  // a `)` too many
        return node
    }

    /// Alternatives up to the end or a `)`.
    mutating func parseAlternation() throws(RegexProgramError) -> RegexNode {
        var alternatives: [RegexNode] = [try parseSequence()]
        while peek() == 0x7C {  // |
            i += 1
            alternatives.append(try parseSequence())
        }
        return alternatives.count == 1 ? alternatives[0] : .alt(alternatives)
    }

    private static func isQuantifierStart(_ c: UInt32?) -> Bool {
        c == 0x2A || c == 0x2B || c == 0x3F || c == 0x7B  // * + ? {
    }

    mutating func parseSequence() throws(RegexProgramError) -> RegexNode {
        var items: [RegexNode] = []
        var run: [UInt32] = []
        var runCase = caseInsensitive
        func flush(_ items: inout [RegexNode], _ run: inout [UInt32], _ runCase: Bool) {
            if !run.isEmpty { items.append(.literal(run, caseInsensitive: runCase)); run = [] }
        }
        while let c = peek(), c != 0x7C, c != 0x29 {  // | )
            let start = i
            // A literal scalar joins the current run unless a quantifier follows it (ICU splits
            // the last character off a string so that the quantifier applies to it alone).
            var literal: UInt32?
            var atom: RegexNode?
            switch c {
            case 0x28:  // (
                flush(&items, &run, runCase)
                guard let group = try parseGroup() else { continue }  // a flag setting
                atom = group
            case 0x5B:  // [
                flush(&items, &run, runCase)
                atom = .set(try parseClass())
            case 0x2E:  // .
                i += 1
                atom = .any
            case 0x5E:  // ^
                i += 1
                atom = .assert(.start)
            case 0x24:  // $
                i += 1
                atom = .assert(.end)
            case 0x2A, 0x2B, 0x3F, 0x7B:  // * + ? {
                throw .invalid("nothing to repeat", offset: i)
            case 0x7D:  // }
                throw .invalid("unexpected }", offset: i)
            case RegexParser.backslash:
                if peek(1) == 0x51 {  // \Q … \E: literal text
                    i += 2
                    if runCase != caseInsensitive { flush(&items, &run, runCase); runCase = caseInsensitive }
                    while i < s.count {
                        if s[i] == RegexParser.backslash, peek(1) == 0x45 { i += 2; break }
                        run.append(s[i])
                        i += 1
                    }
                    if RegexParser.isQuantifierStart(peek()) { throw .unsupported("quantifier after \\Q…\\E", offset: i) }
                    continue
                }
                switch try parseEscape() {
                case .literal(let v): literal = v
                case .node(let n): atom = n
                }
            default:
                i += 1
                literal = c
            }
            if let literal {
                if RegexParser.isQuantifierStart(peek()) {
                    flush(&items, &run, runCase)
                    atom = .literal([literal], caseInsensitive: caseInsensitive)
                } else {
                    if runCase != caseInsensitive { flush(&items, &run, runCase); runCase = caseInsensitive }
                    run.append(literal)
                    continue
                }
            }
            guard var node = atom else { continue }
            flush(&items, &run, runCase)
            if RegexParser.isQuantifierStart(peek()) {
                // ICU repeats `^` and `$` (to no effect) but refuses to repeat `\b`, `\B`, ...
                if case .assert = node, s[start] == RegexParser.backslash { throw .invalid("nothing to repeat", offset: i) }
                node = try parseQuantifier(node, atomOffset: start)
            }
            items.append(node)
        }
        flush(&items, &run, runCase)
        if items.isEmpty { return .empty }
        return items.count == 1 ? items[0] : .concat(items)
    }

    /// The quantifier at `i` applied to `node`.
    mutating func parseQuantifier(_ node: RegexNode, atomOffset: Int) throws(RegexProgramError) -> RegexNode {
        let at = i
        var min = 0
        var max = -1
        switch s[i] {
        case 0x2A: i += 1
        case 0x2B: min = 1; i += 1
        case 0x3F: max = 1; i += 1
        default:  // {
            i += 1
            guard let low = number() else { throw .invalid("invalid {min,max} repetition", offset: i) }
            min = low
            max = low
            if peek() == 0x2C {  // ,
                i += 1
                if peek() == 0x7D { max = -1 } else {
                    guard let high = number() else { throw .invalid("invalid {min,max} repetition", offset: i) }
                    guard high >= low else { throw .invalid("in {min,max}, max is less than min", offset: i) }
                    max = high
                }
            }
            guard peek() == 0x7D else { throw .invalid("invalid {min,max} repetition", offset: i) }
            i += 1
        }
        if peek() == 0x3F {
            i += 1  // lazy: the same answer to "is there a match"
        } else if peek() == 0x2B {
            throw .unsupported("possessive quantifier", offset: i)
        }
        if RegexParser.isQuantifierStart(peek()) { throw .invalid("nothing to repeat", offset: i) }
        _ = at
        return .repetition(node, min: min, max: max, offset: atomOffset)
    }

    private mutating func number() -> Int? {
        var value = 0
        let start = i
        while let c = peek(), c >= 0x30, c <= 0x39 {
            if value > 100_000_000 { return nil }
            value = value * 10 + Int(c - 0x30)
            i += 1
        }
        return i > start ? value : nil
    }

    /// A group from its `(`; nil for a flag setting such as `(?i)`, which changes the flags of the
    /// rest of the enclosing group.
    mutating func parseGroup() throws(RegexProgramError) -> RegexNode? {
        let open = i
        i += 1
        var flags = caseInsensitive
        if peek() == 0x3F {  // ?
            i += 1
            guard let c = peek() else { throw .invalid("unbalanced parenthesis", offset: open) }
            switch c {
            case 0x3A: i += 1  // (?:
            case 0x3C:  // (?<
                if peek(1) == 0x3D || peek(1) == 0x21 { throw .unsupported("look-behind", offset: open) }
                i += 1
                var n = 0
                while let d = peek(), (d >= 0x30 && d <= 0x39) || (d >= 0x41 && d <= 0x5A) || (d >= 0x61 && d <= 0x7A) {
                    if n == 0 && d <= 0x39 { break }
                    i += 1
                    n += 1
                }
                guard n > 0, peek() == 0x3E else { throw .unsupported("group name", offset: open) }
                i += 1
            case 0x3D, 0x21: throw .unsupported("look-ahead", offset: open)
            case 0x3E: throw .unsupported("atomic group", offset: open)
            case 0x23: throw .unsupported("comment group", offset: open)
            default:
                // Mode flags: only `i` is read here (`(?i)`, `(?-i)`, `(?i:…)`, `(?-i:…)`).
                var on = true
                var seenMinus = false
                while let f = peek(), f != 0x29, f != 0x3A {
                    if f == 0x2D, !seenMinus { seenMinus = true; on = false; i += 1; continue }
                    guard f == 0x69 else { throw .unsupported("mode flag other than i", offset: i) }
                    flags = on
                    i += 1
                }
                guard let end = peek() else { throw .invalid("unbalanced parenthesis", offset: open) }
                i += 1
                if end == 0x29 {  // (?i): the rest of the enclosing group
                    caseInsensitive = flags
                    return nil
                }
            }
        }
        depth += 1
        guard depth <= 200 else { throw .unsupported("groups nested too deep", offset: open) }
        let saved = caseInsensitive
        caseInsensitive = flags
        let body = try parseAlternation()
        caseInsensitive = saved
        depth -= 1
        guard peek() == 0x29 else { throw .invalid("unbalanced parenthesis", offset: open) }
        i += 1
        return body
    }

    enum Escape { case literal(UInt32), node(RegexNode) }

    /// A backslash escape outside a class, from its `\`.
    mutating func parseEscape() throws(RegexProgramError) -> Escape {
        let at = i
        guard let c = peek(1) else { throw .invalid("trailing backslash", offset: at) }
        i += 2
        switch c {
        case 0x64: return .node(.set(addClass(item: .digit(negated: false))))  // \d
        case 0x44: return .node(.set(addClass(item: .digit(negated: true))))   // \D
        case 0x77: return .node(.set(addClass(item: .word(negated: false))))   // \w
        case 0x57: return .node(.set(addClass(item: .word(negated: true))))    // \W
        case 0x73: return .node(.set(addClass(item: .space(negated: false))))  // \s
        case 0x53: return .node(.set(addClass(item: .space(negated: true))))   // \S
        case 0x62: return .node(.assert(.wordBoundary))     // \b
        case 0x42: return .node(.assert(.notWordBoundary))  // \B
        case 0x41: return .node(.assert(.start))            // \A
        case 0x5A: return .node(.assert(.end))              // \Z
        case 0x7A: return .node(.assert(.absoluteEnd))      // \z
        case 0x70, 0x50:  // \p{…} \P{…}
            i = at
            var cls = RegexClass()
            // ICU closes the property over case first and negates (`\P`) after, as for `[^…]`.
            let (category, negated) = try parseProperty()
            cls.items.append(.category(category, negated: false))
            cls.negated = negated
            cls.caseClosed = caseInsensitive
            cls.finish()
            classes.append(cls)
            return .node(.set(classes.count - 1))
        default:
            i = at
            return .literal(try parseLiteralEscape())
        }
    }

    private mutating func addClass(item: RegexClass.Item) -> Int {
        var cls = RegexClass()
        cls.items.append(item)
        cls.finish()
        classes.append(cls)
        return classes.count - 1
    }

    /// `\p{name}`, `\P{name}`, `\pL` from the backslash: general categories only.
    mutating func parseProperty() throws(RegexProgramError) -> (RegexUnicode.Category, negated: Bool) {
        let at = i
        let negated = s[i + 1] == 0x50
        i += 2
        var name: [UInt32] = []
        if peek() == 0x7B {
            i += 1
            while let c = peek(), c != 0x7D { name.append(c); i += 1 }
            guard peek() == 0x7D else { throw .invalid("invalid Unicode property", offset: at) }
            i += 1
        } else if let c = peek() {
            name.append(c)
            i += 1
        }
        guard let category = RegexUnicode.Category(name: name) else {
            throw .unsupported("Unicode property other than a general category", offset: at)
        }
        return (category, negated)
    }

    /// An escape that stands for one scalar (`\n`, `\x41`, `\u00e9`, `\.`), from its backslash.
    mutating func parseLiteralEscape() throws(RegexProgramError) -> UInt32 {
        let at = i
        guard let c = peek(1) else { throw .invalid("trailing backslash", offset: at) }
        i += 2
        switch c {
        case 0x61: return 0x07  // \a
        case 0x65: return 0x1B  // \e
        case 0x66: return 0x0C  // \f
        case 0x6E: return 0x0A  // \n
        case 0x72: return 0x0D  // \r
        case 0x74: return 0x09  // \t
        case 0x78:  // \xhh, \x{h…}
            if peek() == 0x7B {
                i += 1
                guard let v = hex(maxDigits: 6, exact: false), peek() == 0x7D, v <= 0x10FFFF,
                      !(v >= 0xD800 && v <= 0xDFFF)
                else { throw .unsupported("\\x{…} escape", offset: at) }
                i += 1
                return v
            }
            guard let v = hex(maxDigits: 2, exact: true) else { throw .unsupported("\\x escape", offset: at) }
            return v
        case 0x75:  // \uhhhh
            guard let v = hex(maxDigits: 4, exact: true), !(v >= 0xD800 && v <= 0xDFFF) else {
                throw .unsupported("\\u escape", offset: at)
            }
            return v
        case 0x55:  // \Uhhhhhhhh
            guard let v = hex(maxDigits: 8, exact: true), v <= 0x10FFFF, !(v >= 0xD800 && v <= 0xDFFF) else {
                throw .unsupported("\\U escape", offset: at)
            }
            return v
        case 0x30:  // \0ooo
            var v: UInt32 = 0
            var n = 0
            while n < 3, let d = peek(), d >= 0x30, d <= 0x37 {
                v = v * 8 + (d - 0x30)
                i += 1
                n += 1
            }
            guard n > 0 else { throw .unsupported("\\0 escape", offset: at) }
            return v
        default:
            let isDigit = c >= 0x31 && c <= 0x39
            let isLetter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            if isDigit { throw .unsupported("back-reference", offset: at) }
            if c == 0x6B { throw .unsupported("back-reference", offset: at) }
            if isLetter { throw .unsupported("escape \\" + String(decoding: [UInt8(c)], as: UTF8.self), offset: at) }
            return c  // escaped punctuation, space or non-ASCII: itself
        }
    }

    private mutating func hex(maxDigits: Int, exact: Bool) -> UInt32? {
        var v: UInt32 = 0
        var n = 0
        while n < maxDigits, let d = peek() {
            let digit: UInt32
            switch d {
            case 0x30...0x39: digit = d - 0x30
            case 0x41...0x46: digit = d - 0x41 + 10
            case 0x61...0x66: digit = d - 0x61 + 10
            default: return exact || n == 0 ? nil : v
            }
            v = v * 16 + digit
            i += 1
            n += 1
        }
        if exact && n != maxDigits { return nil }
        return n > 0 ? v : nil
    }

    /// A bracket class from its `[`; returns its index in `classes`. Nested classes, `&&`, `--`,
    /// POSIX names and other rarities of ICU's set syntax are left to ICU.
    mutating func parseClass() throws(RegexProgramError) -> Int {
        let open = i
        i += 1
        var cls = RegexClass()
        if peek() == 0x5E { cls.negated = true; i += 1 }
        let first = i
        var previous: UInt32?  // the last single scalar, a range's possible start
        while true {
            guard let c = peek() else { throw .invalid("missing closing bracket", offset: s.count) }
            if c == 0x5D {  // ]
                if i == first {
                    // ICU reads a first `]` as a character of the class; with no `]` after it the
                    // class never closes, which ICU refuses (`[]`, `[^]`).
                    if !s[(i + 1)...].contains(0x5D) { throw .invalid("missing closing bracket", offset: s.count) }
                    throw .unsupported("] first in a class", offset: i)
                }
                i += 1
                break
            }
            switch c {
            case 0x5B: throw .unsupported("nested class or POSIX name", offset: i)
            case 0x7B, 0x7D: throw .unsupported("brace in a class", offset: i)
            case 0x26 where peek(1) == 0x26: throw .unsupported("class intersection", offset: i)
            case 0x2D:  // -
                if peek(1) == 0x2D { throw .unsupported("class difference", offset: i) }
                if i == first || peek(1) == 0x5D {
                    cls.ranges.append((c, c))
                    previous = nil
                    i += 1
                    continue
                }
                guard let low = previous else { throw .unsupported("- after a range or class", offset: i) }
                i += 1
                guard let hc = peek() else { throw .invalid("invalid character range", offset: i) }  // `[a-`: ICU refuses it
                guard hc != 0x5B, hc != 0x5D else { throw .unsupported("range end", offset: i) }
                var high: UInt32
                if hc == RegexParser.backslash {
                    if let n = peek(1), [0x64, 0x44, 0x77, 0x57, 0x73, 0x53, 0x70, 0x50, 0x51].contains(n) {
                        throw .unsupported("class escape as a range end", offset: i)
                    }
                    high = try parseLiteralEscape()
                } else {
                    if hc == 0x2D || hc == 0x26 || hc == 0x7B || hc == 0x7D { throw .unsupported("range end", offset: i) }
                    high = hc
                    i += 1
                }
                guard low <= high else { throw .invalid("invalid character range", offset: i - 1) }
                cls.ranges.removeLast()
                cls.ranges.append((low, high))
                previous = nil
                continue
            case RegexParser.backslash:
                let n = peek(1)
                switch n {
                case 0x64: cls.items.append(.digit(negated: false)); i += 2; previous = nil; continue
                case 0x44: cls.items.append(.digit(negated: true)); i += 2; previous = nil; continue
                case 0x77: cls.items.append(.word(negated: false)); i += 2; previous = nil; continue
                case 0x57: cls.items.append(.word(negated: true)); i += 2; previous = nil; continue
                case 0x73: cls.items.append(.space(negated: false)); i += 2; previous = nil; continue
                case 0x53: cls.items.append(.space(negated: true)); i += 2; previous = nil; continue
                case 0x70, 0x50:
                    let (category, negated) = try parseProperty()
                    cls.items.append(.category(category, negated: negated))
                    previous = nil
                    continue
                case 0x62, 0x42, 0x41, 0x5A, 0x7A, 0x51, 0x45:
                    throw .unsupported("escape in a class", offset: i)
                default:
                    let v = try parseLiteralEscape()
                    cls.ranges.append((v, v))
                    previous = v
                    continue
                }
            default:
                cls.ranges.append((c, c))
                previous = c
                i += 1
            }
        }
        _ = open
        cls.caseClosed = caseInsensitive
        cls.finish()
        classes.append(cls)
        return classes.count - 1
    }
}

/// Thompson's construction, with bounded repetitions expanded.
struct RegexCompiler {
    var program: [RegexProgram.Instruction] = []
    var classes: [RegexClass]

    init(classes: [RegexClass]) { self.classes = classes }

    mutating func append(_ i: RegexProgram.Instruction) { program.append(i) }

    private var pc: Int32 { Int32(program.count) }

    /// Instructions `node` compiles to (an upper bound; saturates).
    static func size(_ node: RegexNode) -> Int {
        switch node {
        case .empty: return 0
        case .literal(let scalars, let ci): return ci ? scalars.count * 3 : scalars.count
        case .set, .any, .assert: return 1
        case .concat(let items):
            var total = 0
            for item in items { total = min(total + size(item), Int.max / 4) }
            return total
        case .alt(let items):
            var total = 0
            for item in items { total = min(total + size(item) + 2, Int.max / 4) }
            return total
        case .repetition(let body, let lo, let hi, _):
            let copies = hi < 0 ? lo + 1 : hi
            let (product, overflow) = (size(body) + 2).multipliedReportingOverflow(by: Swift.max(copies, 1))
            return overflow ? Int.max / 4 : product
        }
    }

    mutating func emit(_ node: RegexNode) throws(RegexProgramError) {
        switch node {
        case .empty: break
        case .literal(let scalars, let ci):
            if !ci {
                for c in scalars { append(.char(c)) }
            } else {
                var folded: [UInt32] = []
                for c in scalars { RegexUnicode.fullFold(c, into: &folded) }
                for (k, f) in folded.enumerated() { append(.fold(f, run: Int32(folded.count - k))) }
            }
        case .set(let index): append(.set(Int32(index)))
        case .any: append(.any)
        case .assert(let a): append(.assert(a))
        case .concat(let items):
            for item in items { try emit(item) }
        case .alt(let items):
            var jumps: [Int] = []
            for (k, item) in items.enumerated() {
                if k < items.count - 1 {
                    let split = program.count
                    append(.split(0, 0))
                    try emit(item)
                    jumps.append(program.count)
                    append(.jump(0))
                    program[split] = .split(Int32(split + 1), pc)
                } else {
                    try emit(item)
                }
            }
            for j in jumps { program[j] = .jump(pc) }
        case .repetition(let body, let lo, let hi, let offset):
            if RegexCompiler.size(node) + program.count > RegexProgram.maxInstructions {
                throw .tooLarge(
                    "pattern too large: its repetitions expand to more than \(RegexProgram.maxInstructions) instructions",
                    offset: offset)
            }
            for _ in 0..<lo { try emit(body) }
            if hi < 0 {
                // L: split body, out; body; jump L
                let loop = program.count
                append(.split(0, 0))
                try emit(body)
                append(.jump(Int32(loop)))
                program[loop] = .split(Int32(loop + 1), pc)
            } else if hi > lo {
                // (body (body (…)?)?)?
                var splits: [Int] = []
                for _ in lo..<hi {
                    splits.append(program.count)
                    append(.split(0, 0))
                    try emit(body)
                }
                for sp in splits { program[sp] = .split(Int32(sp + 1), pc) }
            }
            if program.count > RegexProgram.maxInstructions {
                throw .tooLarge(
                    "pattern too large: its repetitions expand to more than \(RegexProgram.maxInstructions) instructions",
                    offset: offset)
            }
        }
    }
}
