import FormdCore
import Foundation
import FormdService
import FormdTestSupport
import Logging
import Testing

/// The registry in-process: forms compiled when used, a bounded cache, the last good version kept
/// while a form is out of the cache, the listing cached per version, and inotify.
@Suite("form registry")
struct RegistryTests {
    // Quiet: the broken files these tests write are logged by design.
    static let logger = Logger(label: "registry-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    func folder(_ forms: [String: String]) throws -> TempFolder {
        let f = try TempFolder()
        for (id, text) in forms { try f.write("\(id).json", text) }
        return f
    }

    @Test func formsAreCompiledWhenFirstUsed() throws {
        let f = try folder(["a": Fixtures.titled("A"), "b": Fixtures.titled("B"), "c": Fixtures.contact])
        let r = FormRegistry(directory: f.url.path, logger: Self.logger)
        #expect(r.loadAll(indexInBackground: false) == 3)
        #expect(r.cacheUsage.forms == 0, "start-up reads no file")
        #expect(!r.isCompiled("a"))
        #expect(r.form("a")?.title == "A")
        #expect(r.isCompiled("a") && !r.isCompiled("b"))
        #expect(r.cacheUsage.forms == 1)
        #expect(r.form("nope") == nil)
        // The listing reads the rest.
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.listBody())) as? [String: Any])
        let ids = (list["forms"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == ["a", "b", "c"])
        #expect(r.ids() == ["a", "b", "c"])
    }

    @Test func theBackgroundIndexerReadsEveryFileAndSkipsBrokenOnes() throws {
        let f = try folder(["a": Fixtures.titled("A"), "broken": "{\"groups\": ", "b": Fixtures.titled("B")])
        let metrics = ServiceMetrics()
        let r = FormRegistry(directory: f.url.path, logger: Self.logger, metrics: metrics)
        #expect(r.loadAll() == 3)
        #expect(eventually(within: 5) { r.cacheUsage.forms == 2 ? true : nil } == true)
        #expect(r.ids() == ["a", "b"])
        #expect(r.form("broken") == nil)
        #expect(String(decoding: metrics.render(), as: UTF8.self).contains("formd_forms_loaded 2"))
    }

    @Test func theCacheStaysWithinItsBudgetAndFormsStillServe() throws {
        var forms: [String: String] = [:]
        for i in 0..<20 { forms["f\(i)"] = Fixtures.wide(title: "Form \(i)", count: 40) }
        let f = try folder(forms)
        let one = try #require(FormLoader.load(id: "x", bytes: Array(forms["f0"]!.utf8)).form)
        // Room for about three compiled forms.
        let budget = 3 * one.servedBytes.count * 8 + 100
        let r = FormRegistry(directory: f.url.path, maxCompiledBytes: budget, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        for round in 0..<2 {
            for i in 0..<20 {
                #expect(r.form("f\(i)")?.title == "Form \(i)", "round \(round)")
                #expect(r.cacheUsage.bytes <= budget || r.cacheUsage.forms == 1)
            }
        }
        #expect(r.cacheUsage.forms <= 3)
        #expect(r.isCompiled("f19") && !r.isCompiled("f0"), "least recently used dropped first")
    }

    /// A broken edit keeps the last good version serving, also when that version is not compiled
    /// at the time (it is compiled again from the bytes the registry kept).
    @Test func aBrokenEditKeepsTheLastGoodVersionEvenOutOfTheCache() throws {
        let f = try folder(["a": Fixtures.titled("Good A"), "b": Fixtures.titled("B")])
        let r = FormRegistry(directory: f.url.path, maxCompiledBytes: 1, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        let good = try #require(r.form("a"))
        #expect(r.form("b") != nil && !r.isCompiled("a"), "a is out of the cache")
        try f.write("a.json", "[{\"id\": \"g\", \"title\": ")
        r.rescanNow()
        let served = try #require(r.form("a"))
        #expect(served.title == "Good A" && served.version == good.version)
        try f.write("a.json", Fixtures.titled("New A"))
        r.rescanNow()
        #expect(r.form("a")?.title == "New A")
        try f.remove("a.json")
        r.rescanNow()
        #expect(r.form("a") == nil && r.ids() == ["b"])
    }

    @Test func theListingIsBuiltOncePerVersion() throws {
        let f = try folder(["a": Fixtures.titled("A")])
        let r = FormRegistry(directory: f.url.path, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        let first = r.listBody()
        let v = r.version
        #expect(r.listBody() == first && r.version == v)
        try f.write("b.json", Fixtures.titled("B"))
        r.rescanNow()
        #expect(r.version > v)
        #expect(String(decoding: r.listBody(), as: UTF8.self).contains("\"id\":\"b\""))
    }

    #if os(Linux)
    @Test func inotifyServesAChangeAtOnce() throws {
        let f = try folder(["a": Fixtures.titled("One")])
        let r = FormRegistry(directory: f.url.path, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        #expect(try r.startWatching(mode: .inotify) == .inotify)
        defer { r.stopWatching() }
        #expect(r.form("a")?.title == "One")
        let t0 = Date()
        try f.write("a.json", Fixtures.titled("Two"))  // write + rename, as deployment tools do
        #expect(eventually(within: 5, every: 0.002) { r.form("a")?.title == "Two" ? true : nil } == true)
        // Well inside the poll's second; the figure is in docs/BENCHMARKS.md.
        #expect(Date().timeIntervalSince(t0) < 0.5)
        try f.write("new.json", Fixtures.titled("New"))
        #expect(eventually(within: 5, every: 0.002) { r.form("new")?.title } == "New")
        try f.remove("a.json")
        #expect(eventually(within: 5, every: 0.002) { r.form("a") == nil ? true : nil } == true)
    }

    /// A Kubernetes ConfigMap volume: `a.json` links to `..data/a.json`, and an update swaps the
    /// `..data` link (rename over it) to a new folder. No `*.json` name changes.
    @Test func inotifySeesAConfigMapSwap() throws {
        let (f, r) = try watchedConfigMap(newKeys: [:])
        defer { r.stopWatching() }
        #expect(r.form("a")?.title == "One")
        try swapConfigMapData(f)
        #expect(eventually(within: 5, every: 0.002) { r.form("a")?.title == "Two" ? true : nil } == true)
    }

    /// A ConfigMap-style folder watched by inotify: `..v1/a.json` ("One") served through the
    /// `..data` link, and `..v2` ready with `a.json` ("Two") and `newKeys`.
    func watchedConfigMap(newKeys: [String: String]) throws -> (TempFolder, FormRegistry) {
        let f = try TempFolder()
        try f.write("..v1/a.json", Fixtures.titled("One"))
        try f.write("..v2/a.json", Fixtures.titled("Two"))
        for (name, text) in newKeys { try f.write("..v2/\(name)", text) }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: f.url.appendingPathComponent("..data").path, withDestinationPath: "..v1")
        try fm.createSymbolicLink(atPath: f.url.appendingPathComponent("a.json").path, withDestinationPath: "..data/a.json")
        let r = FormRegistry(directory: f.url.path, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        #expect(try r.startWatching(mode: .inotify) == .inotify)
        return (f, r)
    }

    /// What kubelet does on an update: a new `..data_tmp` link renamed over `..data`.
    func swapConfigMapData(_ f: TempFolder) throws {
        try FileManager.default.createSymbolicLink(atPath: f.url.appendingPathComponent("..data_tmp").path, withDestinationPath: "..v2")
        #expect(rename(f.url.appendingPathComponent("..data_tmp").path, f.url.appendingPathComponent("..data").path) == 0)
    }

    /// `symlink(2)` and `link(2)` produce only IN_CREATE: a form added as a link used to wait for
    /// the 30 s safety pass. It must serve as fast as a written file (well under 5 s here).
    @Test func inotifySeesFormsAddedAsLinks() throws {
        let f = try TempFolder()
        let outside = try TempFolder()
        try outside.write("s.json", Fixtures.titled("Symlinked"))
        try outside.write("h.json", Fixtures.titled("Hard-linked"))
        try f.write("a.json", Fixtures.titled("A"))
        let r = FormRegistry(directory: f.url.path, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        #expect(try r.startWatching(mode: .inotify) == .inotify)
        defer { r.stopWatching() }
        #expect(symlink(outside.url.appendingPathComponent("s.json").path, f.url.appendingPathComponent("s.json").path) == 0)
        #expect(eventually(within: 5, every: 0.002) { r.form("s")?.title } == "Symlinked")
        #expect(link(outside.url.appendingPathComponent("h.json").path, f.url.appendingPathComponent("h.json").path) == 0)
        #expect(eventually(within: 5, every: 0.002) { r.form("h")?.title } == "Hard-linked")
    }

    /// A ConfigMap update that adds a key: kubelet swaps `..data`, then links the new key's name.
    @Test func inotifySeesANewConfigMapKeyLinkedAfterTheSwap() throws {
        let (f, r) = try watchedConfigMap(newKeys: ["b.json": Fixtures.titled("New key")])
        defer { r.stopWatching() }
        try swapConfigMapData(f)
        // Once the swap's rescan has run, the key's link appears.
        #expect(eventually(within: 5, every: 0.002) { r.form("a")?.title == "Two" ? true : nil } == true)
        #expect(r.form("b") == nil)
        try FileManager.default.createSymbolicLink(atPath: f.url.appendingPathComponent("b.json").path, withDestinationPath: "..data/b.json")
        #expect(eventually(within: 5, every: 0.002) { r.form("b")?.title } == "New key")
    }
    #endif

    @Test func pollingSeesFormsAddedAsLinks() throws {
        let f = try folder(["a": Fixtures.titled("One")])
        let outside = try folder(["s": Fixtures.titled("Symlinked")])
        let r = FormRegistry(directory: f.url.path, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        #expect(try r.startWatching(mode: .poll, pollInterval: 0.05) == .poll)
        defer { r.stopWatching() }
        try FileManager.default.createSymbolicLink(
            atPath: f.url.appendingPathComponent("s.json").path, withDestinationPath: outside.url.appendingPathComponent("s.json").path)
        #expect(eventually(within: 5) { r.form("s")?.title } == "Symlinked")
    }

    @Test func pollingIsTheFallback() throws {
        let f = try folder(["a": Fixtures.titled("One")])
        let r = FormRegistry(directory: f.url.path, logger: Self.logger)
        r.loadAll(indexInBackground: false)
        #expect(try r.startWatching(mode: .poll, pollInterval: 0.05) == .poll)
        defer { r.stopWatching() }
        #expect(r.form("a")?.title == "One")
        try f.write("a.json", Fixtures.titled("Two"))
        #expect(eventually(within: 5) { r.form("a")?.title == "Two" ? true : nil } == true)
    }

    @Test func formatPatternsAreSharedWhileInUse() throws {
        let a = try FormatPattern.interned("^[a-z]+$")
        let b = try FormatPattern.interned("^[a-z]+$")
        #expect(a === b)
        #expect(try FormatPattern.interned("^[0-9]+$") !== a)
        #expect(throws: FormatPatternError.self) { try FormatPattern.interned("(") }
    }
}
