import Foundation
import FormdTestSupport
import Testing
@testable import FormdCore

/// The engine-free path for simple anchored patterns (`SimplePattern`) against the regex
/// engine itself, on hand-picked and random patterns and texts: it must take the patterns it
/// claims and answer exactly as the engine does (case-insensitively, `$` before a final line
/// terminator), and leave everything else to the engine.
@Suite struct SimplePatternTests {
    static let bundledShapes = [
        #"^[A-Za-z0-9_]+$"#, #"^[A-Z]{2}$"#, #"^[0-9]{5}$"#, #"^\+?[0-9]{7,15}$"#, #"^\d{4}-\d{2}-\d{2}$"#,
        #"^[a-z0-9._-]{3,20}$"#, #"^\w+$"#, #"^.{8,}$"#, #"^[0-9]{4} ?[A-Z]{2}$"#, #"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$"#,
        #"^\d{3}-\d{3}-\d{4}$"#, #"^[\-\.a]$"#, #"^[a-c_-]*x$"#, #"^a*a*a*b$"#, #"^a?b?c?$"#, #"^[-+]?\d+\.?\d*$"#,
        #"^x{0}y$"#, #"^a{2,}$"#, #"^[ab]{1,3}[bc]{1,3}$"#, #"^@$"#, #"^[.]$"#, #"^\.\*$"#, #"^ab c$"#,
        #"^[0-9]{5}(-[0-9]{4})?$"#, #"[\w._%+-]+@[\w.-]+\.\w{2,}"#, #"\d{4}"#, #"^\d{4}"#, #"\d{4}$"#, #"^(ab)+$"#,
        #"^(a|b|)c$"#, #"^(?:x|yz)*$"#, #"^((a|b)c){2,3}$"#, #"^(a?){3}a{3}$"#, #"\$"#, #"a\\$"#, #"^(a+)?b$"#, #"^(a?){999}b$"#, #"^(?:ab|a?){50}x$"#,
        #"^\+?[0-9 ]{8,19}$"#, #"^[ a-c]+$"#, #"^[ -~]$"#,
    ]

    static let outsideTheSubset = [
        #"^a|b$"#, #"a|b"#, #"(a+)+$"#, #"(.*a){12}"#, #"(a*)*b"#, #"^((a|b)+c){2}$"#, #"^(?=a)a$"#, #"^(?i)a$"#, #"^(a$"#, #"^a)$"#, #"^(?<n>a)$"#, #"^[^a]$"#, #"^\s+$"#, #"^\D$"#,
        #"^a+?$"#, #"^a++$"#, #"^\p{L}+$"#, #"^[[:alpha:]]$"#, #"^[a&&b]$"#, #"^é$"#, #"^\bx$"#, #"^a{,2}$"#,
        #"^[a-\d]$"#, #"^[a-c-e]$"#, #"^\1$"#, #"^[]a]$"#, #"^a{1}{2}$"#, #"^[a{b}]$"#, #"^# x$"#,
    ]

    /// Texts that stress the edges: case, every ASCII line terminator, non-ASCII (engine path).
    static let alphabet: [String] = ["a", "A", "b", "B", "c", "x", "Y", "z", "0", "5", "9", "_", "-", "+", ".", " ", "@",
                                     "*", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\t", "é", "\u{2028}", "K"]

    @Test func claimsTheSimplePatternsAndOnlyThose() {
        for p in Self.bundledShapes { #expect(SimplePattern(p) != nil, "\(p)") }
        for p in Self.outsideTheSubset { #expect(SimplePattern(p) == nil, "\(p)") }
    }

    /// The per-byte class table covers up to 63 distinct sets; a pattern with more reads each
    /// set on its own. Both must answer as the engine does, and neither may take non-ASCII text.
    @Test func manyClassesAnswerAsTheEngineDoes() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var pairs: [String] = []
        for i in letters.indices { for j in letters.indices where j > i { pairs.append("[\(letters[i])\(letters[j])]") } }
        var rng = SplitMix64(state: 7)
        var compared = 0
        for count in [3, 63, 64, 90] {
            let source = "^(?:" + pairs.prefix(count).joined(separator: "|") + ")*$"
            let simple = try #require(SimplePattern(source))
            #expect(simple.classes.count == count)
            #expect(simple.classTable.isEmpty == (count >= 64))
            let engine = try FormatPattern(source, engine: .preferred, fastPath: false)
            for _ in 0..<300 {
                let text = (0..<rng.below(12)).map { _ in rng.pick(["a", "b", "c", "e", "k", "z", "Q", "1", "é", "-"]) }.joined()
                let want = engine.evaluate(text)
                if text.utf8.contains(where: { $0 >= 128 }) {
                    #expect(simple.matches(text) == nil, "\(text)")
                } else if want != .timedOut {  // the engine's step budget: nothing to compare with
                    compared += 1
                    #expect(simple.matches(text).map { $0 ? FormatPattern.Outcome.match : .noMatch } == want, "\(count): \(text)")
                }
            }
        }
        #expect(compared > 400)
    }

    /// The automaton (`PatternAutomaton`) answers as the bit masks do, on the bundled shapes and
    /// random patterns, texts built from the pattern and random ones, up to 63 bytes, with line
    /// terminators at the end and bytes past ASCII (both then decline). Patterns too large for it
    /// keep the masks.
    @Test func automatonAnswersAsTheMasks() throws {
        var rng = SplitMix64(state: 0xA170_3A7A)
        var compared = 0
        var matched = 0
        var built = 0
        for source in Self.bundledShapes + Self.randomPatterns(&rng, count: 800) {
            guard let simple = SimplePattern(source), let automaton = simple.automaton else { continue }
            built += 1
            var texts = (0..<40).map { _ in (0..<rng.below(12)).map { _ in rng.pick(Self.alphabet) }.joined() }
            texts += (0..<40).map { _ in Self.member(of: simple, &rng) }
            texts += (0..<4).map { _ in String(Self.member(of: simple, &rng, atLeast: 60).prefix(63)) }
            for text in texts {
                let bytes = Array(text.utf8)
                guard bytes.count < 64 else { continue }
                let (a, m) = bytes.withUnsafeBufferPointer {
                    (automaton.matches($0, anchoredEnd: simple.anchoredEnd), simple.matchesByMasks($0))
                }
                #expect(a == m, "\(source) on \(text.debugDescription)")
                #expect((a == nil) == bytes.contains { $0 >= 128 })
                compared += 1
                if a == true { matched += 1 }
            }
        }
        #expect(built > 500)
        #expect(compared > 40_000)
        #expect(matched > compared / 5, "the texts must often match")
        // the e-mail and phone shapes of the bundled forms have one
        #expect(SimplePattern(#"[\w._%+-]+@[\w.-]+\.\w{2,}"#)?.automaton != nil)
        #expect(SimplePattern(#"^\+?[0-9 ]{8,19}$"#)?.automaton != nil)
        // too many positions, and too many states (a at the 10th byte from the end): the masks decide
        let positions = try #require(SimplePattern(#"^(a?){999}b$"#))
        #expect(positions.automaton == nil)
        #expect(positions.matches("aab") == true)
        #expect(positions.matches("aac") == false)
        let states = try #require(SimplePattern(#"^.*a.{9}$"#))
        #expect(states.automaton == nil)
        #expect(states.matches("xa123456789") == true)
        #expect(states.matches("xa12345678") == false)
    }

    @Test(arguments: FormatEngine.allCases)
    func answersAsTheEngineDoes(engine kind: FormatEngine) throws {
        var rng = SplitMix64(state: 0x9E37_79B9_7F4A_7C15)
        var compared = 0
        var timedOut = 0
        for source in Self.bundledShapes + Self.randomPatterns(&rng, count: 500) {
            guard let simple = SimplePattern(source) else { continue }
            let engine = try FormatPattern(source, engine: kind, fastPath: false)
            let fast = try FormatPattern(source, engine: kind)
            var texts = (0..<60).map { _ in (0..<rng.below(10)).map { _ in rng.pick(Self.alphabet) }.joined() }
            texts += (0..<60).map { _ in Self.member(of: simple, &rng) }
            // 64 bytes and more are the engine's (the fast path declines them): still the same answers
            var long = (0..<5).map { _ in (0..<(64 + rng.below(80))).map { _ in rng.pick(Self.alphabet) }.joined() }
            long += (0..<5).map { _ in Self.member(of: simple, &rng, atLeast: 64) }
            for text in long where text.utf8.count >= 64 { #expect(simple.matches(text) == nil) }
            texts += long
            // and just under: the last bit of the mask
            texts += (0..<10).map { _ in String(Self.member(of: simple, &rng, atLeast: 60).prefix(63)) }
            for text in texts {
                let want = engine.evaluate(text)
                // Where the engine gives up (its step budget) the fast path still answers, as it
                // does not backtrack; nothing to compare with then.
                if want == .timedOut { timedOut += 1; continue }
                #expect(fast.evaluate(text) == want, "\(source) on \(text.debugDescription)")
                if let answer = simple.matches(text) {
                    #expect((answer ? FormatPattern.Outcome.match : .noMatch) == want, "\(source) on \(text.debugDescription)")
                    compared += 1
                }
            }
        }
        #expect(compared > 20_000, "the fast path must actually have answered")
        #expect(timedOut < compared / 100, "\(timedOut) engine time-outs")
    }

    /// Random patterns from the subset's grammar: runs, groups with alternatives (nested once),
    /// with and without each anchor.
    static func randomPatterns(_ rng: inout SplitMix64, count: Int) -> [String] {
        let atoms = ["a", "B", "0", "_", "-", " ", "@", #"\."#, #"\+"#, #"\-"#, ".", #"\d"#, #"\w"#, "[a-c]", "[A-Z0-9_]",
                     "[-+.]", "[a-c_-]", #"[\-\.x]"#, "[0-9a-f]", "[xY]", "[0-9 ]", "[ _]"]
        let quantifiers = ["", "", "", "?", "*", "+", "{2}", "{1,3}", "{0,2}", "{2,}"]
        func sequence(_ rng: inout SplitMix64, depth: Int) -> String {
            (0..<(1 + rng.below(4))).map { _ in
                if depth < 2 && rng.below(5) == 0 {
                    let alts = (0..<(1 + rng.below(3))).map { _ in rng.below(6) == 0 ? "" : sequence(&rng, depth: depth + 1) }
                    return "(" + (rng.below(2) == 0 ? "?:" : "") + alts.joined(separator: "|") + ")" + rng.pick(quantifiers)
                }
                return rng.pick(atoms) + rng.pick(quantifiers)
            }.joined()
        }
        return (0..<count).map { _ in
            (rng.below(4) == 0 ? "" : "^") + sequence(&rng, depth: 0) + (rng.below(4) == 0 ? "" : "$")
        }
    }

    /// A text built node by node from the pattern's own sets (often a match, sometimes with a
    /// line terminator, a case change or a cut).
    static func member(of p: SimplePattern, _ rng: inout SplitMix64, atLeast length: Int = 0) -> String {
        var bytes: [UInt8] = []
        if !p.anchoredStart && rng.below(3) == 0 { bytes.append(rng.pick(Array("xyz-".utf8))) }
        var spread = 3
        repeat {
            var body: [UInt8] = []
            emit(p.nodes, p.classes, &body, &rng, spread: spread)
            if body.count >= length || spread > 200 { bytes += body; break }
            spread *= 2
        } while true
        if !p.anchoredEnd && rng.below(3) == 0 { bytes.append(rng.pick(Array("xyz-".utf8))) }
        var s = String(decoding: bytes, as: UTF8.self)
        switch rng.below(6) {
        case 0: s += rng.pick(["\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\n\n", "\u{2028}"])
        case 1: s = s.uppercased()
        case 2 where !s.isEmpty: s.removeLast()
        default: break
        }
        return s
    }

    static func emit(
        _ nodes: [SimplePattern.Node], _ classes: [SimplePattern.Element], _ bytes: inout [UInt8], _ rng: inout SplitMix64, spread: Int
    ) {
        for node in nodes {
            switch node {
            case .run(let c, let min, let max):
                let members = (0..<128).map(UInt8.init).filter { classes[c].contains($0) }
                let times = Swift.min(min + rng.below(spread), max)
                for _ in 0..<times { bytes.append(rng.pick(members)) }
            case .group(let alternatives, let min, let max):
                let times = Swift.min(min + rng.below(spread - 1), max)
                for _ in 0..<times { emit(rng.pick(alternatives), classes, &bytes, &rng, spread: spread) }
            }
        }
    }
}
