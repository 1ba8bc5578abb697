@testable import FormdService
import Foundation
import FormdTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `forms.max_file_bytes`: a definition file over the limit is refused before it is read, by the
/// server (at start and on reload) and by `formd check`.
@Suite("definition file size limit", .timeLimit(.minutes(3)))
struct DefinitionSizeTests {
    static let deadline: TimeInterval = 15
    /// Sparse: takes no disk space, but reads as this many zero bytes.
    static let hugeBytes: UInt64 = 256 << 20

    func makeSparse(_ url: URL, size: UInt64) throws {
        try #require(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    /// VmHWM (peak resident set) of a process, in KiB.
    func peakKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    func reloadFailures(_ server: FormdServerProcess) throws -> Double? {
        let text = try server.request("GET", "/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix("formd_reload_failures_total ") {
            return Double(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    @Test func hugeFileDroppedWhileServingIsRefusedUnread() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/alpha.json", Fixtures.titled("Alpha"))
        let server = try FormdServerProcess(forms: forms, directory: folder.url)
        #expect(try server.request("GET", "/forms/alpha").status == 200)
        let peakBefore = try peakKiB(server.child.pid)

        try makeSparse(forms.appendingPathComponent("huge.json"), size: Self.hugeBytes)
        let message = "over the limit of 8388608 bytes (forms.max_file_bytes)"
        let logged = server.child.stderr.wait(until: Date() + Self.deadline) { $0.contains(message) ? true : nil }
        #expect(logged == true, "no refusal logged: \(server.child.stderr.text)")
        #expect(server.child.stderr.text.contains("huge.json:1:1: error: the file is \(Self.hugeBytes) bytes"))

        let growthMiB = Double(try peakKiB(server.child.pid) - peakBefore) / 1024
        #expect(growthMiB < 32, "peak RSS grew \(growthMiB) MiB for a refused file")
        #expect(try server.request("GET", "/forms/huge").status == 404)
        #expect(try server.request("GET", "/forms/alpha").status == 200)
        #expect(try reloadFailures(server) == 1)
        // Refused once per change, not on every poll: a form added after the refusal shows that
        // later polls have passed over the huge file.
        try folder.write("Forms/beta.json", Fixtures.titled("Beta"))
        let later = try eventually(within: Self.deadline) { try server.request("GET", "/forms/beta").status == 200 ? true : nil }
        #expect(later == true)
        #expect(server.child.stderr.text.components(separatedBy: message).count == 2)
        #expect(try reloadFailures(server) == 1)
        #expect(server.stop() == 0)
    }

    @Test func fileOverAConfiguredLimitIsNotServedAtStart() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/small.json", Fixtures.titled("Small"))
        let padded = Fixtures.titled("Padded") + String(repeating: " ", count: 2000)
        try folder.write("Forms/padded.json", padded)
        let server = try FormdServerProcess(
            forms: forms, environment: ["FORMD_FORMS_MAX_FILE_BYTES": "1024"], directory: folder.url)
        #expect(try server.request("GET", "/forms/small").status == 200)
        #expect(try server.request("GET", "/forms/padded").status == 404)
        let text = server.child.stderr.text
        #expect(text.contains("form rejected"), "\(text)")
        #expect(text.contains("padded.json:1:1: error: the file is \(padded.utf8.count) bytes, over the limit of 1024 bytes"), "\(text)")
        #expect(server.stop() == 0)
    }

    @Test func checkRefusesAHugeFileFast() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/small.json", Fixtures.titled("Small"))
        let huge = forms.appendingPathComponent("huge.json")
        try makeSparse(huge, size: Self.hugeBytes)

        let start = Date()
        let (status, stdout, _) = try FormdProcess.run(["check", huge.path], directory: folder.url)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(status == 1)
        #expect(
            stdout == "\(huge.path):1:1: error: the file is \(Self.hugeBytes) bytes, over the limit of 8388608 bytes"
                + " (forms.max_file_bytes)\n")

        // A folder: the huge file is an error, the others are still checked.
        let (folderStatus, folderOut, _) = try FormdProcess.run(["check", forms.path], directory: folder.url)
        #expect(folderStatus == 1)
        #expect(folderOut.split(separator: "\n").count == 1 && folderOut.contains("huge.json:1:1: error: the file is"))

        // --max-file-bytes applies the server's setting.
        let small = forms.appendingPathComponent("small.json").path
        let (tight, tightOut, _) = try FormdProcess.run(["check", "--max-file-bytes", "64", small], directory: folder.url)
        #expect(tight == 1)
        #expect(tightOut.contains("small.json:1:1: error: the file is"), "\(tightOut)")
        #expect(try FormdProcess.run(["check", small], directory: folder.url).status == 0)
    }

    /// A FIFO named like a definition: refused at once, without waiting for a writer (the read
    /// opens with O_NONBLOCK and checks the type on the opened descriptor).
    @Test func checkOnAFIFODoesNotBlock() throws {
        let folder = try TempFolder()
        let fifo = folder.url.appendingPathComponent("pipe.json").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let (status, stdout, _) = try FormdProcess.run(["check", fifo], directory: folder.url, timeout: 10)
        #expect(status == 1)
        #expect(stdout == "\(fifo):1:1: error: not a regular file\n")
    }

    @Test func readStopsAtTheLimit() throws {
        let folder = try TempFolder()
        let exact = try folder.write("exact.json", String(repeating: " ", count: 1024)).path
        let over = try folder.write("over.json", String(repeating: " ", count: 1025)).path
        #expect(try DefinitionFile.read(exact, limit: 1024).get().bytes.count == 1024)
        #expect(throws: DefinitionFile.Failure.tooLarge(size: 1025, limit: 1024)) { try DefinitionFile.read(over, limit: 1024).get() }
        #expect(throws: DefinitionFile.Failure.unreadable(errno: ENOENT)) {
            try DefinitionFile.read(folder.url.appendingPathComponent("none.json").path, limit: 1024).get()
        }
    }

    /// The stamp and digest the registry compares: ctime moves when mtime is restored, and the
    /// digest tells same-size contents apart.
    @Test func stampAndDigestSeeACopyThatKeepsSizeAndMtime() throws {
        let folder = try TempFolder()
        let file = try folder.write("a.json", "version one").path
        let first = try DefinitionFile.read(file, limit: 1024).get()
        var before = stat()
        try #require(stat(file, &before) == 0)
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.write(contentsOf: Data("version two".utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let second = try DefinitionFile.read(file, limit: 1024).get()
        #expect(second.stamp.size == first.stamp.size && second.stamp.inode == first.stamp.inode)
        #expect(second.stamp.modified.tv_sec == first.stamp.modified.tv_sec)
        #expect(second.stamp.modified.tv_nsec == first.stamp.modified.tv_nsec)
        #expect(second.stamp != first.stamp, "ctime must differ")
        #expect(DefinitionFile.digest(first.bytes) != DefinitionFile.digest(second.bytes))
        #expect(DefinitionFile.digest(first.bytes) == DefinitionFile.digest(Array("version one".utf8)))
    }
}
