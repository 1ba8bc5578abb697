/// A `SimplePattern` as a deterministic automaton over ASCII bytes, made once when the pattern
/// is: a check then costs two table look-ups per byte (the byte's group, the next state). The
/// bit masks of `SimplePattern.matchesByMasks` cost some 40 instructions per byte (the byte's
/// classes, then a pass per node of the pattern): the e-mail and phone checks of the employment
/// form took some 1,600 instructions a request that way (callgrind).
///
/// Built from the pattern's nodes by Glushkov's construction (one position per character the
/// pattern can match; `{n,m}` is spelled out as n copies and m - n optional ones, which is the
/// same language), then by subsets. A pattern that spells out to more than `maxPositions`
/// positions, or whose automaton would have more than `maxStates` states, keeps the bit masks,
/// which answer the same (`SimplePatternTests`). Making one takes well under a millisecond even
/// near those limits, less than compiling the pattern for ICU.
struct PatternAutomaton: Sendable {
    /// Per ASCII byte, its group: bytes the pattern cannot tell apart share one (most patterns
    /// have a handful), and the table has a column per group, not per byte.
    let groupOf: [UInt8]
    let groups: Int
    /// `table[state * groups + group]`: the next state, times `groups` (the row it starts at).
    /// State 0 is dead.
    let table: [UInt16]
    /// Per state: the text read so far matches (for an unanchored end, once it has at any point:
    /// those states only lead to themselves).
    let accepting: [Bool]
    /// The state before any byte is 1.
    static let start = 1

    static let maxPositions = 192
    static let maxStates = 256

    /// Whether the text matches, as `SimplePattern.matches(_:)` answers; nil for a non-ASCII byte.
    /// `anchoredEnd`: `$` also matches before one final line terminator (`\r\n` counting as one).
    @inline(__always)
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, anchoredEnd: Bool) -> Bool? {
        let (row, before, beforeThat, seen) = table.withUnsafeBufferPointer { table in
            groupOf.withUnsafeBufferPointer { groupOf -> (Int, Int, Int, UInt8) in
                var seen: UInt8 = 0
                var row = Self.start &* groups
                // The rows one and two bytes before the end, for `$` before a final line terminator.
                var before = 0
                var beforeThat = 0
                for b in bytes {
                    seen |= b
                    beforeThat = before
                    before = row
                    row = Int(table[row &+ Int(groupOf[Int(b & 0x7F)])])
                }
                return (row, before, beforeThat, seen)
            }
        }
        if seen >= 0x80 { return nil }
        if accepting[row / groups] { return true }
        guard anchoredEnd, let last = bytes.last, SimplePattern.lineTerminators.contains(last) else { return false }
        if accepting[before / groups] { return true }
        return bytes.count >= 2 && bytes[bytes.count - 2] == 13 && last == 10 && accepting[beforeThat / groups]
    }

    /// nil when the pattern spells out to too many positions or states.
    init?(_ pattern: SimplePattern) {
        // Glushkov positions: `classOf[p]` for position p >= 1 (0 is the state before any byte).
        var builder = Builder()
        guard let whole = builder.sequence(pattern.nodes) else { return nil }
        let positions = builder.classOf.count  // including 0
        let words = (positions + 63) >> 6
        typealias Bits = [UInt64]
        func bits(_ list: [Int]) -> Bits {
            var b = Bits(repeating: 0, count: words)
            for p in list { b[p >> 6] |= 1 << UInt64(p & 63) }
            return b
        }
        // follow[p]: the positions that may come right after p (after 0: the first ones).
        var follow = [Bits](repeating: Bits(repeating: 0, count: words), count: positions)
        for (p, q) in builder.edges { follow[p][q >> 6] |= 1 << UInt64(q & 63) }
        follow[0] = bits(whole.first)
        // Which positions each ASCII byte can be; bytes that can be the same positions behave
        // alike, so each state's successors are worked out once per such group of bytes.
        var byByte = [Bits](repeating: Bits(repeating: 0, count: words), count: 128)
        for p in 1..<positions {
            let element = pattern.classes[builder.classOf[p]]
            for b in 0..<128 where element.contains(UInt8(b)) { byByte[b][p >> 6] |= 1 << UInt64(p & 63) }
        }
        var groupOf = [UInt8](repeating: 0, count: 128)
        var groups: [Bits] = []
        var groupIndex: [Bits: Int] = [:]
        for b in 0..<128 {
            if let g = groupIndex[byByte[b]] {
                groupOf[b] = UInt8(g)
            } else {
                groupOf[b] = UInt8(groups.count)
                groupIndex[byByte[b]] = groups.count
                groups.append(byByte[b])
            }
        }
        let lastSet = bits(whole.last)
        let initial = bits([0])
        func isAccepting(_ s: Bits) -> Bool {
            if whole.nullable && s[0] & 1 != 0 { return true }
            for w in 0..<words where s[w] & lastSet[w] != 0 { return true }
            return false
        }
        // Subsets, breadth first. An unanchored start can begin a match before any byte: position
        // 0 is in every state. An unanchored end matches once any prefix has: such a state is
        // final, and leads only to itself.
        let empty = Bits(repeating: 0, count: words)
        var index: [Bits: Int] = [empty: 0]  // state 0, dead
        var accepting = [false]
        var table: [UInt16] = Array(repeating: 0, count: groups.count)
        var pending = [initial]
        index[initial] = 1
        accepting.append(isAccepting(initial))
        table.append(contentsOf: repeatElement(0, count: groups.count))
        var k = 0
        while k < pending.count {
            let s = pending[k]
            let from = index[s]!
            k += 1
            if accepting[from] && !pattern.anchoredEnd {
                for g in groups.indices { table[from * groups.count + g] = UInt16(from * groups.count) }
                continue
            }
            var reach = empty
            for p in 0..<positions where s[p >> 6] >> UInt64(p & 63) & 1 != 0 {
                for w in 0..<words { reach[w] |= follow[p][w] }
            }
            var successor = [Int](repeating: 0, count: groups.count)
            for g in groups.indices {
                var next = reach
                for w in 0..<words { next[w] &= groups[g][w] }
                if !pattern.anchoredStart { next[0] |= 1 }
                if let t = index[next] {
                    successor[g] = t
                } else {
                    guard accepting.count < Self.maxStates else { return nil }
                    successor[g] = accepting.count
                    index[next] = accepting.count
                    accepting.append(isAccepting(next))
                    table.append(contentsOf: repeatElement(0, count: groups.count))
                    pending.append(next)
                }
            }
            for g in groups.indices { table[from * groups.count + g] = UInt16(successor[g] * groups.count) }
        }
        self.groupOf = groupOf
        self.groups = groups.count
        self.table = table
        self.accepting = accepting
    }

    /// What Glushkov's construction keeps of a piece of the pattern.
    struct Piece {
        var nullable: Bool
        var first: [Int]
        var last: [Int]
    }

    /// Numbers the positions and records which may follow which.
    struct Builder {
        /// Per position (index 0: the start, no class).
        var classOf: [Int] = [0]
        var edges: [(Int, Int)] = []

        mutating func link(_ from: [Int], _ to: [Int]) {
            for p in from { for q in to { edges.append((p, q)) } }
        }

        /// `a` then `b`.
        mutating func concatenate(_ a: Piece, _ b: Piece) -> Piece {
            link(a.last, b.first)
            return Piece(
                nullable: a.nullable && b.nullable, first: a.nullable ? a.first + b.first : a.first,
                last: b.nullable ? a.last + b.last : b.last)
        }

        mutating func sequence(_ nodes: [SimplePattern.Node]) -> Piece? {
            var piece = Piece(nullable: true, first: [], last: [])
            for node in nodes {
                guard let next = repeated(node) else { return nil }
                piece = concatenate(piece, next)
            }
            return piece
        }

        /// One copy of the node's body (a class, or a group's alternatives), new positions each time.
        mutating func once(_ node: SimplePattern.Node) -> Piece? {
            switch node {
            case .run(let c, _, _):
                guard classOf.count < PatternAutomaton.maxPositions else { return nil }
                classOf.append(c)
                let p = classOf.count - 1
                return Piece(nullable: false, first: [p], last: [p])
            case .group(let alternatives, _, _):
                var piece = Piece(nullable: false, first: [], last: [])
                for alternative in alternatives {
                    guard let a = sequence(alternative) else { return nil }
                    piece.nullable = piece.nullable || a.nullable
                    piece.first += a.first
                    piece.last += a.last
                }
                return piece
            }
        }

        /// The node with its quantifier: `min` copies, then `max - min` optional ones (the same
        /// language as up to that many more), or one repeated any number of times.
        mutating func repeated(_ node: SimplePattern.Node) -> Piece? {
            let min: Int, max: Int
            switch node {
            case .run(_, let a, let b): (min, max) = (a, b)
            case .group(_, let a, let b): (min, max) = (a, b)
            }
            guard min < PatternAutomaton.maxPositions else { return nil }
            var piece = Piece(nullable: true, first: [], last: [])
            for _ in 0..<min {
                guard let copy = once(node) else { return nil }
                piece = concatenate(piece, copy)
            }
            if max == .max {
                guard var copy = once(node) else { return nil }
                link(copy.last, copy.first)
                copy.nullable = true
                piece = concatenate(piece, copy)
            } else {
                guard max - min < PatternAutomaton.maxPositions else { return nil }
                for _ in min..<max {
                    guard var copy = once(node) else { return nil }
                    copy.nullable = true
                    piece = concatenate(piece, copy)
                }
            }
            return piece
        }
    }
}
