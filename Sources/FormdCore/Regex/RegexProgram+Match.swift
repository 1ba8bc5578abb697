// The linear matcher: a Thompson NFA simulation (a Pike VM without captures) over the text's
// UTF-8, one pass, every thread advanced in lock step. Each text position visits each instruction
// at most once, so a check costs at most (scalars + 1) × instructions steps: `(a+)+$` on
// 100,000 `a`s is as cheap as `a+$`. Nothing to budget, nothing to time out.

extension RegexProgram {
    /// Whether the pattern matches somewhere in `text` (unanchored search).
    func matches(_ text: String) -> Bool {
        var steps = 0
        return matches(text, steps: &steps)
    }

    /// The same, adding to `steps` the instruction visits it made (the linearity tests read it).
    func matches(_ text: String, steps: inout Int) -> Bool {
        var text = text
        return text.withUTF8 { bytes in matches(utf8: bytes, steps: &steps) }
    }

    func matches(utf8 bytes: UnsafeBufferPointer<UInt8>, steps: inout Int) -> Bool {
        let count = instructions.count
        // current threads, next threads, visit marks for each, and the closure's stack
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 6 * count + 2) { buffer in
            let base = buffer.baseAddress!
            let current = base
            let next = base + count
            let markCurrent = base + 2 * count
            let markNext = base + 3 * count
            let stack = base + 4 * count
            for k in 0..<(2 * count) { markCurrent[k] = -1 }  // both mark arrays
            return instructions.withUnsafeBufferPointer { program in
                asciiTables.withUnsafeBufferPointer { tables in
                    run(bytes, program: program, tables: tables, current: current, next: next,
                        markCurrent: markCurrent, markNext: markNext, stack: stack, steps: &steps)
                }
            }
        }
    }

    private func run(
        _ bytes: UnsafeBufferPointer<UInt8>, program instructions: UnsafeBufferPointer<Instruction>,
        tables: UnsafeBufferPointer<(UInt64, UInt64)>,
        current: UnsafeMutablePointer<Int32>, next: UnsafeMutablePointer<Int32>,
        markCurrent: UnsafeMutablePointer<Int32>, markNext: UnsafeMutablePointer<Int32>,
        stack: UnsafeMutablePointer<Int32>, steps: inout Int
    ) -> Bool {
        var current = current
        var next = next
        var markCurrent = markCurrent
        var markNext = markNext
        let n = bytes.count
        var carried = 0  // threads in `current` carried over from the previous position
        var position = 0
        var generation: Int32 = 0
        var previousIsWord = false  // the last scalar before `position` that `\b` does not look through
        var foldBuffer: [UInt32] = []
        foldBuffer.reserveCapacity(4)
        var visits = 0
        defer { steps += visits }
        while true {
            // The scalar at `position` (nil at the end).
            var scalar: UInt32?
            var length = 0
            if position < n {
                (scalar, length) = Self.decode(bytes, at: position)
            }
            // Closure: from the carried threads and, unanchored, a new thread at 0.
            var live = 0
            var matched = false
            // The carried threads are in `current[0..<carried]`; re-add them through the closure.
            // They are already consuming instructions, so the closure only marks them.
            for k in 0..<carried {
                let pc = current[k]
                markCurrent[Int(pc)] = generation
                current[live] = pc
                live += 1
                visits += 1
            }
            if !anchoredStart || position == 0 {
                var top = 0
                stack[0] = 0
                top = 1
                while top > 0 {
                    top -= 1
                    let pc = Int(stack[top])
                    if markCurrent[pc] == generation { continue }
                    markCurrent[pc] = generation
                    visits += 1
                    switch instructions[pc] {
                    case .jump(let target):
                        stack[top] = target; top += 1
                    case .split(let a, let b):
                        stack[top] = b; top += 1
                        stack[top] = a; top += 1
                    case .assert(let assertion):
                        if holds(assertion, at: position, scalar: scalar, bytes, previousIsWord: previousIsWord) {
                            stack[top] = Int32(pc + 1); top += 1
                        }
                    case .match:
                        matched = true
                    default:
                        current[live] = Int32(pc)
                        live += 1
                    }
                }
            }
            if matched { return true }
            guard let c = scalar, live > 0 || !anchoredStart else { return false }
            // Step every consuming thread over `c`; their successors' closures go to `next`.
            var nextLive = 0
            // `\b` after `c`: the word-ness of the last scalar it does not look through.
            let wordAfter = usesWordBoundary
                ? (RegexUnicode.isBoundaryTransparent(c) ? previousIsWord : RegexUnicode.isWord(c)) : false
            let nextGeneration = generation &+ 1
            var folded = false
            var k = 0
            while k < live {
                let pc = Int(current[k])
                k += 1
                var target = -1
                switch instructions[pc] {
                case .char(let want):
                    if c == want { target = pc + 1 }
                case .fold(let want, let run):
                    if c < 0x80 {
                        let f = c >= 0x41 && c <= 0x5A ? c + 32 : c
                        if f == want { target = pc + 1 }
                    } else {
                        if !folded {
                            foldBuffer.removeAll(keepingCapacity: true)
                            RegexUnicode.fullFold(c, into: &foldBuffer)
                            folded = true
                        }
                        if foldBuffer.count <= Int(run), foldBuffer[0] == want {
                            var same = true
                            var j = 1
                            while j < foldBuffer.count {
                                if case .fold(let w, _) = instructions[pc + j], w == foldBuffer[j] {} else { same = false; break }
                                j += 1
                            }
                            if same { target = pc + foldBuffer.count }
                        }
                    }
                case .set(let index):
                    if c < 128 {
                        let table = tables[Int(index)]
                        let bit = c < 64 ? (table.0 >> UInt64(c)) & 1 : (table.1 >> UInt64(c - 64)) & 1
                        if bit != 0 { target = pc + 1 }
                    } else if classes[Int(index)].matches(c) {
                        target = pc + 1
                    }
                case .any:
                    if !RegexUnicode.isLineTerminator(c) { target = pc + 1 }
                default:
                    break
                }
                if target < 0 { continue }
                // Closure of `target` at the next position, into `next`.
                var top = 1
                stack[0] = Int32(target)
                let after = position + length
                var afterScalar: UInt32?
                var decodedAfter = false
                while top > 0 {
                    top -= 1
                    let t = Int(stack[top])
                    if markNext[t] == nextGeneration { continue }
                    markNext[t] = nextGeneration
                    visits += 1
                    switch instructions[t] {
                    case .jump(let j):
                        stack[top] = j; top += 1
                    case .split(let a, let b):
                        stack[top] = b; top += 1
                        stack[top] = a; top += 1
                    case .assert(let assertion):
                        if !decodedAfter {
                            afterScalar = after < n ? Self.decode(bytes, at: after).0 : nil
                            decodedAfter = true
                        }
                        if holds(assertion, at: after, scalar: afterScalar, bytes, previousIsWord: wordAfter) {
                            stack[top] = Int32(t + 1); top += 1
                        }
                    case .match:
                        return true
                    default:
                        next[nextLive] = Int32(t)
                        nextLive += 1
                    }
                }
            }
            previousIsWord = wordAfter
            position += length
            // The next position's carried threads are in `next`, already closed: swap.
            swap(&current, &next)
            swap(&markCurrent, &markNext)
            carried = nextLive
            generation = nextGeneration &+ 1
            if generation > Int32.max - 4 {
                // Not reachable for texts under 1 GB; reset the marks to stay correct anyway.
                for j in 0..<instructions.count { markCurrent[j] = -1; markNext[j] = -1 }
                generation = 0
            }
            // `markCurrent` (formerly `markNext`) holds `nextGeneration` for the carried threads;
            // the loop re-marks them with the new `generation` before the new closure.
        }
    }

    private func holds(
        _ assertion: Assertion, at position: Int, scalar: UInt32?, _ bytes: UnsafeBufferPointer<UInt8>,
        previousIsWord: Bool
    ) -> Bool {
        let n = bytes.count
        switch assertion {
        case .start: return position == 0
        case .absoluteEnd: return position == n
        case .end:
            // At the end, or before one final line terminator (`\r\n` counts as one), as ICU's `$`.
            let rest = n - position
            if rest == 0 { return true }
            let b = bytes[position]
            switch rest {
            case 1:
                guard b >= 0x0A && b <= 0x0D else { return false }
                return !(b == 0x0A && position > 0 && bytes[position - 1] == 0x0D)
            case 2: return (b == 0x0D && bytes[position + 1] == 0x0A) || (b == 0xC2 && bytes[position + 1] == 0x85)
            case 3: return b == 0xE2 && bytes[position + 1] == 0x80 && (bytes[position + 2] == 0xA8 || bytes[position + 2] == 0xA9)
            default: return false
            }
        case .wordBoundary, .notWordBoundary:
            var boundary: Bool
            if let c = scalar {
                if RegexUnicode.isBoundaryTransparent(c) {
                    boundary = false
                } else {
                    boundary = RegexUnicode.isWord(c) != previousIsWord
                }
            } else {
                boundary = previousIsWord
            }
            return assertion == .wordBoundary ? boundary : !boundary
        }
    }

    /// The scalar starting at `i` in valid UTF-8, and its length in bytes.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(bytes[i + 1]) & 0x3F, 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | (UInt32(bytes[i + 1]) & 0x3F) << 6 | UInt32(bytes[i + 2]) & 0x3F, 3)
        }
        return ((b0 & 0x07) << 18 | (UInt32(bytes[i + 1]) & 0x3F) << 12 | (UInt32(bytes[i + 2]) & 0x3F) << 6
                | UInt32(bytes[i + 3]) & 0x3F, 4)
    }
}
