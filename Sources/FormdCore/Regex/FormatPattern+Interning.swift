// Native builds: shared, weakly held patterns behind a lock. WebAssembly: FormatPattern+Interning+Embedded.swift.
#if !hasFeature(Embedded)
import Foundation

extension FormatPattern {
    /// The compiled pattern for `source` with the default budgets, shared by every form that uses
    /// the same pattern while any of them is loaded. Compiling a case-insensitive ICU pattern
    /// builds its case-closure sets, which was about 40 % of loading a typical form and a good
    /// part of its memory; hosts with many forms repeat the same few patterns (e-mail, phone,
    /// postal code). Sharing is safe: a `FormatPattern` is immutable and matched concurrently.
    package static func interned(_ source: String) throws(FormatPatternError) -> FormatPattern {
        if let shared = InternTable.shared.lookup(source) { return shared }
        let compiled = try FormatPattern(source)
        return InternTable.shared.insert(compiled)
    }

    /// Patterns by source, held weakly: a pattern no loaded form uses any more is freed.
    private final class InternTable: @unchecked Sendable {
        static let shared = InternTable()
        private struct Entry { weak var pattern: FormatPattern? }
        private let lock = NSLock()
        private var entries: [String: Entry] = [:]
        private var insertsSincePrune = 0

        func lookup(_ source: String) -> FormatPattern? {
            lock.lock()
            defer { lock.unlock() }
            return entries[source]?.pattern
        }

        /// Stores `pattern` unless another thread stored one for the same source first; returns the
        /// one to use. Now and then drops the entries whose pattern is gone.
        func insert(_ pattern: FormatPattern) -> FormatPattern {
            lock.lock()
            defer { lock.unlock() }
            if let existing = entries[pattern.source]?.pattern { return existing }
            entries[pattern.source] = Entry(pattern: pattern)
            insertsSincePrune += 1
            if insertsSincePrune >= 256 {
                insertsSincePrune = 0
                entries = entries.filter { $0.value.pattern != nil }
            }
            return pattern
        }
    }
}
#endif
