import Configuration
import FormdCore
import Foundation

extension ServiceConfiguration {
    /// Where a value came from, for error messages.
    enum Origin {
        case commandLine, environment, file(String)

        func name(of setting: Setting) -> String {
            switch self {
            case .commandLine: "command line"
            case .environment: setting.environmentName
            case .file(let f): f
            }
        }
    }

    /// Resolves the configuration. `commandLine` holds dotted keys set by flags; `configFile` is
    /// read when given (an explicit file that cannot be read is an error; the default
    /// `config/formd.json` is used only when it exists).
    ///
    /// The providers and their precedence are swift-configuration's: an in-memory provider for the
    /// flags, `EnvironmentVariablesProvider` for `FORMD_*`, and an in-memory provider for the file,
    /// which formd parses itself so that a syntax error says `file:line:col` and an unknown key is
    /// an error rather than ignored.
    package static func resolve(
        commandLine: [String: String] = [:], environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String?, configFileIsExplicit: Bool
    ) throws(ConfigurationError) -> ServiceConfiguration {
        let byKey = Dictionary(uniqueKeysWithValues: settings.map { ($0.key, $0) })
        for key in commandLine.keys.sorted() where byKey[key] == nil {
            throw ConfigurationError("unknown setting \"\(key)\" (known: \(keys.joined(separator: ", ")))")
        }
        var fileValues: [AbsoluteConfigKey: ConfigValue] = [:]
        var fileDisplays: [String: String] = [:]
        if let file = configFile {
            if let data = FileManager.default.contents(atPath: file) {
                let doc: JSONDocument
                do { doc = try JSONParser.parse(Array(data), options: .definition) } catch {
                    throw ConfigurationError("\(file):\(error.line):\(error.column): \(error.message)")
                }
                guard case .object(let root) = doc.root else {
                    throw ConfigurationError("\(file): the configuration must be a JSON object")
                }
                try flatten(root, prefix: "", file: file, byKey: byKey, into: &fileValues, displays: &fileDisplays)
            } else if configFileIsExplicit {
                throw ConfigurationError("--config \(file): cannot read the file")
            }
        }
        var flagValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, text) in commandLine {
            let content: ConfigContent =
                byKey[key]?.shape == .list ? .stringArray(text.split(separator: ",").map(String.init)) : .string(text)
            flagValues[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(content, isSecret: false)
        }
        let flags = InMemoryProvider(name: "command line", values: flagValues)
        let variables = EnvironmentVariablesProvider(environmentVariables: environment.filter { $0.key.hasPrefix("FORMD_") })
            .prefixKeys(with: "formd")
        let fileProvider = InMemoryProvider(name: configFile ?? "config file", values: fileValues)

        // Every given value is checked, also one a higher-precedence source overrides (a config
        // file with `"port": 70000` is broken even when --port is given).
        let sources: [(Origin, ConfigReader)] = [
            (.file(configFile ?? ""), ConfigReader(provider: fileProvider)),
            (.environment, ConfigReader(provider: variables)), (.commandLine, ConfigReader(provider: flags)),
        ]
        let reader = ConfigReader(providers: [flags, variables, fileProvider])
        var c = ServiceConfiguration()
        for setting in settings {
            for (origin, source) in sources {
                guard let value = read(setting, from: source) else { continue }
                var scratch = c
                do { try setting.apply(&scratch, value) } catch {
                    let display: String
                    if case .file = origin, let shown = fileDisplays[setting.key] {
                        display = shown
                    } else {
                        display = Setting.quoted((try? value.text()) ?? "")
                    }
                    throw ConfigurationError(
                        "\(setting.key) (\(origin.name(of: setting))): \(error.message ?? "\(setting.expected), not \(display)")")
                }
            }
            // The value that counts: the first provider that has the key.
            if let value = read(setting, from: reader) { try? setting.apply(&c, value) }
        }
        if (c.tlsCert == nil) != (c.tlsKey == nil) {
            throw ConfigurationError("server.tls.cert and server.tls.key must be set together")
        }
        return c
    }

    private static func read(_ setting: Setting, from reader: ConfigReader) -> Setting.Value? {
        let key = ConfigKey(setting.key)
        if setting.shape == .list { return reader.stringArray(forKey: key).map(Setting.Value.list) }
        return reader.string(forKey: key).map(Setting.Value.text)
    }

    /// The file's nested objects as dotted keys, each value checked against its setting's shape
    /// and handed to the provider as text (or a list of texts).
    private static func flatten(
        _ o: JSONObject, prefix: String, file: String, byKey: [String: Setting],
        into values: inout [AbsoluteConfigKey: ConfigValue], displays: inout [String: String]
    ) throws(ConfigurationError) {
        for m in o.members {
            let key = prefix.isEmpty ? m.key : prefix + "." + m.key
            guard let setting = byKey[key] else {
                // A section must hold known keys: `"srever": {}` is a typo, not an empty section.
                guard case .object(let inner) = m.value, keys.contains(where: { $0.hasPrefix(key + ".") }) else {
                    throw ConfigurationError("\(file): unknown setting \"\(key)\" (known: \(keys.joined(separator: ", ")))")
                }
                try flatten(inner, prefix: key, file: file, byKey: byKey, into: &values, displays: &displays)
                continue
            }
            let content: ConfigContent?
            switch (m.value, setting.shape) {
            case (.string(let s), _): content = setting.shape == .list ? .stringArray([s]) : .string(s)
            case (.number(let n), .number): content = .string(n.text)
            case (.bool(let b), .flag): content = .string(b ? "true" : "false")
            case (.null, _) where setting.nullable: content = setting.shape == .list ? .stringArray([]) : .string("")
            case (.object(let inner), .object): content = .string(String(decoding: JSONWriter.encode(.object(inner)), as: UTF8.self))
            case (.array(let items), .list):
                let list = items.compactMap { item -> String? in if case .string(let s) = item { s } else { nil } }
                content = list.count == items.count ? .stringArray(list) : nil
            default: content = nil
            }
            guard let content else {
                throw ConfigurationError("\(key) (\(file)): \(setting.expected), not \(m.value.display)")
            }
            values[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(content, isSecret: false)
            displays[key] = m.value.display
        }
    }
}

extension JSONValue {
    var display: String {
        switch self {
        case .string(let s): "\"\(s)\""
        case .number(let n): n.text
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
