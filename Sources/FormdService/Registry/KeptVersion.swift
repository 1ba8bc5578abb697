import FormdCore
import Foundation

/// A kept (earlier) version of a form: a flat file next to the current one, named
/// `<id>.<published>.<hash>.json`, where `published` is when that version became current
/// (`20261126T203252Z`, UTC) and `hash` the 32 hex digits of its version (the strong ETag of its
/// bytes). Flat, because a Kubernetes ConfigMap volume has no sub-folders; and only `[A-Za-z0-9._-]`,
/// the characters a ConfigMap key may have. A form id has no `.`, so a kept file is never taken
/// for a form. The bytes are the file as it was when current, so the version it answers with is
/// exactly the one it had; a kept file whose bytes do not hash to its name (damaged, edited by
/// hand) is refused.
package struct KeptVersionName: Sendable, Hashable, Comparable {
    package let id: String
    /// `YYYYMMDDTHHMMSSZ`.
    package let published: String
    /// 32 lowercase hex digits.
    package let hash: String

    package init(id: String, published: String, hash: String) {
        self.id = id
        self.published = published
        self.hash = hash
    }

    /// The version it answers with: `"<hash>"`.
    package var version: String { "\"" + hash + "\"" }
    package var fileName: String { "\(id).\(published).\(hash).json" }
    /// `2026-11-26T20:32:52Z`.
    package var publishedISO: String {
        let c = Array(published)
        return String(c[0..<4]) + "-" + String(c[4..<6]) + "-" + String(c[6..<8]) + "T" + String(c[9..<11]) + ":"
            + String(c[11..<13]) + ":" + String(c[13..<15]) + "Z"
    }

    /// Parses a file name; nil when it is not a kept version's.
    package init?(fileName name: String) {
        guard name.hasSuffix(".json"), name.utf8.count <= 200 else { return nil }
        let parts = name.dropLast(5).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, Form.isValidID(String(parts[0])), Self.isStamp(parts[1]), Self.isHash(parts[2]) else { return nil }
        self.init(id: String(parts[0]), published: String(parts[1]), hash: String(parts[2]))
    }

    static func isStamp(_ s: Substring) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 16, u[8] == UInt8(ascii: "T"), u[15] == UInt8(ascii: "Z") else { return false }
        return u.enumerated().allSatisfy { i, c in i == 8 || i == 15 || (c >= 0x30 && c <= 0x39) }
    }

    package static func isHash(_ s: Substring) -> Bool {
        s.utf8.count == 32 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The hash of a version tag (`"<32 hex>"`, or a per-language variant's `"<32 hex>-nb"`), or
    /// nil when the tag is not one formd makes. Bounded: looks at 48 bytes at most.
    package static func hash(ofVersion tag: Substring) -> String? {
        let u = tag.utf8
        guard u.count >= 34, u.count <= 48, u.first == UInt8(ascii: "\""), u.last == UInt8(ascii: "\"") else { return nil }
        let inner = tag.dropFirst().dropLast()
        let hex = inner.prefix(32)
        guard isHash(hex) else { return nil }
        let rest = inner.dropFirst(32)
        guard rest.isEmpty || (rest.first == "-" && rest.count <= 12) else { return nil }
        return String(hex)
    }

    /// `date` as a stamp, UTC.
    package static func stamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        gmtime_r(&t, &tm)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour),
            Int(tm.tm_min), Int(tm.tm_sec))
    }

    /// Newest first.
    package static func < (a: Self, b: Self) -> Bool { (a.published, a.hash) > (b.published, b.hash) }

    /// Reads and compiles a kept file; the form, or the problems with `file:line:col` (a hash that
    /// does not match the bytes is an error at 1:1).
    /// With `declaredRemote`, a version whose remote rules name a validator not declared there is
    /// refused as a current definition would be (nil: not checked, as `formd check` without `--config`).
    package static func load(
        path: String, name: KeptVersionName, maxFileBytes: Int, options: EvaluationOptions, declaredRemote: Set<String>? = nil
    ) -> Result<Form, KeptVersionError> {
        switch DefinitionFile.read(path, limit: maxFileBytes) {
        case .failure(let failure): return .failure(KeptVersionError(diagnostics: [Diagnostic(.error, path: "", message: failure.description)]))
        case .success(let read):
            do {
                let form = try Form(id: name.id, json: read.bytes, options: options)
                guard form.version == name.version else {
                    return .failure(KeptVersionError(diagnostics: [
                        Diagnostic(
                            .error, path: "",
                            message: "a kept version's bytes must hash to its name: this file is version \(form.version), not \(name.version) (damaged or edited by hand; kept versions are written by `formd publish` and never edited)")
                    ]))
                }
                if let declaredRemote {
                    let undeclared = form.undeclaredRemoteValidators(declared: declaredRemote)
                    if !undeclared.isEmpty { return .failure(KeptVersionError(diagnostics: undeclared)) }
                }
                return .success(form)
            } catch {
                return .failure(KeptVersionError(diagnostics: error.diagnostics.filter { $0.severity == .error }))
            }
        }
    }
}

/// Why a kept file cannot serve.
package struct KeptVersionError: Error, Sendable {
    package let diagnostics: [Diagnostic]
}

/// The fields added, removed and changed between two versions of a form (`changed_since`).
package struct FieldChanges: Sendable, Equatable {
    package var added: [String] = []
    package var removed: [String] = []
    package var changed: [String] = []

    package var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// From `old` to `new`, in `new`'s field order (removed ones in `old`'s).
    package init(from old: Form, to new: Form) {
        let before = Dictionary(old.fieldSummaries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let after = new.fieldSummaries
        let afterIDs = Set(after.map(\.id))
        for f in after {
            if let b = before[f.id] {
                if b.definition != f.definition { changed.append(f.id) }
            } else {
                added.append(f.id)
            }
        }
        removed = old.fieldSummaries.map(\.id).filter { !afterIDs.contains($0) }
    }

    package init() {}

    /// `{"added":[...],"removed":[...],"changed":[...]}`.
    package func write(into w: inout JSONWriter) {
        w.beginObject()
        for (key, ids) in [("added", added), ("removed", removed), ("changed", changed)] {
            w.key(key)
            w.beginArray()
            for id in ids { w.string(id) }
            w.endArray()
        }
        w.endObject()
    }
}

/// Changes from one version of a form to the next that break data already stored or in flight
/// (`formd publish`, `formd check --against`): a field's type changed, an option id removed or
/// given another title, a required field added without a default. Each an error (a warning with
/// `allow`), located at the field in the new definition.
package enum BreakingChanges {
    /// `newBytes`: the new definition's bytes, to locate each problem at its field (`file:line:col`).
    package static func lint(old: Form, new: Form, allow: Bool = false, newBytes: [UInt8]? = nil) -> [Diagnostic] {
        let document = newBytes.flatMap { try? JSONParser.parse($0, options: .definition) }
        func located(_ d: Diagnostic) -> Diagnostic {
            guard let at = document?.location(of: d.path) else { return d }
            return Diagnostic(d.severity, path: d.path, message: d.message, line: at.line, column: at.column)
        }
        return lintUnlocated(old: old, new: new, allow: allow).map(located)
    }

    static func lintUnlocated(old: Form, new: Form, allow: Bool) -> [Diagnostic] {
        let severity: Diagnostic.Severity = allow ? .warning : .error
        let before = Dictionary(old.fieldSummaries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let afterIDs = Set(new.fieldSummaries.map(\.id))
        var out: [Diagnostic] = []
        for f in new.fieldSummaries {
            guard let b = before[f.id] else {
                if f.holdsValue && f.isRequired && !f.hasDefault {
                    out.append(
                        Diagnostic(
                            severity, path: f.path,
                            message: "breaking: the new required field \"\(f.id)\" has no default, so submissions made with the earlier version (which never had it) are invalid under this one; give it a `value` or make it optional"))
                }
                continue
            }
            if (b.type ?? "text") != (f.type ?? "text") {
                out.append(
                    Diagnostic(
                        severity, path: f.path,
                        message: "breaking: the field \"\(f.id)\" was of type \(b.type ?? "text") and is \(f.type ?? "text") now; stored values may not read as the new type; use a new field id"))
            }
            let newOptions = Dictionary(f.options.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
            for o in b.options {
                if let title = newOptions[o.id] {
                    if title != o.title {
                        out.append(
                            Diagnostic(
                                severity, path: f.path,
                                message: "breaking: the option \(o.id) of \"\(f.id)\" now has another title, so stored answers that chose it would mean something else; give the new meaning a new option id"))
                    }
                } else {
                    out.append(
                        Diagnostic(
                            severity, path: f.path,
                            message: "breaking: the option \(o.id) of \"\(f.id)\" was removed; stored and in-flight submissions that chose it are invalid now"))
                }
            }
            if !b.isRequired && f.isRequired && !f.hasDefault && f.holdsValue {
                out.append(
                    Diagnostic(
                        severity, path: f.path,
                        message: "breaking: \"\(f.id)\" is required now and has no default; submissions made with the earlier version without it are invalid under this one"))
            }
        }
        for id in old.fieldSummaries.map(\.id) where !afterIDs.contains(id) {
            // Removing a field loses nothing already stored; worth a note, not an error.
            out.append(Diagnostic(.warning, path: "", message: "the field \"\(id)\" was removed; submissions that still send it get it ignored"))
        }
        return out
    }
}
