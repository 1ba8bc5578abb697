// canImport(_FoundationICU) is also true for wasm32 (the module map is found), then fails to build.
#if canImport(_FoundationICU) && !hasFeature(Embedded)
import Foundation
import _FoundationICU

// The toolchain's ICU is built with a `swift_` symbol prefix; urename.h maps the
// plain names with macros, which Swift does not import, so the prefixed names are used.

/// ICU regex through its C API. The compiled prototype is never matched on;
/// each check borrows a clone (clones share the compiled pattern and are cheap)
/// from a lock-protected pool, because one URegularExpression is not thread-safe.
final class ICUFormatMatcher: FormatMatcher, @unchecked Sendable {
    private let prototype: OpaquePointer
    private let lock = NSLock()
    private var idle: [ICUMatcher] = []  // guarded by `lock`
    /// Idle clones kept for reuse; extra ones (after a burst) are closed.
    private let maxIdle = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)

    init(_ pattern: String) throws(FormatPatternError) {
        let utf16 = Array(pattern.utf16)
        var status = U_ZERO_ERROR
        var parseError = UParseError()
        let regex = swift_uregex_open(
            utf16, Int32(clamping: utf16.count), UInt32(UREGEX_CASE_INSENSITIVE.rawValue),
            &parseError, &status)
        guard let regex, status.rawValue <= U_ZERO_ERROR.rawValue else {
            if let regex { swift_uregex_close(regex) }
            throw FormatPatternError(
                message: ICUStatus.message(for: status),
                offset: ICUStatus.offset(in: pattern, line: parseError.line, column: parseError.offset))
        }
        prototype = regex
    }

    deinit {
        for matcher in idle { matcher.close() }
        swift_uregex_close(prototype)
    }

    func evaluate(_ text: String, budget: inout MatchBudget) -> FormatPattern.Outcome {
        let count = text.utf16.count
        guard count <= Int32.max, let matcher = checkOut() else { return .timedOut }
        defer { checkIn(matcher) }
        // UTF-16 copy on the stack for typical field sizes (heap only if large).
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(count, 1)) { buffer in
            _ = buffer.initialize(from: text.utf16)
            return matcher.find(in: UnsafeBufferPointer(rebasing: buffer[..<count]), budget: &budget)
        }
    }

    private func checkOut() -> ICUMatcher? {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        // Cloning outside the lock: ICU documents clones of an otherwise unused
        // pattern as safe to create and use from separate threads.
        return reused ?? ICUMatcher(cloning: prototype)
    }

    private func checkIn(_ matcher: ICUMatcher) {
        lock.lock()
        let keep = idle.count < maxIdle
        if keep { idle.append(matcher) }
        lock.unlock()
        if !keep { matcher.close() }
    }
}

/// One clone plus the budget slot its match callback reads. Used by one thread at a time.
private final class ICUMatcher {
    private let regex: OpaquePointer
    private let budget: UnsafeMutablePointer<MatchBudget>

    init?(cloning prototype: OpaquePointer) {
        var status = U_ZERO_ERROR
        guard let clone = swift_uregex_clone(prototype, &status), status.rawValue <= U_ZERO_ERROR.rawValue
        else { return nil }
        regex = clone
        budget = .allocate(capacity: 1)
        budget.initialize(to: MatchBudget(steps: 0, cpuNanoseconds: 0))
        // ICU calls this every 10,000 backtrack-state saves with the step count
        // so far. Our callback replaces uregex_setTimeLimit (same step counter)
        // so it can also bound CPU time: a step's cost depends on the pattern.
        swift_uregex_setMatchCallback(regex, { context, steps in
            guard let context else { return 0 }
            let budget = UnsafeMutableRawPointer(mutating: context).assumingMemoryBound(to: MatchBudget.self)
            return budget.pointee.isSpent(afterSteps: steps) ? 0 : 1
        }, UnsafeRawPointer(budget), &status)
        if status.rawValue > U_ZERO_ERROR.rawValue {
            swift_uregex_close(clone)
            budget.deallocate()
            return nil
        }
    }

    func close() {
        swift_uregex_close(regex)
        budget.deinitialize(count: 1)
        budget.deallocate()
    }

    func find(in text: UnsafeBufferPointer<UInt16>, budget limits: inout MatchBudget) -> FormatPattern.Outcome {
        budget.pointee = limits
        defer { limits = budget.pointee }
        var status = U_ZERO_ERROR
        swift_uregex_setText(regex, text.baseAddress ?? ICUMatcher.empty, Int32(text.count), &status)
        let found = swift_uregex_find(regex, 0, &status)
        // Do not leave the clone pointing at the caller's soon-freed buffer.
        var detach = U_ZERO_ERROR
        swift_uregex_setText(regex, ICUMatcher.empty, 0, &detach)
        // Time-out, callback stop, backtrack-stack overflow or any other engine
        // failure: fail closed.
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return .timedOut }
        return found != 0 ? .match : .noMatch
    }

    nonisolated(unsafe) private static let empty: UnsafePointer<UInt16> = {
        let pointer = UnsafeMutablePointer<UInt16>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()
}

/// Compile-error reporting for ICU status codes.
enum ICUStatus {
    static func message(for status: UErrorCode) -> String {
        let reason = switch status {
        case U_REGEX_RULE_SYNTAX: "syntax error (e.g. nothing to repeat)"
        case U_REGEX_BAD_ESCAPE_SEQUENCE: "unrecognized backslash escape"
        case U_REGEX_PROPERTY_SYNTAX: "invalid Unicode property"
        case U_REGEX_UNIMPLEMENTED: "unsupported regular-expression feature"
        case U_REGEX_MISMATCHED_PAREN: "unbalanced parenthesis"
        case U_REGEX_NUMBER_TOO_BIG: "number too large"
        case U_REGEX_BAD_INTERVAL: "invalid {min,max} repetition"
        case U_REGEX_MAX_LT_MIN: "in {min,max}, max is less than min"
        case U_REGEX_INVALID_BACK_REF: "back-reference to a non-existent group"
        case U_REGEX_INVALID_FLAG: "invalid match-mode flag"
        case U_REGEX_LOOK_BEHIND_LIMIT: "look-behind must have a bounded maximum length"
        case U_REGEX_SET_CONTAINS_STRING: "character class cannot contain strings"
        case U_REGEX_MISSING_CLOSE_BRACKET: "missing closing bracket"
        case U_REGEX_INVALID_RANGE: "invalid character range"
        case U_REGEX_PATTERN_TOO_BIG: "pattern too large or complex"
        case U_REGEX_INVALID_CAPTURE_GROUP_NAME: "invalid capture group name"
        default: "invalid pattern"
        }
        let name = swift_u_errorName(status).map { String(cString: $0) } ?? "\(status.rawValue)"
        return "\(reason) (\(name))"
    }

    /// Converts ICU's 1-based line and 1-based column (Unicode scalars; the
    /// column of the character being read when the error was found) into a
    /// 0-based scalar offset in the whole pattern. ICU counts CR, NEL, LS and
    /// LF (except after CR) as line starts.
    static func offset(in pattern: String, line: Int32, column: Int32) -> Int? {
        guard line >= 1, column >= 0 else { return nil }
        var lineStarts = [0]
        var previous: UInt32 = 0
        for (index, scalar) in pattern.unicodeScalars.enumerated() {
            switch scalar.value {
            case 0x0D, 0x85, 0x2028: lineStarts.append(index + 1)
            case 0x0A where previous == 0x0D: lineStarts[lineStarts.count - 1] = index + 1
            case 0x0A: lineStarts.append(index + 1)
            default: break
            }
            previous = scalar.value
        }
        guard Int(line) <= lineStarts.count else { return nil }
        let length = pattern.unicodeScalars.count
        return min(max(lineStarts[Int(line) - 1] + Int(column) - 1, 0), length)
    }
}
#endif
