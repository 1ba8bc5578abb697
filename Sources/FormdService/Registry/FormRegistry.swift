import FormdCore
import FormdHTTP
import Foundation
import Logging

/// The served forms of one folder, loaded as they are used.
///
/// Start-up lists the folder and `stat`s each file, nothing more, so ten thousand forms are ready
/// in milliseconds. A form is read and compiled the first time a request needs it, or by the
/// background indexer, which goes through every file once to log broken ones and to learn what
/// `GET /forms` lists. What is kept per form is small: its listing entry and its served bytes,
/// gzipped (the version that serves until a newer one compiles, so a broken edit never replaces a
/// good form). Compiled forms are cached up to `forms.max_compiled_bytes`, least recently used
/// dropped first (FormRegistry+Loading.swift, FormCache.swift).
package final class FormRegistry: @unchecked Sendable {
    /// What `GET /forms` says of a form.
    struct Listing {
        let title: String
        let version: String
        let fields: Int
    }

    /// The version of a form that serves: it compiled, so it can be compiled again from `source`.
    struct Good {
        let listing: Listing
        /// The served bytes, gzipped.
        let source: [UInt8]
        let sourceCount: Int
        /// Registry-wide counter value when this version was installed: the cache key.
        let generation: Int
    }

    /// What is known of one definition file.
    struct Entry {
        let path: String
        var stamp: DefinitionFile.Stamp
        /// Of the bytes last read; nil until read, or when the file could not be read.
        var digest: UInt64?
        /// Changed so shortly before it was read that a same-size rewrite within the same
        /// timestamp tick would leave the stamp unchanged: read again on the next pass.
        var unsettled = false
        /// Not read since start-up (or since it appeared): the indexer or the first request reads it.
        var pending = true
        var good: Good?

        /// Serves now, or may once read.
        var isServable: Bool { pending || good != nil }
    }

    /// Every this many poll passes each file is read and hashed even when its stamp is unchanged
    /// (a safety net for file systems whose ctime cannot be trusted; ~1 min at the 1 s poll).
    static let verifyEvery = 60
    /// A file changed less than this before it was read is read once more (coarse timestamps).
    static let settleSeconds = 0.1

    package let directory: String
    /// `forms.max_file_bytes`: larger files are refused before a byte of them is read.
    package let maxFileBytes: Int
    /// `forms.strict`: a definition with warnings is refused like one with errors.
    package let strict: Bool
    /// The engine's limits and tables, given to every form compiled here.
    package let options: EvaluationOptions
    /// `validators.remote`'s names: a definition naming another remote validator is refused
    /// like one with errors (set before the first load; never changes after).
    package var declaredRemoteValidators: Set<String> = []
    let logger: Logger
    let metrics: ServiceMetrics?

    /// Guards everything below.
    let lock = NSCondition()
    var entries: [String: Entry] = [:]
    var cache: FormCache
    /// Bumped whenever what is served changes (a form installed, replaced or removed).
    var generation = 0
    /// Ids not yet read, in the order the indexer takes them, and those being read right now.
    var pendingOrder: [String] = []
    var pendingNext = 0
    var inFlight = Set<String>()
    var listCache: (generation: Int, body: [UInt8])?
    /// Entries that serve or may (not read yet): `formd_forms_loaded`.
    var servingCount = 0
    var polls = 0
    var watcher: (any DirectoryWatcher)?
    var pollTimer: DispatchSourceTimer?
    /// Kept (earlier) versions by form id, newest first (FormRegistry+Versions.swift).
    var kept: [String: [KeptEntry]] = [:]
    /// `contentDirectory` as of the last pass over the folder (`path(of:)` reads it).
    let contentRootLock = NSLock()
    var contentRoot: String?
    /// The digest of the form set, for the generation it was computed at.
    var digestCache: (generation: Int, at: UInt64, value: FormsDigest)?
    /// How changes are noticed now: `inotify` or `poll` (`/metrics`-free, for logs and tests).
    package internal(set) var watchMode = "none"

    package init(
        directory: String, maxFileBytes: Int = DefinitionFile.defaultMaxBytes, strict: Bool = false,
        maxCompiledBytes: Int = 64 << 20, options: EvaluationOptions = EvaluationOptions(), logger: Logger,
        metrics: ServiceMetrics? = nil
    ) {
        self.directory = directory
        self.options = options
        self.maxFileBytes = maxFileBytes
        self.strict = strict
        self.logger = logger
        self.metrics = metrics
        self.cache = FormCache(budget: maxCompiledBytes)
    }

    /// Changes whenever a form is installed, replaced or removed: caches derived from the forms
    /// (the listing, `/openapi.json`) are keyed by it.
    package var version: Int { lock.withLock { generation } }

    /// The form `id` as it serves now, compiled on demand; nil if there is no such form, or it
    /// has never compiled.
    package func form(_ id: String) -> Form? {
        lock.lock()
        // The request path: one hash lookup when the form is compiled.
        if let form = cache.current(id) {
            lock.unlock()
            return form
        }
        guard let entry = entries[id] else {
            lock.unlock()
            return nil
        }
        let pending = entry.pending
        lock.unlock()
        if pending {
            // Never read yet: read it now (the indexer has not reached it); installing caches it.
            index(id, initial: true)
        }
        guard let good = lock.withLock({ entries[id]?.good }) else { return nil }
        return compile(id, good)
    }

    /// The compiled form of a good version: cached, else compiled again from its kept bytes
    /// (outside the lock, so a cache miss delays no other request; two racing misses both compile).
    private func compile(_ id: String, _ good: Good) -> Form? {
        if let form = lock.withLock({ cache.get(id, generation: good.generation) }) { return form }
        guard case .success(let bytes) = Gzip.inflate(good.source, limit: good.sourceCount),
            let form = try? Form(id: id, json: bytes, options: options)
        else {
            // It compiled when installed, and the engine is deterministic.
            logger.error("a kept form failed to compile again", metadata: ["form": "\(id)"])
            return nil
        }
        lock.withLock {
            // Only if it is still the version that serves.
            if entries[id]?.good?.generation == good.generation { cache.insert(id, generation: good.generation, form) }
        }
        return form
    }

    /// The ids served now (every file read), sorted. Waits for the indexer to finish.
    package func ids() -> [String] {
        indexAllPending()
        return lock.withLock { entries.filter { $0.value.good != nil }.keys.sorted() }
    }

    /// The `GET /forms` body: every form that serves, by id, built once per registry version.
    /// The first call after start-up waits for every file to have been read.
    package func listBody() -> [UInt8] {
        indexAllPending()
        lock.lock()
        defer { lock.unlock() }
        if let cached = listCache, cached.generation == generation { return cached.body }
        let served = entries.compactMap { id, e in e.good.map { (id, $0.listing) } }.sorted { $0.0 < $1.0 }
        var w = JSONWriter(reservingCapacity: 64 + served.count * 96)
        w.beginObject()
        w.key("forms")
        w.beginArray()
        for (id, listing) in served {
            w.beginObject()
            w.key("id")
            w.string(id)
            w.key("title")
            w.string(listing.title)
            w.key("version")
            w.string(listing.version)
            w.key("fields")
            w.number(listing.fields)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        listCache = (generation, w.bytes)
        return w.bytes
    }

    /// Whether `form(id)` would answer from the cache, without reading or compiling.
    package func isCompiled(_ id: String) -> Bool {
        // As in `form(id)`: a slot present is the version that serves.
        lock.withLock { cache.contains(id) }
    }

    /// Compiled forms held now and their estimated bytes (for tests and the scale benchmark).
    package var cacheUsage: (forms: Int, bytes: Int) { lock.withLock { (cache.count, cache.totalCost) } }
}
