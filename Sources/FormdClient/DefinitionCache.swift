import FormdCore
import Foundation

/// Definitions the client has loaded, by form id: in memory, and in a folder when one is given
/// (`<id>.json`, the served bytes; the version is recomputed from them on load).
actor DefinitionCache {
    struct Entry: Sendable {
        let form: Form
        var version: String { form.version }
    }

    let directory: URL?
    private var entries: [String: Entry] = [:]

    init(directory: URL?) { self.directory = directory }

    func entry(_ id: String) -> Entry? {
        if let e = entries[id] { return e }
        guard let directory, let data = try? Data(contentsOf: file(id, in: directory)),
            let form = try? Form(id: id, json: data)
        else { return nil }
        let e = Entry(form: form)
        entries[id] = e
        return e
    }

    func store(_ id: String, form: Form, bytes: [UInt8]) {
        entries[id] = Entry(form: form)
        guard let directory else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(bytes).write(to: file(id, in: directory), options: .atomic)
    }

    private func file(_ id: String, in directory: URL) -> URL {
        directory.appendingPathComponent(FormdClient.escape(id) + ".json")
    }
}
