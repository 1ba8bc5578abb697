import Foundation
import Testing
@testable import FormdCore

/// Behaviour of `format` matching, for every engine available on this platform
/// (on Linux both ICU and the NSRegularExpression fallback are exercised).
@Suite struct FormatPatternTests {
    private func pattern(_ source: String, _ engine: FormatEngine, fastPath: Bool = true) throws -> FormatPattern {
        try FormatPattern(source, timeBudget: FormatPattern.defaultTimeBudget, engine: engine, fastPath: fastPath)
    }

    @Test(arguments: FormatEngine.allCases)
    func caseInsensitive(engine: FormatEngine) throws {
        #expect(try pattern("[a-z]+", engine).evaluate("ABC") == .match)
        #expect(try pattern("^HELLO$", engine).matches("hello"))
        #expect(try pattern("[A-Z]", engine).evaluate("123") == .noMatch)
    }

    @Test(arguments: FormatEngine.allCases)
    func unanchored(engine: FormatEngine) throws {
        let year = try pattern(#"\d{4}"#, engine)
        #expect(year.evaluate("ab1234cd") == .match)
        #expect(year.evaluate("ab123cd") == .noMatch)
        #expect(try pattern(#"^\d{4}$"#, engine).evaluate("ab1234cd") == .noMatch)
    }

    @Test(arguments: FormatEngine.allCases)
    func email(engine: FormatEngine) throws {
        let email = try pattern(#"[\w._%+-]+@[\w.-]+\.\w{2,}"#, engine)
        #expect(email.matches("jane.doe+news@example.co.uk"))
        #expect(email.matches("Contact: JANE@EXAMPLE.COM today"))
        #expect(!email.matches("jane.doe@localhost"))
        #expect(!email.matches("not an email"))
    }

    @Test(arguments: FormatEngine.allCases)
    func unicodeText(engine: FormatEngine) throws {
        #expect(try pattern("äöü", engine).matches("GRÜN ÄÖÜ"))
        #expect(try pattern("[α-ω]+", engine).matches("ΑΒΓ"))
        #expect(try pattern(#"^\p{L}+$"#, engine).matches("日本語"))
        #expect(try pattern("^.$", engine).matches("😀"))  // one code point, two UTF-16 units
        #expect(try pattern("😀{2}", engine).matches("x😀😀y"))
        #expect(try pattern("b$", engine).matches("😀ab"))
        #expect(!(try pattern("^..$", engine).matches("😀")))
    }

    @Test(arguments: FormatEngine.allCases)
    func emptyStrings(engine: FormatEngine) throws {
        #expect(throws: FormatPatternError(message: "empty pattern", offset: 0)) { try pattern("", engine) }
        #expect(try pattern("x*", engine).evaluate("") == .match)
        #expect(try pattern("^$", engine).evaluate("") == .match)
        #expect(try pattern(#"\d"#, engine).evaluate("") == .noMatch)
    }

    @Test(arguments: FormatEngine.allCases)
    func sourceIsKept(engine: FormatEngine) throws {
        #expect(try pattern(#"^\d+$"#, engine).source == #"^\d+$"#)
    }

    @Test(arguments: FormatEngine.allCases, ["(", "[a-", "*a", "a{2,1}", #"\"#, "(?<=a+)b"])
    func invalidPatternsThrow(engine: FormatEngine, source: String) {
        #expect {
            _ = try pattern(source, engine)
        } throws: { error in
            guard let error = error as? FormatPatternError else { return false }
            return !error.message.isEmpty
        }
    }

    @Test func invalidPatternOffsetsFromICU() throws {
        try #require(FormatEngine.allCases.contains(.icu))
        func offset(_ source: String) -> Int?? {
            do throws(FormatPatternError) {
                _ = try FormatPattern(source)
                return .none
            } catch {
                return .some(error.offset)
            }
        }
        #expect(offset("(") == 0)      // the unclosed "("
        #expect(offset("*a") == 0)     // nothing to repeat
        #expect(offset("[a-") == 2)
        #expect(offset("ab)") == 2)
        #expect(offset("a{2,1}") == 5)
        #expect(offset("é😀(") == 2)   // offsets count Unicode scalars
        #expect(offset("x\ny\n(") == 4)
        #expect(offset("x\r\ny\r\n(") == 6)
        #expect(offset("ok") == .none)
        do throws(FormatPatternError) {
            _ = try FormatPattern("ab)")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("parenthesis"))
            #expect(error.description.contains("offset 2"))
        }
    }

    @Test(arguments: FormatEngine.allCases)
    func timeoutCountsAsNoMatch(engine: FormatEngine) throws {
        // The linear matcher answers; the engine alone (server-only patterns) times out.
        let text = String(repeating: "a", count: 1023) + "!"
        #expect(try pattern("(a+)+$", engine).evaluate(text) == .noMatch)
        let evil = try pattern("(a+)+$", engine, fastPath: false)
        #expect(evil.evaluate(text) == .timedOut)
        #expect(!evil.matches(text))
        // The same compiled pattern keeps working after a time-out.
        #expect(evil.evaluate("aaa") == .match)
        #expect(evil.evaluate("bbb") == .noMatch)
    }

    @Test func stepBudgetEndsSearchWithoutTheClock() throws {
        let engine = FormatEngine.icu
        try #require(FormatEngine.allCases.contains(engine))
        let text = String(repeating: "a", count: 1023) + "!"
        let evil = try FormatPattern("(a+)+$", timeBudget: .seconds(60), engine: engine, fastPath: false)
        let start = MonotonicClock.now()
        #expect(evil.evaluate(text) == .timedOut)
        #expect(MonotonicClock.now() - start < 1_000_000_000)
        // (.*a){12} needs ~16 steps to find its match on this input: the outcome
        // depends on the step budget, not on how busy the host is.
        let slow = #"(.*a){12}"#
        #expect(try FormatPattern(slow, timeBudget: .seconds(60), stepBudget: 8, engine: engine, fastPath: false).evaluate(text) == .timedOut)
        #expect(try FormatPattern(slow, timeBudget: .seconds(60), stepBudget: 64, engine: engine, fastPath: false).evaluate(text) == .match)
    }

    @Test func extremeBudgetsDoNotTrap() throws {
        let huge = try FormatPattern("a", timeBudget: .seconds(Int64.max))
        #expect(huge.matches("cat"))
        let none = try FormatPattern("a", timeBudget: .zero)
        #expect(none.matches("cat"))  // short searches never reach a deadline check
        #expect(none.evaluate(String(repeating: "a", count: 1023) + "!") == .match)
        let negative = try FormatPattern("^(a+)+\\1$", timeBudget: .milliseconds(-5))  // server-only
        #expect(negative.evaluate(String(repeating: "a", count: 1023) + "!") == .timedOut)
    }

    @Test func longInputBeyondStackAllocation() throws {
        let text = String(repeating: "x", count: 200_000) + "needle"
        #expect(try FormatPattern("NEEDLE$").matches(text))
        #expect(!(try FormatPattern("^needle").matches(text)))
    }

    @Test(arguments: FormatEngine.allCases)
    func concurrentMatchingIsCorrect(engine: FormatEngine) throws {
        let email = try pattern(#"[\w._%+-]+@[\w.-]+\.\w{2,}"#, engine)
        let evil = try pattern("(a+)+$", engine, fastPath: false)
        let cases: [(String, FormatPattern.Outcome)] = [
            ("a@b.io", .match), ("nope", .noMatch), ("X@Y.ORG", .match),
            ("é@ü.de", .match), ("", .noMatch), ("a@b", .noMatch),
        ]
        let slowText = String(repeating: "a", count: 1023) + "!"
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for round in 0..<300 {
                let (text, expected) = cases[(worker + round) % cases.count]
                if email.evaluate(text) != expected { failures.increment() }
                // Interleave time-outs on another pattern to stress its clone pool.
                if round % 50 == worker % 50, evil.evaluate(slowText) != .timedOut { failures.increment() }
                if evil.evaluate("aaaa") != .match { failures.increment() }
            }
        }
        #expect(failures.value == 0)
    }
}

/// Tiny thread-safe counter for the concurrency test.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
