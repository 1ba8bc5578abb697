import Foundation
import Testing

@testable import FormdCore

/// Every fixture of the shared conformance suite loads, and every broken one is rejected with the
/// expected problem at the right place. Skipped when `../shared` is not beside the project
/// (it is in CI and on developer machines; a clone on its own has no fixtures).
@Suite struct FixtureLoadingTests {
    static let fixtures: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let dir = root.deletingLastPathComponent().appendingPathComponent("shared/conformance/fixtures")
        return FileManager.default.fileExists(atPath: dir.path) ? dir : nil
    }()

    static func files(_ sub: String, prefix: String = "") -> [String] {
        guard let dir = fixtures?.appendingPathComponent(sub) else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".json") && $0.hasPrefix(prefix) }.sorted().map { dir.appendingPathComponent($0).path }
    }

    static func load(_ path: String) throws -> FormLoader.Result {
        let data = try #require(FileManager.default.contents(atPath: path))
        return FormLoader.load(id: "f", bytes: Array(data))
    }

    @Test(.enabled(if: fixtures != nil, "../shared/conformance/fixtures is not beside the project"))
    func everyServedFixtureLoads() throws {
        let served = Self.files("").filter { !$0.hasSuffix("x-rejected.json") && !$0.hasSuffix("x-invalid.id.json") }
        #expect(served.count >= 40)
        for path in served {
            let result = try Self.load(path)
            #expect(result.form != nil, "\(path): \(result.diagnostics.map(\.description))")
        }
        #expect(try Self.load(Self.files("", prefix: "x-rejected")[0]).form == nil)
    }

    /// File → (message fragment, the text the error must point at: its line and column are those
    /// of that text's last occurrence in the file).
    static let broken: [String: (String, String?)] = [
        "x-bad-compare-to.json": ("compare_to names no field", "\"nowhere\""),
        "x-bad-condition-syntax.json": ("expected ')'", nil),
        "x-bad-condition-unknown.json": ("unknown field \"nowhere\"", "nowhere"),
        "x-bad-cycle.json": ("formula cycle: subtotal -> total -> subtotal", "\"total * 2\""),
        "x-bad-dup-field.json": ("duplicate field id", nil),
        "x-bad-dup-option.json": ("repeats", nil),
        "x-bad-dup-section.json": ("duplicate section id", nil),
        "x-bad-formula-syntax.json": ("expected ')'", nil),
        "x-bad-formula-unknown.json": ("unknown field \"nowhere\"", "nowhere"),
        "x-bad-multi.json": ("duplicate field id", nil),
        "x-bad-no-template.json": ("has no template", nil),
        "x-bad-regex.json": ("regex does not compile", nil),
        "x-bad-self-cycle.json": ("formula cycle: a -> a", nil),
        "x-bad-shape.json": ("array of groups", nil),
        "x-bad-syntax.json": ("expected ','", nil),
        "x-bad-template-compare.json": ("compare_to names no field: \"min_qty\"", "\"min_qty\""),
        "x-bad-value.json": ("cannot be held by a number field", "\"twelve\""),
    ]

    @Test(.enabled(if: fixtures != nil, "../shared/conformance/fixtures is not beside the project"))
    func everyBrokenFixtureIsRejectedAtTheRightPlace() throws {
        let paths = Self.files("check", prefix: "x-bad-")
        #expect(paths.count == Self.broken.count)
        for path in paths {
            let name = (path as NSString).lastPathComponent
            let (fragment, anchor) = try #require(Self.broken[name], "no expectation for \(name)")
            let result = try Self.load(path)
            #expect(result.form == nil, "\(name) loaded")
            let errors = result.diagnostics.filter { $0.severity == .error }
            let hit = errors.first { $0.message.contains(fragment) }
            #expect(hit != nil, "\(name): \(errors.map(\.description))")
            if let hit, let anchor {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let lines = text.components(separatedBy: "\n")
                let line = try #require(lines.lastIndex { $0.contains(anchor) })
                let column = lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: anchor)!.lowerBound) + 1
                #expect(hit.line == line + 1, "\(name): \(hit)")
                #expect(hit.column >= column && hit.column <= column + anchor.count, "\(name): \(hit) vs column \(column)")
            }
        }
    }

    @Test(.enabled(if: fixtures != nil, "../shared/conformance/fixtures is not beside the project"))
    func warningFixturesLoadWithWarnings() throws {
        for path in Self.files("check", prefix: "x-warn-") {
            let result = try Self.load(path)
            #expect(result.form != nil, "\(path)")
            #expect(result.diagnostics.contains { $0.severity == .warning }, "\(path)")
        }
    }

    @Test(.enabled(if: fixtures != nil, "../shared/conformance/fixtures is not beside the project"))
    func syntaxErrorLineAndColumn() throws {
        let result = try Self.load(Self.files("check", prefix: "x-bad-syntax")[0])
        #expect(result.diagnostics.first.map { ($0.line, $0.column) } ?? (0, 0) == (6, 20))
    }
}
