@_spi(Engine) import FormdCore
import Foundation
import Logging

/// The served forms. Readers take an immutable `Snapshot` (one lock, one retain), so a request
/// always sees one consistent version of every form; reloads build a new snapshot and swap it in.
public final class FormRegistry: @unchecked Sendable {
    /// One consistent set of forms, with the `GET /forms` body precomputed.
    public final class Snapshot: Sendable {
        @_spi(Engine) public let forms: [String: LoadedForm]
        public let listBody: [UInt8]

        init(forms: [String: LoadedForm]) {
            self.forms = forms
            var w = JSONWriter(reservingCapacity: 64 + forms.count * 96)
            w.beginObject()
            w.key("forms")
            w.beginArray()
            for id in forms.keys.sorted() {
                let f = forms[id]!
                w.beginObject()
                w.key("id")
                w.string(id)
                w.key("title")
                w.string(f.title)
                w.key("version")
                w.string(f.version)
                w.key("fields")
                w.number(f.plan.valueFieldCount)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            listBody = w.bytes
        }
    }

    /// What is known of one file: its stamp when last read and a digest of the bytes read.
    struct FileState {
        var stamp: DefinitionFile.Stamp
        /// nil: the file could not be read (over the size limit, unreadable).
        var digest: UInt64?
        /// Changed so shortly before it was read that a same-size rewrite within the same
        /// timestamp tick would leave the stamp unchanged: read again on the next poll.
        var unsettled: Bool
    }

    /// Every this many polls each file is read and hashed even when its stamp is unchanged
    /// (a safety net for file systems whose ctime cannot be trusted; ~1 min at the 1 s poll).
    static let verifyEvery = 60
    /// A file changed less than this before it was read is read once more (coarse timestamps).
    static let settleSeconds = 0.1

    public let directory: String
    /// `forms.max_file_bytes`: larger files are refused before a byte of them is read.
    public let maxFileBytes: Int
    /// `forms.strict`: a definition with warnings is refused like one with errors.
    public let strict: Bool
    let logger: Logger
    let metrics: ServiceMetrics?
    private let lock = NSLock()
    private var current = Snapshot(forms: [:])
    private var files: [String: FileState] = [:]
    private var polls = 0
    private var watcher: DispatchSourceTimer?

    public init(
        directory: String, maxFileBytes: Int = DefinitionFile.defaultMaxBytes, strict: Bool = false, logger: Logger,
        metrics: ServiceMetrics? = nil
    ) {
        self.directory = directory
        self.maxFileBytes = maxFileBytes
        self.strict = strict
        self.logger = logger
        self.metrics = metrics
    }

    public var snapshot: Snapshot {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    @_spi(Engine) public func form(_ id: String) -> LoadedForm? { snapshot.forms[id] }

    /// Loads every `<id>.json` of the folder (not sub-folders); broken files are logged and
    /// skipped, the rest served. Returns the number of forms loaded.
    @discardableResult
    public func loadAll() -> Int {
        rescan(initial: true)
        return snapshot.forms.count
    }

    /// Polls the folder every `interval` seconds on a background queue: changed files are checked
    /// and swapped in; a broken edit keeps the last good version; a removed file stops being served.
    public func startWatching(interval: Double = 1) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "formd.registry.watch"))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.rescan(initial: false) }
        lock.lock()
        watcher = timer
        lock.unlock()
        timer.resume()
    }

    public func stopWatching() {
        lock.lock()
        let w = watcher
        watcher = nil
        lock.unlock()
        w?.cancel()
    }

    /// One pass over the folder. Only the watcher queue (or the initial load) calls this.
    ///
    /// A file is read only when its stamp (device, inode, size, mtime, ctime) changed, when it was
    /// unsettled at its last read, or on every `verifyEvery`th poll; it is compiled only when the
    /// digest of its bytes differs from the last read. An idle poll is one directory listing and
    /// one `stat` per file.
    func rescan(initial: Bool) {
        let fm = FileManager.default
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            if initial { logger.error("cannot read the forms folder", metadata: ["folder": "\(directory)", "error": "\(error)"]) }
            return
        }
        polls += 1
        let verifyAll = !initial && polls % Self.verifyEvery == 0
        var forms = snapshot.forms
        var seen = Set<String>()
        var changed = false
        for name in names {
            let id = String(name.dropLast(5))
            let path = (directory as NSString).appendingPathComponent(name)
            guard FormLoader.isValidID(id) else {
                if initial { logger.warning("skipped: the file name is not a valid form id", metadata: ["file": "\(path)"]) }
                continue
            }
            guard let stamp = DefinitionFile.stamp(path) else { continue }
            seen.insert(id)
            let known = files[id]
            if let known, known.stamp == stamp, !known.unsettled, !verifyAll { continue }
            let readAt = DefinitionFile.now()
            let bytes: [UInt8]
            switch DefinitionFile.read(path, limit: maxFileBytes) {
            case .failure(let failure):
                files[id] = FileState(stamp: stamp, digest: nil, unsettled: false)
                // Reported once per change, not on every verification pass.
                if known == nil || known?.stamp != stamp || known?.digest != nil {
                    reject(id, path: path, [Diagnostic(.error, path: "", message: failure.description)], initial: initial)
                }
                continue
            case .success(let read):
                bytes = read.bytes
                let digest = DefinitionFile.digest(bytes)
                files[id] = FileState(
                    stamp: read.stamp, digest: digest,
                    unsettled: read.stamp.changed(within: Self.settleSeconds, of: readAt))
                if known?.digest == digest { continue }
            }
            let result = FormLoader.load(id: id, bytes: bytes)
            // Every load of new content, at start-up and on each reload, says what is suspect.
            let warnings = result.diagnostics.filter { $0.severity == .warning }
            for d in warnings {
                logger.warning("definition warning", metadata: ["form": "\(id)", "problem": "\(d.formatted(file: path))"])
            }
            if strict, result.form != nil, !warnings.isEmpty {
                reject(id, path: path, warnings, initial: initial, strict: true)
            } else if let form = result.form {
                if forms[id]?.version != form.version {
                    forms[id] = form
                    changed = true
                    if !initial { logger.info("form reloaded", metadata: ["form": "\(id)", "version": "\(form.version)"]) }
                }
            } else {
                reject(id, path: path, result.diagnostics, initial: initial)
            }
        }
        for id in forms.keys where !seen.contains(id) {
            forms[id] = nil
            changed = true
            logger.info("form removed", metadata: ["form": "\(id)"])
        }
        for id in files.keys where !seen.contains(id) { files[id] = nil }
        if changed || initial {
            let next = Snapshot(forms: forms)
            lock.lock()
            current = next
            lock.unlock()
            metrics?.formsLoaded(forms.count)
        }
    }

    private func reject(_ id: String, path: String, _ diagnostics: [Diagnostic], initial: Bool, strict: Bool = false) {
        if !initial { metrics?.reloadFailed() }
        let lines = diagnostics.filter { strict || $0.severity == .error }.map { $0.formatted(file: path) }
        logger.error(
            initial ? "form rejected; not served" : "reload failed; the last good version keeps serving",
            metadata: ["form": "\(id)", "problems": "\(lines.joined(separator: "; "))"])
    }
}
