import FormdCore
import Foundation

/// Noticing changed files: inotify where it can be set up (changes served within milliseconds,
/// no cost while idle), else a poll.
extension FormRegistry {
    /// With inotify, a full `stat` pass this often catches what the notifications cannot
    /// (a file changed through a hard link elsewhere, a lost event).
    static let safetyPassSeconds = 30.0
    /// Events within this window are handled together (an editor's save is several).
    static let debounceSeconds = 0.01

    /// Starts noticing changes: `mode` `.auto` takes inotify when it can be set up, else polls
    /// every `pollInterval` seconds. Returns the mode used; `.inotify` when it cannot be set up
    /// throws.
    @discardableResult
    package func startWatching(mode: FormWatchMode = .auto, pollInterval: Double = 1) throws -> FormWatchMode {
        let queue = DispatchQueue(label: "formd.registry.watch")
        if mode != .poll {
            let changed = ChangeBatch()
            let watcher = makeDirectoryWatcher(queue: queue) { [weak self] names, gone in
                guard let self else { return }
                if gone {
                    // The folder was moved or deleted: inotify watches nothing now; poll instead.
                    self.logger.warning("the forms folder was moved or deleted; watching it by polling", metadata: ["folder": "\(self.directory)"])
                    self.lock.withLock { self.watcher?.cancel(); self.watcher = nil }
                    self.startPolling(queue: queue, interval: pollInterval)
                    self.rescan(initial: false)
                    return
                }
                guard changed.add(names) else { return }
                queue.asyncAfter(deadline: .now() + Self.debounceSeconds) { [weak self] in
                    guard let self else { return }
                    switch changed.take() {
                    case .none: break
                    case .some(nil): self.rescan(initial: false)
                    case .some(let names?):
                        // Another name changed (a Kubernetes ConfigMap swaps its `..data` link, and
                        // the `*.json` links then point at new files): look at every file.
                        if names.contains(where: { !$0.hasSuffix(".json") }) {
                            self.rescan(initial: false)
                            return
                        }
                        if names.contains(where: { KeptVersionName(fileName: $0) != nil }) { self.rescanKept() }
                        for name in names {
                            let id = String(name.dropLast(5))
                            if Form.isValidID(id) { self.refresh(id, verify: false) }
                        }
                    }
                }
            }
            if let watcher {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + Self.safetyPassSeconds, repeating: Self.safetyPassSeconds, leeway: .seconds(1))
                timer.setEventHandler { [weak self] in self?.rescan(initial: false) }
                lock.withLock {
                    self.watcher = watcher
                    pollTimer = timer
                    watchMode = "inotify"
                }
                timer.resume()
                return .inotify
            }
            if mode == .inotify { throw WatchError(directory: directory) }
        }
        startPolling(queue: queue, interval: pollInterval)
        return .poll
    }

    private func startPolling(queue: DispatchQueue, interval: Double) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.rescan(initial: false) }
        let old = lock.withLock { () -> DispatchSourceTimer? in
            let old = pollTimer
            pollTimer = timer
            watchMode = "poll"
            return old
        }
        old?.cancel()
        timer.resume()
    }

    package func stopWatching() {
        let (w, t) = lock.withLock { () -> ((any DirectoryWatcher)?, DispatchSourceTimer?) in
            defer {
                watcher = nil
                pollTimer = nil
                watchMode = "none"
            }
            return (watcher, pollTimer)
        }
        w?.cancel()
        t?.cancel()
    }

    struct WatchError: Error, CustomStringConvertible {
        let directory: String
        var description: String { "forms.watch: inotify cannot watch \(directory) (use \"auto\" or \"poll\")" }
    }
}

/// Names reported by the watcher and not handled yet; nil inside means "everything".
private final class ChangeBatch: @unchecked Sendable {
    private let lock = NSLock()
    private var names: Set<String>? = []
    private var scheduled = false

    /// Adds to the batch; true when the caller must schedule its handling.
    func add(_ more: [String]?) -> Bool {
        lock.withLock {
            if let more { names?.formUnion(more) } else { names = nil }
            if scheduled { return false }
            scheduled = true
            return true
        }
    }

    /// The batch, emptied: `.some(nil)` for everything.
    func take() -> [String]?? {
        lock.withLock {
            scheduled = false
            defer { names = [] }
            if let n = names { return n.isEmpty ? .none : .some(n.sorted()) }
            return .some(nil)
        }
    }
}
