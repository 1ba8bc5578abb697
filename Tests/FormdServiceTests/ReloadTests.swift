import Foundation
import FormdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The registry polls the forms folder every second: edits, broken edits, new and removed files.
@Suite("formd serve reload", .timeLimit(.minutes(3)))
struct ReloadTests {
    /// How long a change may take to show (the poll is 1 s; generous for a loaded CI machine).
    static let deadline: TimeInterval = 15

    func title(_ server: FormdServerProcess, _ id: String) throws -> String? {
        let r = try server.request("GET", "/forms")
        let forms = r.object["forms"] as? [[String: Any]] ?? []
        return forms.first { $0["id"] as? String == id }?["title"] as? String
    }

    func reloadFailures(_ server: FormdServerProcess) throws -> Double? {
        let text = try server.request("GET", "/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix("formd_reload_failures_total ") {
            return Double(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    func formsLoaded(_ server: FormdServerProcess) throws -> Double? {
        let text = try server.request("GET", "/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix("formd_forms_loaded ") {
            return Double(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    @Test func goodEditBrokenEditNewFileRemovedFile() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/alpha.json", Fixtures.titled("Alpha one"))
        let server = try FormdServerProcess(forms: forms, directory: folder.url)
        #expect(try title(server, "alpha") == "Alpha one")
        let v1 = try #require(try server.request("GET", "/forms/alpha").header("ETag"))
        #expect(try reloadFailures(server) == 0)

        // A good edit is served within the deadline, with a new version.
        try folder.write("Forms/alpha.json", Fixtures.titled("Alpha two"))
        let seen = try eventually(within: Self.deadline) { try title(server, "alpha") == "Alpha two" ? true : nil }
        #expect(seen == true, "the edit was not picked up in \(Self.deadline) s")
        let get = try server.request("GET", "/forms/alpha")
        let v2 = try #require(get.header("ETag"))
        #expect(v2 != v1)
        #expect(get.text == Fixtures.titled("Alpha two"))
        // The old version no longer matches If-Match; the new one does.
        #expect(try server.request("POST", "/forms/alpha/validate", headers: [("If-Match", v1)], json: "{}").status == 412)
        #expect(try server.request("POST", "/forms/alpha/validate", headers: [("If-Match", v2)], json: "{}").status == 200)

        // A broken edit: the last good version keeps serving; the failure is counted.
        try folder.write("Forms/alpha.json", #"[{"id": "g", "title": "Broken", "sections": [{"id": "s", "fields": [{"id": "a", "type": "no-such-kind"}"#)
        let failed = try eventually(within: Self.deadline) { try (reloadFailures(server) ?? 0) >= 1 ? true : nil }
        #expect(failed == true, "formd_reload_failures_total did not increment")
        #expect(try title(server, "alpha") == "Alpha two")
        #expect(try server.request("GET", "/forms/alpha").header("ETag") == v2)
        #expect(try server.request("POST", "/forms/alpha/validate", json: "{}").status == 200)
        // A semantically broken (but well-formed) edit is also rejected.
        try folder.write("Forms/alpha.json", #"[{"id": "g", "sections": [{"id": "s", "fields": [{"id": "a", "type": "text"}, {"id": "a", "type": "text"}]}]}]"#)
        let failedAgain = try eventually(within: Self.deadline) { try (reloadFailures(server) ?? 0) >= 2 ? true : nil }
        #expect(failedAgain == true, "a duplicate field id should fail the reload")
        #expect(try server.request("GET", "/forms/alpha").header("ETag") == v2)

        // Fixing the file again serves the fix.
        try folder.write("Forms/alpha.json", Fixtures.titled("Alpha three"))
        #expect(try eventually(within: Self.deadline) { try title(server, "alpha") == "Alpha three" ? true : nil } == true)

        // A new file appears.
        try folder.write("Forms/beta.json", Fixtures.titled("Beta"))
        #expect(try eventually(within: Self.deadline) { try title(server, "beta") == "Beta" ? true : nil } == true)
        #expect(try server.request("GET", "/forms/beta").status == 200)
        #expect(try eventually(within: Self.deadline) { try formsLoaded(server) == 2 ? true : nil } == true)

        // A removed file is no longer served.
        try folder.remove("Forms/alpha.json")
        let gone = try eventually(within: Self.deadline) {
            try server.request("GET", "/forms/alpha").status == 404 ? true : nil
        }
        #expect(gone == true)
        #expect(try server.request("POST", "/forms/alpha/validate", json: "{}").status == 404)
        #expect(try title(server, "alpha") == nil)
        #expect(try formsLoaded(server) == 1)

        #expect(server.stop() == 0)
    }

    /// `cp -p` of an edited copy: same inode, same size, and the old mtime restored to the
    /// nanosecond. Only the content (and the ctime, which cannot be set back) differs.
    @Test func sameSizeSameMtimeRewriteIsServed() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        let file = try folder.write("Forms/alpha.json", Fixtures.titled("Alpha one"))
        let server = try FormdServerProcess(forms: forms, directory: folder.url)
        #expect(try title(server, "alpha") == "Alpha one")
        let v1 = try server.request("GET", "/forms/alpha").header("ETag")

        var before = stat()
        try #require(stat(file.path, &before) == 0)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data(Fixtures.titled("Alpha two").utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        var after = stat()
        try #require(stat(file.path, &after) == 0)
        try #require(after.st_ino == before.st_ino && after.st_size == before.st_size)
        try #require(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)

        let seen = try eventually(within: Self.deadline) { try title(server, "alpha") == "Alpha two" ? true : nil }
        #expect(seen == true, "a rewrite with the same size and mtime was not picked up in \(Self.deadline) s")
        #expect(try server.request("GET", "/forms/alpha").header("ETag") != v1)
        #expect(server.stop() == 0)
    }

    /// A file whose metadata changes but whose bytes do not (`touch`) is not reloaded.
    @Test func touchWithoutContentChangeIsNotAReload() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        let file = try folder.write("Forms/alpha.json", Fixtures.titled("Alpha"))
        let server = try FormdServerProcess(
            forms: forms, environment: ["FORMD_LOG_LEVEL": "debug"], directory: folder.url)
        let v1 = try server.request("GET", "/forms/alpha").header("ETag")
        try FileManager.default.setAttributes([.modificationDate: Date() + 5], ofItemAtPath: file.path)
        // A control edit to another file shows when the touched one has been polled too.
        try folder.write("Forms/beta.json", Fixtures.titled("Beta"))
        #expect(try eventually(within: Self.deadline) { try title(server, "beta") == "Beta" ? true : nil } == true)
        #expect(try server.request("GET", "/forms/alpha").header("ETag") == v1)
        #expect(!server.child.stderr.text.contains("form=alpha"), "\(server.child.stderr.text)")
        #expect(server.stop() == 0)
    }

    @Test func brokenFileAtStartIsSkippedAndFixedLater() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/good.json", Fixtures.titled("Good"))
        try folder.write("Forms/bad.json", "{ not json")
        let server = try FormdServerProcess(forms: forms, directory: folder.url)
        #expect(try server.request("GET", "/forms/good").status == 200)
        #expect(try server.request("GET", "/forms/bad").status == 404)
        #expect(try server.request("GET", "/readyz").status == 200)
        try folder.write("Forms/bad.json", Fixtures.titled("Fixed"))
        #expect(try eventually(within: Self.deadline) { try title(server, "bad") == "Fixed" ? true : nil } == true)
        #expect(server.stop() == 0)
    }

    @Test func reloadOffKeepsTheStartVersion() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/alpha.json", Fixtures.titled("Start"))
        let server = try FormdServerProcess(
            forms: forms, environment: ["FORMD_FORMS_RELOAD": "false"], directory: folder.url)
        // Start-up lists the folder and reads nothing (README, "Many forms"): a file is read when
        // first needed or by the background indexer. `GET /forms` waits for the indexer, so the
        // start version is read before the edit; editing first raced the indexer (a CI run lost).
        #expect(try title(server, "alpha") == "Start")
        try folder.write("Forms/alpha.json", Fixtures.titled("Edited"))
        // A control form added at the same time must not show up either; check for several polls.
        try folder.write("Forms/beta.json", Fixtures.titled("Beta"))
        let changed = try eventually(within: 3) { try title(server, "alpha") != "Start" ? true : nil }
        #expect(changed == nil)
        #expect(try server.request("GET", "/forms/beta").status == 404)
        #expect(server.stop() == 0)
    }
}
