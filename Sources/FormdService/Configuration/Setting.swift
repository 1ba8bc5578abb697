import Foundation
import FormdCore

/// One setting, declared once: its key, what it accepts, where its value goes in
/// `ServiceConfiguration`, and what it means. The loader, its error messages, `formd config`, the
/// README's settings table and `config/formd.json` all follow from `ServiceConfiguration.settings`.
package struct Setting: Sendable {
    /// What a value may look like in the JSON config file (the environment and flags give text).
    enum Shape: Sendable { case text, number, flag, list, object }

    /// A value as the providers hand it over: text, or a list for `.list` settings.
    enum Value: Sendable {
        case text(String)
        case list([String])
    }

    /// The dotted key, `server.port`.
    package let key: String
    /// What a good value is, for error messages: "an integer in 0...65535".
    package let expected: String
    /// The README's "meaning" column.
    package let summary: String
    let shape: Shape
    /// JSON null (and an empty string) means "not set": none, or `auto`.
    let nullable: Bool
    let apply: @Sendable (inout ServiceConfiguration, Value) throws(Refusal) -> Void
    /// The value in `configuration` as config-file JSON text (`8080`, `"auto"`, `null`).
    let json: @Sendable (ServiceConfiguration) -> String

    /// A value the setting cannot take; `message` defaults to "expected …".
    struct Refusal: Error { var message: String? = nil }

    /// `server.port` → `FORMD_SERVER_PORT`.
    package var environmentName: String { "FORMD_" + key.uppercased().replacingOccurrences(of: ".", with: "_") }
}

extension Setting {
    static func text(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, String> & Sendable, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected a non-empty string", summary: summary, shape: .text, nullable: false,
            apply: { c, v throws(Refusal) in c[keyPath: path] = try v.nonEmptyText() },
            json: { quoted($0[keyPath: path]) })
    }

    static func optionalText(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, String?> & Sendable, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected a string", summary: summary, shape: .text, nullable: true,
            apply: { c, v throws(Refusal) in
                let s = try v.text()
                c[keyPath: path] = s.isEmpty ? nil : s
            },
            json: { $0[keyPath: path].map(quoted) ?? "null" })
    }

    /// An optional URL: absolute `http(s)://`, or a path on the same site (`/thanks`).
    static func optionalURL(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, String?> & Sendable, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected an http(s) URL or a path starting with /", summary: summary, shape: .text, nullable: true,
            apply: { c, v throws(Refusal) in
                let s = try v.text().trimmingCharacters(in: .whitespaces)
                guard s.isEmpty || s.hasPrefix("/") || s.lowercased().hasPrefix("http://") || s.lowercased().hasPrefix("https://"),
                    !s.contains(where: { $0.isWhitespace || $0.isNewline })
                else { throw Refusal() }
                c[keyPath: path] = s.isEmpty ? nil : s
            },
            json: { $0[keyPath: path].map(quoted) ?? "null" })
    }

    static func integer(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, Int> & Sendable, _ range: ClosedRange<Int>, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected an integer in \(range.lowerBound)...\(range.upperBound)", summary: summary,
            shape: .number, nullable: false,
            apply: { c, v throws(Refusal) in c[keyPath: path] = try v.integer(range) },
            json: { String($0[keyPath: path]) })
    }

    /// An integer, or `auto` (nil: sized from the machine).
    static func automatic(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, Int?> & Sendable, _ range: ClosedRange<Int>, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected \"auto\" or an integer in \(range.lowerBound)...\(range.upperBound)",
            summary: summary, shape: .number, nullable: true,
            apply: { c, v throws(Refusal) in
                let s = try v.text().trimmingCharacters(in: .whitespaces)
                c[keyPath: path] = s.isEmpty || s.lowercased() == "auto" ? nil : try v.integer(range)
            },
            json: { $0[keyPath: path].map(String.init) ?? "\"auto\"" })
    }

    /// A number of seconds up to a day; above zero unless `zero` is allowed (then `0` is "none").
    static func seconds(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, Double> & Sendable, zero: Bool = false, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected a number of seconds in \(zero ? "[0" : "(0"), 86400]", summary: summary, shape: .number,
            nullable: false,
            apply: { c, v throws(Refusal) in
                guard let d = Double(try v.text().trimmingCharacters(in: .whitespaces)), zero ? d >= 0 : d > 0, d <= 86_400 else {
                    throw Refusal()
                }
                c[keyPath: path] = d
            },
            json: { c in
                let d = c[keyPath: path]
                return d == d.rounded() ? String(Int(d)) : String(d)
            })
    }

    static func flag(_ key: String, _ path: WritableKeyPath<ServiceConfiguration, Bool> & Sendable, _ summary: String) -> Setting {
        Setting(
            key: key, expected: "expected true or false", summary: summary, shape: .flag, nullable: false,
            apply: { c, v throws(Refusal) in
                switch try v.text().lowercased() {
                case "true", "1", "yes", "on": c[keyPath: path] = true
                case "false", "0", "no", "off": c[keyPath: path] = false
                default: throw Refusal()
                }
            },
            json: { $0[keyPath: path] ? "true" : "false" })
    }

    /// One of a few words (case-insensitive), each with its value.
    static func choice<T: Equatable & Sendable>(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, T> & Sendable, _ words: KeyValuePairs<String, T>,
        _ summary: String, refuse: (@Sendable (T) -> String?)? = nil
    ) -> Setting {
        let words = words.map { ($0.key, $0.value) }
        let names = words.map(\.0)
        let expected =
            names.count == 2
            ? "expected \(names[0]) or \(names[1])"
            : "expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", "))"
        return Setting(
            key: key, expected: expected, summary: summary, shape: .text, nullable: false,
            apply: { c, v throws(Refusal) in
                let word = try v.text().trimmingCharacters(in: .whitespaces).lowercased()
                guard let value = words.first(where: { $0.0 == word })?.1 else { throw Refusal() }
                if let message = refuse?(value) { throw Refusal(message: message) }
                c[keyPath: path] = value
            },
            json: { c in quoted(words.first { $0.1 == c[keyPath: path] }?.0 ?? "") })
    }

    /// A list of strings: a JSON array in the file, comma-separated text elsewhere.
    static func list(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, [String]> & Sendable, expected: String,
        check: @escaping @Sendable (String) -> String?, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected \(expected)", summary: summary, shape: .list, nullable: true,
            apply: { c, v throws(Refusal) in
                let items: [String]
                switch v {
                case .text(let s): items = s.split(separator: ",").map(String.init)
                case .list(let l): items = l
                }
                let list = items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                for item in list { if let message = check(item) { throw Refusal(message: message) } }
                c[keyPath: path] = list
            },
            json: { c in "[" + c[keyPath: path].map(quoted).joined(separator: ", ") + "]" })
    }

    /// `validators.remote`: a JSON object of validators by name (the variable: the same JSON).
    static func remoteValidators(
        _ key: String, _ path: WritableKeyPath<ServiceConfiguration, [RemoteValidatorSettings]> & Sendable, _ summary: String
    ) -> Setting {
        Setting(
            key: key, expected: "expected a JSON object of validators by name", summary: summary, shape: .object, nullable: true,
            apply: { c, v throws(Refusal) in
                c[keyPath: path] = try RemoteValidatorSettings.parse(try v.text(), environment: ProcessInfo.processInfo.environment)
            },
            json: { c in
                let list = c[keyPath: path]
                if list.isEmpty { return "{}" }
                return "{" + list.map { quoted($0.name) + ": " + $0.json }.joined(separator: ", ") + "}"
            })
    }

    static func quoted(_ s: String) -> String {
        var w = JSONWriter()
        w.string(s)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

extension Setting.Value {
    func text() throws(Setting.Refusal) -> String {
        switch self {
        case .text(let s): return s
        case .list(let l): return l.joined(separator: ",")
        }
    }

    func nonEmptyText() throws(Setting.Refusal) -> String {
        let s = try text()
        guard !s.isEmpty else { throw Setting.Refusal() }
        return s
    }

    func integer(_ range: ClosedRange<Int>) throws(Setting.Refusal) -> Int {
        guard let i = Int(try text().trimmingCharacters(in: .whitespaces)), range.contains(i) else { throw Setting.Refusal() }
        return i
    }
}
