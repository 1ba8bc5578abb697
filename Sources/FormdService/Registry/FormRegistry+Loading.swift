import FormdCore
import FormdHTTP
import Foundation
import Logging

/// Finding, reading and installing definition files.
extension FormRegistry {
    /// Lists the folder (`<id>.json`, not sub-folders) without reading a file, and starts the
    /// background indexer (unless `indexInBackground` is false: then files are read when first
    /// needed). Returns the number of definition files found.
    @discardableResult
    package func loadAll(indexInBackground: Bool = true) -> Int {
        rescan(initial: true)
        let count = lock.withLock { entries.count }
        if indexInBackground {
            DispatchQueue.global(qos: .utility).async { [weak self] in
                self?.indexAllPending()
                // Then every kept file once (start-up only lists them): damaged ones are logged.
                self?.verifyAllKept()
            }
        }
        return count
    }

    /// Reads every file not read yet, on this thread alongside any other caller, and returns once
    /// none is left or being read.
    func indexAllPending() {
        while true {
            lock.lock()
            if pendingNext >= pendingOrder.count {
                while !inFlight.isEmpty { lock.wait() }
                pendingOrder = []
                pendingNext = 0
                lock.unlock()
                return
            }
            let id = pendingOrder[pendingNext]
            pendingNext += 1
            let stillPending = entries[id]?.pending == true
            lock.unlock()
            if stillPending { index(id, initial: true) }
        }
    }

    /// One pass over the folder: new and changed files are read (unless `initial`, which only
    /// lists them), removed ones stop serving. An idle pass is one listing and one `stat` per file.
    func rescan(initial: Bool) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: refreshContentRoot()).filter { $0.hasSuffix(".json") }
        } catch {
            if initial { logger.error("cannot read the forms folder", metadata: ["folder": "\(directory)", "error": "\(error)"]) }
            return
        }
        let verifyAll = lock.withLock { () -> Bool in
            polls += 1
            return !initial && watchMode == "poll" && polls % Self.verifyEvery == 0
        }
        // Kept versions first: a publish writes the kept file before it swaps the current one,
        // so a pass that sees the new current also holds the version it replaced.
        updateKept(names: names, initial: initial)
        var seen = Set<String>()
        for name in names {
            let id = String(name.dropLast(5))
            guard Form.isValidID(id) else {
                if KeptVersionName(fileName: name) != nil { continue }
                if initial { logger.warning("skipped: the file name is not a valid form id", metadata: ["file": "\(path(of: name))"]) }
                continue
            }
            seen.insert(id)
            if initial {
                guard let stamp = DefinitionFile.stamp(path(of: name)) else { continue }
                lock.withLock {
                    if entries[id] == nil { servingCount += 1 }
                    entries[id] = Entry(path: path(of: name), stamp: stamp)
                    pendingOrder.append(id)
                }
            } else {
                refresh(id, verify: verifyAll)
            }
        }
        if initial {
            lock.withLock { pendingOrder.sort() }
            updateGauge()
            return
        }
        let gone = lock.withLock { entries.keys.filter { !seen.contains($0) } }
        for id in gone { refresh(id, verify: false) }
    }

    /// One full pass over the folder now, as the watcher makes them (for tests and tools).
    package func rescanNow() { rescan(initial: false) }

    /// Looks at one file again: gone (stop serving it), new or changed (read it), else nothing.
    func refresh(_ id: String, verify: Bool) {
        let path = path(of: id + ".json")
        guard let stamp = DefinitionFile.stamp(path) else {
            let removed = lock.withLock { () -> Bool in
                guard let old = entries.removeValue(forKey: id) else { return false }
                cache.remove(id)
                if old.isServable { servingCount -= 1 }
                if old.good != nil { generation += 1 }
                return true
            }
            if removed {
                logger.info("form removed", metadata: ["form": "\(id)"])
                updateGauge()
            }
            return
        }
        let known = lock.withLock { entries[id] }
        if let known, known.stamp == stamp, !known.unsettled, !verify { return }
        if known == nil {
            lock.withLock {
                entries[id] = Entry(path: path, stamp: stamp)
                servingCount += 1
            }
        }
        index(id, initial: known?.pending ?? false)
    }

    /// Reads, checks and compiles one file and installs it when it compiles; a broken file is
    /// logged and the version already serving (if any) keeps serving. Safe to call from any thread.
    func index(_ id: String, initial: Bool) {
        lock.lock()
        guard let entry = entries[id], !inFlight.contains(id) else {
            // Someone else is reading it: wait for them.
            while inFlight.contains(id) { lock.wait() }
            lock.unlock()
            return
        }
        inFlight.insert(id)
        lock.unlock()
        defer {
            lock.lock()
            inFlight.remove(id)
            lock.broadcast()
            lock.unlock()
        }
        let readAt = DefinitionFile.now()
        switch DefinitionFile.read(entry.path, limit: maxFileBytes) {
        case .failure(let failure):
            let stamp = DefinitionFile.stamp(entry.path) ?? entry.stamp
            let reportedBefore = !entry.pending && entry.stamp == stamp && entry.digest == nil
            lock.withLock {
                let before = entries[id]?.isServable ?? false
                entries[id]?.stamp = stamp
                entries[id]?.digest = nil
                entries[id]?.unsettled = false
                entries[id]?.pending = false
                if before && entries[id]?.isServable == false { servingCount -= 1 }
            }
            updateGauge()
            // Reported once per change, not on every verification pass.
            if !reportedBefore {
                reject(id, path: entry.path, [Diagnostic(.error, path: "", message: failure.description)], initial: initial)
            }
        case .success(let read):
            let digest = DefinitionFile.digest(read.bytes)
            let unchanged = !entry.pending && entry.digest == digest
            // Compiled before anything is recorded, so that whoever sees the entry read also sees
            // its outcome (a request for a form being read waits in `index`).
            let form = unchanged ? nil : compileNew(id, bytes: read.bytes, path: entry.path, initial: initial)
            let replaced = lock.withLock { () -> Bool? in
                guard let before = entries[id]?.isServable else { return nil }
                defer { if before != (entries[id]?.isServable ?? false) { servingCount += before ? -1 : 1 } }
                entries[id]?.stamp = read.stamp
                entries[id]?.digest = digest
                entries[id]?.unsettled = read.stamp.changed(within: Self.settleSeconds, of: readAt)
                entries[id]?.pending = false
                guard let form else { return nil }
                let previous = entries[id]?.good
                if previous?.listing.version == form.form.version { return nil }
                generation += 1
                let listing = Listing(title: form.form.title, version: form.form.version, fields: form.form.valueFieldCount)
                entries[id]?.good = Good(
                    listing: listing, source: form.source, sourceCount: form.form.definitionJSON.count, generation: generation)
                cache.insert(id, generation: generation, form.form)
                return previous != nil
            }
            if let replaced, replaced || !initial {
                logger.info("form reloaded", metadata: ["form": "\(id)", "version": "\(form?.form.version ?? "")"])
            }
            updateGauge()
        }
    }

    /// Compiles `bytes`; the form and its served bytes gzipped when it compiles (and, with
    /// `forms.strict`, has no warnings), else nil after logging why.
    private func compileNew(_ id: String, bytes: [UInt8], path: String, initial: Bool) -> (form: Form, source: [UInt8])? {
        let form: Form
        do {
            form = try Form(id: id, json: bytes, options: options)
        } catch {
            for d in error.diagnostics where d.severity == .warning {
                logger.warning("definition warning", metadata: ["form": "\(id)", "problem": "\(d.formatted(file: path))"])
            }
            reject(id, path: path, error.diagnostics, initial: initial)
            return nil
        }
        let undeclared = form.undeclaredRemoteValidators(declared: declaredRemoteValidators)
        if !undeclared.isEmpty {
            reject(id, path: path, undeclared, initial: initial)
            return nil
        }
        // Every load of new content, at start-up and on each reload, says what is suspect.
        let warnings = form.warnings
        for d in warnings {
            logger.warning("definition warning", metadata: ["form": "\(id)", "problem": "\(d.formatted(file: path))"])
        }
        if strict, !warnings.isEmpty {
            reject(id, path: path, warnings, initial: initial, strict: true)
            return nil
        }
        return (form, Gzip.compress(form.definitionJSON, level: 6) ?? [])
    }

    func updateGauge() {
        guard let metrics else { return }
        metrics.formsLoaded(lock.withLock { servingCount })
    }

    private func reject(_ id: String, path: String, _ diagnostics: [Diagnostic], initial: Bool, strict: Bool = false) {
        if !initial { metrics?.reloadFailed() }
        let lines = diagnostics.filter { strict || $0.severity == .error }.map { $0.formatted(file: path) }
        let serving = lock.withLock { entries[id]?.good != nil }
        logger.error(
            serving ? "reload failed; the last good version keeps serving" : "form rejected; not served",
            metadata: ["form": "\(id)", "problems": "\(lines.joined(separator: "; "))"])
    }

    func path(of name: String) -> String { (contentRootLock.withLock { contentRoot ?? directory } as NSString).appendingPathComponent(name) }

    /// Looks again at whether the folder is a ConfigMap volume (one `stat` per pass, not per file).
    @discardableResult
    func refreshContentRoot() -> String {
        let root = contentDirectory
        contentRootLock.withLock { contentRoot = root }
        return root
    }

    /// Where the files are: the folder, or, in a Kubernetes ConfigMap volume, its `..data` link.
    /// The kubelet swaps `..data` to a folder with every new file first and adds the top-level
    /// link of a new key only after that, so reading through `..data` sees a new kept version
    /// (`formd publish`) in the same instant as the current definition that replaced it.
    var contentDirectory: String {
        let data = (directory as NSString).appendingPathComponent("..data")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: data, isDirectory: &isDirectory) && isDirectory.boolValue ? data : directory
    }
}
