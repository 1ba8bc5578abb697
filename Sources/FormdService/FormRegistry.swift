import FormdCore
import Foundation
import Logging

/// The served forms. Readers take an immutable `Snapshot` (one lock, one retain), so a request
/// always sees one consistent version of every form; reloads build a new snapshot and swap it in.
public final class FormRegistry: @unchecked Sendable {
    /// One consistent set of forms, with the `GET /forms` body precomputed.
    public final class Snapshot: Sendable {
        public let forms: [String: LoadedForm]
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

    /// What is known of one file, to notice changes cheaply.
    struct FileStamp: Equatable {
        var modified: TimeInterval
        var size: Int
        var inode: Int
    }

    public let directory: String
    let logger: Logger
    let metrics: ServiceMetrics?
    private let lock = NSLock()
    private var current = Snapshot(forms: [:])
    private var stamps: [String: FileStamp] = [:]
    private var watcher: DispatchSourceTimer?

    public init(directory: String, logger: Logger, metrics: ServiceMetrics? = nil) {
        self.directory = directory
        self.logger = logger
        self.metrics = metrics
    }

    public var snapshot: Snapshot {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func form(_ id: String) -> LoadedForm? { snapshot.forms[id] }

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
    func rescan(initial: Bool) {
        let fm = FileManager.default
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            if initial { logger.error("cannot read the forms folder", metadata: ["folder": "\(directory)", "error": "\(error)"]) }
            return
        }
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
            guard let stamp = Self.stamp(path) else { continue }
            seen.insert(id)
            if stamps[id] == stamp { continue }
            stamps[id] = stamp
            guard let data = fm.contents(atPath: path) else { continue }
            let result = FormLoader.load(id: id, bytes: Array(data))
            for d in result.diagnostics where d.severity == .warning && initial {
                logger.debug("\(d.formatted(file: path))")
            }
            if let form = result.form {
                if forms[id]?.version != form.version {
                    forms[id] = form
                    changed = true
                    if !initial { logger.info("form reloaded", metadata: ["form": "\(id)", "version": "\(form.version)"]) }
                }
            } else {
                if !initial { metrics?.reloadFailed() }
                let lines = result.diagnostics.filter { $0.severity == .error }.map { $0.formatted(file: path) }
                logger.error(
                    initial ? "form rejected; not served" : "reload failed; the last good version keeps serving",
                    metadata: ["form": "\(id)", "problems": "\(lines.joined(separator: "; "))"])
            }
        }
        for id in forms.keys where !seen.contains(id) {
            forms[id] = nil
            stamps[id] = nil
            changed = true
            logger.info("form removed", metadata: ["form": "\(id)"])
        }
        for id in stamps.keys where !seen.contains(id) { stamps[id] = nil }
        if changed || initial {
            let next = Snapshot(forms: forms)
            lock.lock()
            current = next
            lock.unlock()
            metrics?.formsLoaded(forms.count)
        }
    }

    static func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        return FileStamp(modified: modified, size: Int(st.st_size), inode: Int(st.st_ino))
    }
}
