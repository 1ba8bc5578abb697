import FormdCore
import FormdHTTP
import Foundation
import Logging

/// One kept version file (KeptVersion.swift).
struct KeptEntry: Sendable {
    let name: KeptVersionName
    let path: String
    var stamp: DefinitionFile.Stamp?
    /// Read and refused (damaged, edited by hand): not held until the file changes.
    var refused = false
}

/// A digest of what a replica serves: every form's current version and the versions it keeps.
/// Two replicas with the same digest answer every request alike; during a rollout the digests
/// tell the replicas apart.
package struct FormsDigest: Sendable, Equatable {
    /// 32 hex digits.
    package let value: String
    /// Forms served (current versions).
    package let forms: Int
    /// Versions held: current plus kept.
    package let versions: Int
    /// False while some file has not been read yet (start-up indexing): the digest may still change.
    package let complete: Bool
}

/// What a request for one version of a form finds.
package enum VersionLookup {
    /// The version that serves now (also for `*` and for no version asked).
    case current(Form)
    /// A kept version, and the current one.
    case kept(Form, current: Form)
    /// The version asked for is not held here: not current, not kept (or its file was refused).
    case notHeld(current: Form)
    /// No such form.
    case noForm
}

extension FormRegistry {
    /// The cache key of a kept version: has a `.`, so it is never a form id.
    static func cacheKey(_ name: KeptVersionName) -> String { name.id + "." + name.hash }

    /// Notices kept files added and removed (the names of the folder's `*.json` files).
    func updateKept(names: [String], initial: Bool) {
        var found: [String: [KeptEntry]] = [:]
        for name in names {
            guard let kept = KeptVersionName(fileName: name) else { continue }
            let p = path(of: name)
            // Start-up only lists (no `stat`): `verifyAllKept` reads each file after the indexer.
            found[kept.id, default: []].append(KeptEntry(name: kept, path: p, stamp: initial ? nil : DefinitionFile.stamp(p)))
        }
        for id in found.keys { found[id]!.sort { $0.name < $1.name } }
        var fresh: [KeptEntry] = []
        let changed = lock.withLock { () -> Bool in
            // A file that did not change keeps what is known of it (refused or not).
            for (id, list) in found {
                let before = Dictionary((kept[id] ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
                found[id] = list.map { e in
                    // A stamp never taken (start-up) is taken now, not a change.
                    if let old = before[e.name], old.stamp == e.stamp || old.stamp == nil {
                        var kept = old
                        kept.stamp = e.stamp
                        return kept
                    }
                    return e
                }
            }
            let oldNames = Set(kept.values.flatMap { $0.map(\.name) })
            let newNames = Set(found.values.flatMap { $0.map(\.name) })
            let stampsChanged = found.contains { id, list in
                let before = kept[id] ?? []
                return list.count != before.count || zip(list, before).contains { $0.stamp != $1.stamp && $1.stamp != nil }
            }
            guard oldNames != newNames || stampsChanged else { return false }
            for gone in oldNames.subtracting(newNames) { cache.remove(Self.cacheKey(gone)) }
            // A kept file whose bytes changed is read again (its compiled form may be stale).
            for (id, list) in found {
                let before = Dictionary((kept[id] ?? []).map { ($0.name, $0.stamp) }, uniquingKeysWith: { a, _ in a })
                for e in list where before[e.name] != nil && before[e.name]! != e.stamp { cache.remove(Self.cacheKey(e.name)) }
            }
            let known = Dictionary(kept.values.flatMap { $0 }.map { ($0.name, $0.stamp) }, uniquingKeysWith: { a, _ in a })
            fresh = initial ? [] : found.values.flatMap { $0 }.filter { e in known[e.name].map { $0 != nil && $0 != e.stamp } ?? true }
            kept = found
            generation += 1
            return true
        }
        // New and changed kept files are checked in the background (not compiled into the cache),
        // so a damaged one is logged with `file:line:col` when it appears, not when first asked for.
        if changed && !fresh.isEmpty {
            let check = fresh
            DispatchQueue.global(qos: .utility).async { [weak self] in
                for e in check { self?.verifyKept(e) }
            }
        }
        if changed && !initial {
            logger.info("kept versions changed", metadata: ["versions": "\(lock.withLock { kept.values.reduce(0) { $0 + $1.count } })"])
        }
    }

    /// Reads every kept file once (after start-up indexing), taking its stamp and refusing the
    /// damaged ones.
    func verifyAllKept() {
        let all = lock.withLock { kept.values.flatMap { $0 } }
        for e in all {
            let stamp = DefinitionFile.stamp(e.path)
            lock.withLock {
                if let i = kept[e.name.id]?.firstIndex(where: { $0.name == e.name }), kept[e.name.id]![i].stamp == nil {
                    kept[e.name.id]![i].stamp = stamp
                }
            }
            verifyKept(KeptEntry(name: e.name, path: e.path, stamp: stamp))
        }
    }

    /// Reads and checks one kept file without caching it; refuses (and logs) it when damaged.
    func verifyKept(_ entry: KeptEntry) {
        guard lock.withLock({ kept[entry.name.id]?.contains { $0.name == entry.name && !$0.refused && $0.stamp == entry.stamp } == true })
        else { return }
        if case .failure(let error) = KeptVersionName.load(path: entry.path, name: entry.name, maxFileBytes: maxFileBytes, options: options, declaredRemote: declaredRemoteValidators) {
            refuseKept(entry, error)
        }
    }

    func refuseKept(_ entry: KeptEntry, _ error: KeptVersionError) {
        let id = entry.name.id
        let first = lock.withLock { () -> Bool in
            guard let i = kept[id]?.firstIndex(where: { $0.name == entry.name }), kept[id]![i].refused == false else { return false }
            kept[id]![i].refused = true
            cache.remove(Self.cacheKey(entry.name))
            generation += 1
            return true
        }
        guard first else { return }
        metrics?.reloadFailed()
        logger.error(
            "kept version refused; not held",
            metadata: [
                "form": "\(id)", "version": "\(entry.name.version)",
                "problems": "\(error.diagnostics.map { $0.formatted(file: entry.path) }.joined(separator: "; "))",
            ])
    }

    /// A pass over the kept files only (the watcher saw one change).
    func rescanKept() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: contentDirectory).filter({ $0.hasSuffix(".json") }) else { return }
        updateKept(names: names, initial: false)
    }

    /// When the current version of `id` was put in place (its file's modification time), ISO 8601.
    package func currentPublished(_ id: String) -> String? {
        guard let path = lock.withLock({ entries[id]?.path }), let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let date = attributes[.modificationDate] as? Date
        else { return nil }
        let stamp = KeptVersionName(id: id, published: KeptVersionName.stamp(date), hash: String(repeating: "0", count: 32))
        return stamp.publishedISO
    }

    /// The kept versions of `id` that may serve (not refused), newest first.
    package func keptVersions(_ id: String) -> [KeptVersionName] {
        lock.withLock { (kept[id] ?? []).filter { !$0.refused }.map(\.name) }
    }

    /// The versions of `id` held here: the current one first, then the kept ones, newest first.
    package func heldVersions(_ id: String, current: Form) -> [String] {
        [current.version] + keptVersions(id).map(\.version).filter { $0 != current.version }
    }

    /// The compiled form of a kept version: cached like any form (the same LRU), else read,
    /// checked against its name and compiled. nil when not kept, or refused (logged with
    /// `file:line:col` once; the rest keeps serving).
    package func keptForm(_ id: String, hash: String) -> Form? {
        lock.lock()
        guard let entry = kept[id]?.first(where: { $0.name.hash == hash }), !entry.refused else {
            lock.unlock()
            return nil
        }
        let key = Self.cacheKey(entry.name)
        if let form = cache.current(key) {
            lock.unlock()
            return form
        }
        lock.unlock()
        switch KeptVersionName.load(path: entry.path, name: entry.name, maxFileBytes: maxFileBytes, options: options, declaredRemote: declaredRemoteValidators) {
        case .success(let form):
            lock.withLock {
                if kept[id]?.contains(where: { $0.name == entry.name && !$0.refused }) == true { cache.insert(key, generation: 0, form) }
            }
            return form
        case .failure(let error):
            refuseKept(entry, error)
            return nil
        }
    }

    /// The form `id` in the version an `If-Match` list (or `?version=`) names: the current one
    /// when listed (or `*`), else the first kept version listed. Bounded: each tag is a hash
    /// lookup, and callers cap the list.
    package func form(_ id: String, versions tags: [Substring]) -> VersionLookup {
        guard let current = form(id) else { return .noForm }
        if tags.contains(where: { $0 == "*" || current.isVersion(String($0)) }) { return .current(current) }
        for tag in tags {
            guard let hash = KeptVersionName.hash(ofVersion: tag), let form = keptForm(id, hash: hash) else { continue }
            if form.isVersion(String(tag)) { return .kept(form, current: current) }
        }
        return .notHeld(current: current)
    }

    /// The digest of the form set: sorted `(id, version)` of every current form and kept version.
    package func formsDigest() -> FormsDigest {
        lock.lock()
        defer { lock.unlock() }
        // While start-up indexing runs (incomplete), a digest is reused for a quarter second: it is
        // in every answer's header, and each computation sorts every form's line.
        let now = DispatchTime.now().uptimeNanoseconds
        if let cached = digestCache, cached.generation == generation,
            cached.value.complete || now &- cached.at < 250_000_000
        {
            return cached.value
        }
        var lines: [String] = []
        var complete = true
        var forms = 0
        for (id, e) in entries {
            if e.pending { complete = false }
            guard let good = e.good else { continue }
            forms += 1
            lines.append(id + " " + good.listing.version)
        }
        for (id, list) in kept where entries[id]?.good != nil {
            for e in list where !e.refused && e.name.version != entries[id]?.good?.listing.version {
                lines.append(id + " " + e.name.version)
            }
        }
        lines.sort()
        let tag = ETag.strong(of: Array(lines.joined(separator: "\n").utf8))
        let value = FormsDigest(value: String(tag.dropFirst().dropLast()), forms: forms, versions: lines.count, complete: complete)
        digestCache = (generation, now, value)
        return value
    }
}
