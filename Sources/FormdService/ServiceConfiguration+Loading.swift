@_spi(Engine) import FormdCore
import Foundation
import FormdHTTP

extension ServiceConfiguration {
    /// A raw setting and where it came from, for error messages.
    enum Source { case commandLine, environment(String), file(String) }

    /// Resolves the configuration. `commandLine` holds dotted keys set by flags; `configFile` is
    /// read when given (an explicit file that cannot be read is an error; the default
    /// `config/formd.json` is used only when it exists).
    public static func resolve(
        commandLine: [String: String] = [:], environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String?, configFileIsExplicit: Bool
    ) throws(ConfigurationError) -> ServiceConfiguration {
        var raw: [String: (JSONValue, Source)] = [:]
        if let file = configFile {
            if let data = FileManager.default.contents(atPath: file) {
                let doc: JSONDocument
                do { doc = try JSONParser.parse(Array(data), options: .definition) } catch {
                    throw ConfigurationError("\(file):\(error.line):\(error.column): \(error.message)")
                }
                guard case .object(let root) = doc.root else {
                    throw ConfigurationError("\(file): the configuration must be a JSON object")
                }
                try flatten(root, prefix: "", file: file, into: &raw)
            } else if configFileIsExplicit {
                throw ConfigurationError("--config \(file): cannot read the file")
            }
        }
        // Every given value is checked, also one a higher-precedence source overrides (a config
        // file with `"port": 70000` is broken even when --port is given); applied lowest first.
        var c = ServiceConfiguration()
        for key in keys {
            if let (value, source) = raw[key] { try c.set(key, value, source) }
        }
        for key in keys {
            let name = environmentName(of: key)
            if let v = environment[name] { try c.set(key, .string(v), .environment(name)) }
        }
        for key in keys {
            if let v = commandLine[key] { try c.set(key, .string(v), .commandLine) }
        }
        for key in commandLine.keys where !keys.contains(key) { throw ConfigurationError("unknown setting \"\(key)\"") }
        if (c.tlsCert == nil) != (c.tlsKey == nil) {
            throw ConfigurationError("server.tls.cert and server.tls.key must be set together")
        }
        return c
    }

    private static func flatten(
        _ o: JSONObject, prefix: String, file: String, into raw: inout [String: (JSONValue, Source)]
    ) throws(ConfigurationError) {
        for m in o.members {
            let key = prefix.isEmpty ? m.key : prefix + "." + m.key
            if case .object(let inner) = m.value, !keys.contains(key) {
                // A section must hold known keys: `"srever": {}` is a typo, not an empty section.
                guard keys.contains(where: { $0.hasPrefix(key + ".") }) else {
                    throw ConfigurationError("\(file): unknown setting \"\(key)\" (known: \(keys.joined(separator: ", ")))")
                }
                try flatten(inner, prefix: key, file: file, into: &raw)
            } else {
                guard keys.contains(key) else {
                    throw ConfigurationError("\(file): unknown setting \"\(key)\" (known: \(keys.joined(separator: ", ")))")
                }
                raw[key] = (m.value, .file(file))
            }
        }
    }

    private mutating func set(_ key: String, _ value: JSONValue, _ source: Source) throws(ConfigurationError) {
        func fail(_ expected: String) -> ConfigurationError {
            let origin =
                switch source {
                case .commandLine: "command line"
                case .environment(let name): name
                case .file(let f): f
                }
            return ConfigurationError("\(key) (\(origin)): \(expected), not \(value.display)")
        }
        func string() throws(ConfigurationError) -> String {
            guard case .string(let s) = value, !s.isEmpty else { throw fail("expected a non-empty string") }
            return s
        }
        func optionalString() throws(ConfigurationError) -> String? {
            if case .null = value { return nil }
            if case .string(let s) = value, s.isEmpty { return nil }
            return try string()
        }
        func integer(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            let text: String
            switch value {
            case .number(let n): text = n.text
            case .string(let s): text = s.trimmingCharacters(in: .whitespaces)
            default: throw fail("expected an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            guard let i = Int(text), range.contains(i) else {
                throw fail("expected an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return i
        }
        func seconds() throws(ConfigurationError) -> Double {
            let text: String
            switch value {
            case .number(let n): text = n.text
            case .string(let s): text = s.trimmingCharacters(in: .whitespaces)
            default: throw fail("expected a number of seconds > 0")
            }
            guard let d = Double(text), d > 0, d <= 86_400 else { throw fail("expected a number of seconds in (0, 86400]") }
            return d
        }
        func bool() throws(ConfigurationError) -> Bool {
            switch value {
            case .bool(let b): return b
            case .string(let s) where ["true", "1", "yes", "on"].contains(s.lowercased()): return true
            case .string(let s) where ["false", "0", "no", "off"].contains(s.lowercased()): return false
            default: throw fail("expected true or false")
            }
        }
        func automatic(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            if case .string(let s) = value, s.trimmingCharacters(in: .whitespaces).lowercased() == "auto" { return nil }
            if case .null = value { return nil }
            do { return try integer(range) } catch {
                throw fail("expected \"auto\" or an integer in \(range.lowerBound)...\(range.upperBound)")
            }
        }
        switch key {
        case "server.host": host = try string()
        case "server.io_threads": ioThreads = try automatic(1...256)
        case "server.workers": workers = try automatic(0...1024)
        case "server.event_queue":
            let v = try string().trimmingCharacters(in: .whitespaces).lowercased()
            if v == "auto" {
                eventQueue = nil
            } else if let kind = EventQueueKind(rawValue: v) {
                #if !os(Linux)
                if kind == .epoll { throw fail("epoll exists on Linux only; use \"auto\" or \"dispatch\"") }
                #endif
                eventQueue = kind
            } else {
                throw fail("expected \"auto\", \"epoll\" or \"dispatch\"")
            }
        case "server.port": port = try integer(0...65535)
        case "server.tls.cert": tlsCert = try optionalString()
        case "server.tls.key": tlsKey = try optionalString()
        case "forms.directory": formsDirectory = try string()
        case "forms.reload": formsReload = try bool()
        case "forms.strict": formsStrict = try bool()
        case "forms.max_file_bytes": maxFileBytes = try integer(1024...1 << 30)
        case "limits.max_body_bytes": maxBodyBytes = try integer(1...1 << 30)
        case "limits.max_header_bytes": maxHeaderBytes = try integer(256...1 << 20)
        case "limits.max_connections": maxConnections = try integer(1...1_000_000)
        case "limits.max_queued_response_bytes": maxQueuedResponseBytes = try integer(4096...1 << 30)
        case "limits.max_total_queued_response_bytes": maxTotalQueuedResponseBytes = try integer(4096...1 << 40)
        case "limits.max_text_bytes": maxTextBytes = try integer(64...1 << 30)
        case "limits.max_instances": maxInstances = try integer(1...1_000_000)
        case "timeouts.header_seconds": headerSeconds = try seconds()
        case "timeouts.body_seconds": bodySeconds = try seconds()
        case "timeouts.idle_seconds": idleSeconds = try seconds()
        case "timeouts.shutdown_seconds": shutdownSeconds = try seconds()
        case "log.level":
            let l = try string().lowercased()
            guard Self.logLevels.contains(l) else { throw fail("expected one of \(Self.logLevels.joined(separator: ", "))") }
            logLevel = l
        case "log.format":
            guard let f = LogFormat(rawValue: try string()) else { throw fail("expected text or json") }
            logFormat = f
        case "validators.postal_codes": postalCodes = try optionalString()
        case "cors.allowed_origins":
            // A JSON list, or (environment, flags) one string of comma-separated origins.
            var list: [String] = []
            switch value {
            case .null: break
            case .string(let s): list = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            case .array(let items):
                for item in items {
                    guard case .string(let s) = item else { throw fail("expected a list of origins (strings) or \"*\"") }
                    list.append(s)
                }
            default: throw fail("expected a list of origins or \"*\"")
            }
            for o in list where o != "*" && !CORSPolicy.isOrigin(o) {
                throw fail("\"\(o)\" is not an origin (scheme://host[:port], no path)")
            }
            corsAllowedOrigins = list
        case "ui.enabled": uiEnabled = try bool()
        default: throw ConfigurationError("unknown setting \"\(key)\"")
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
