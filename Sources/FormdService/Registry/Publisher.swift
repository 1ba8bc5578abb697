import FormdCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `formd publish NEW --forms DIR`: checks a new definition, keeps the one it replaces as a kept
/// version (KeptVersion.swift) and puts the new one in place, each file written to a temporary
/// name and renamed, so a reader (a replica watching the folder) sees the old or the new, never
/// half a file; the kept file lands before the current one changes. A definition that fails its
/// check, or its breaking-change lint without `allow`, changes nothing on disk.
package enum Publisher {
    /// Kept versions per form when neither `--keep` nor the definition's `keep_versions` says.
    package static let defaultKeep = 10

    package struct Outcome: Sendable {
        package let id: String
        package let version: String
        /// The version it replaced (nil: a new form, or the same version again).
        package let replaced: String?
        /// The kept file written for the replaced version (nil when it was already kept).
        package let keptFile: String?
        /// Kept files removed past `keep`.
        package let pruned: [String]
        /// The definition was already current: nothing written.
        package let unchanged: Bool
        /// Warnings of the new definition and of the lint (with `allow`, the breaking changes).
        package let warnings: [String]
    }

    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    package static func publish(
        definition file: String, forms dir: String, id explicitID: String? = nil, keep explicitKeep: Int? = nil, allow: Bool = false,
        maxFileBytes: Int = DefinitionFile.defaultMaxBytes, now: Date = Date()
    ) throws(Failure) -> Outcome {
        let id = explicitID ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        guard Form.isValidID(id) else {
            throw Failure(description: "\"\(id)\" is not a valid form id (letters, digits, _ and -; name the file <id>.json or pass --id)")
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw Failure(description: "\(dir): not a folder")
        }
        let bytes: [UInt8]
        switch DefinitionFile.read(file, limit: maxFileBytes) {
        case .failure(let f): throw Failure(description: "\(file): \(f)")
        case .success(let read): bytes = read.bytes
        }
        let new: Form
        do {
            new = try Form(id: id, json: bytes)
        } catch {
            throw Failure(description: error.diagnostics.map { $0.formatted(file: file) }.joined(separator: "\n"))
        }
        // `--keep` wins; else what the new definition says; else the default.
        let keep = explicitKeep ?? new.keepVersions ?? defaultKeep
        var warnings = new.warnings.map { $0.formatted(file: file) }
        let currentPath = (dir as NSString).appendingPathComponent(id + ".json")
        var old: (form: Form, bytes: [UInt8], modified: Date)?
        if case .success(let read) = DefinitionFile.read(currentPath, limit: maxFileBytes) {
            if let form = try? Form(id: id, json: read.bytes) {
                let modified = (try? FileManager.default.attributesOfItem(atPath: currentPath))?[.modificationDate] as? Date ?? now
                old = (form, read.bytes, modified)
            } else {
                warnings.append("\(currentPath): the current definition does not load; it is replaced and not kept")
            }
        }
        if let old, old.form.version == new.version {
            return Outcome(id: id, version: new.version, replaced: nil, keptFile: nil, pruned: [], unchanged: true, warnings: warnings)
        }
        if let old {
            let lint = BreakingChanges.lint(old: old.form, new: new, allow: allow, newBytes: bytes)
            let errors = lint.filter { $0.severity == .error }
            if !errors.isEmpty {
                throw Failure(
                    description: errors.map { $0.formatted(file: file) }.joined(separator: "\n")
                        + "\nnothing published: \(errors.count) breaking change\(errors.count == 1 ? "" : "s") against \(old.form.version); --allow publishes anyway")
            }
            warnings += lint.map { $0.formatted(file: file) }
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).compactMap(KeptVersionName.init(fileName:))
            .filter { $0.id == id }
        var keptFile: String?
        if let old {
            let hash = String(old.form.version.dropFirst().dropLast())
            if !names.contains(where: { $0.hash == hash }) {
                let name = KeptVersionName(id: id, published: KeptVersionName.stamp(old.modified), hash: hash)
                try write(old.bytes, to: (dir as NSString).appendingPathComponent(name.fileName))
                keptFile = name.fileName
            }
        }
        try write(bytes, to: currentPath)
        // Rolled back to a kept version: it is current now, not kept.
        let newHash = String(new.version.dropFirst().dropLast())
        var pruned: [String] = []
        for name in names where name.hash == newHash {
            unlink((dir as NSString).appendingPathComponent(name.fileName))
            pruned.append(name.fileName)
        }
        // Newest first: by when each was published, then by when it was replaced (its file's time).
        func replaced(_ n: KeptVersionName) -> Date {
            (try? FileManager.default.attributesOfItem(atPath: (dir as NSString).appendingPathComponent(n.fileName)))?[.modificationDate] as? Date
                ?? .distantPast
        }
        let kept = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).compactMap(KeptVersionName.init(fileName:))
            .filter { $0.id == id }.map { ($0, replaced($0)) }
            .sorted { a, b in a.0.published != b.0.published ? a.0.published > b.0.published : a.1 > b.1 }.map(\.0)
        for name in kept.dropFirst(max(0, keep)) {
            unlink((dir as NSString).appendingPathComponent(name.fileName))
            pruned.append(name.fileName)
        }
        syncDirectory(dir)
        return Outcome(
            id: id, version: new.version, replaced: old?.form.version, keptFile: keptFile, pruned: pruned, unchanged: false, warnings: warnings)
    }

    /// Writes `bytes` to a temporary file in the same folder, flushes it, and renames it over `path`.
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let dir = (path as NSString).deletingLastPathComponent
        let temp = (dir as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).tmp")
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "\(temp): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        do {
            try handle.write(contentsOf: Data(bytes))
        } catch {
            close(fd)
            unlink(temp)
            throw Failure(description: "\(temp): \(error)")
        }
        fsync(fd)
        close(fd)
        guard rename(temp, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            throw Failure(description: "\(path): \(message)")
        }
    }

    static func syncDirectory(_ dir: String) {
        let fd = open(dir, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
