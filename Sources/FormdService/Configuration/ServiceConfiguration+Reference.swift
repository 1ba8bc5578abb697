extension ServiceConfiguration {
    /// The configuration as a config file: nested objects in documentation order, one key per line.
    /// `ServiceConfiguration().configFileJSON()` is `config/formd.json` (a test compares).
    package func configFileJSON() -> String {
        var out = "{\n"
        var open: [String] = []  // the sections the previous key is in
        var first = true
        for setting in Self.settings {
            var path = setting.key.split(separator: ".").map(String.init)
            let name = path.removeLast()
            var common = 0
            while common < min(open.count, path.count), open[common] == path[common] { common += 1 }
            while open.count > common {
                open.removeLast()
                out += "\n" + indent(open.count + 1) + "}"
                first = false
            }
            while open.count < path.count {
                out += (first ? "" : ",\n") + indent(open.count + 1) + Setting.quoted(path[open.count]) + ": {\n"
                open.append(path[open.count])
                first = true
            }
            out += (first ? "" : ",\n") + indent(open.count + 1) + Setting.quoted(name) + ": " + setting.json(self)
            first = false
        }
        while !open.isEmpty {
            open.removeLast()
            out += "\n" + indent(open.count + 1) + "}"
        }
        return out + "\n}\n"
    }

    /// The README's settings table: key, environment variable, default, meaning.
    package static func referenceMarkdown() -> String {
        let defaults = ServiceConfiguration()
        var out = "| key | environment | default | meaning |\n|---|---|---|---|\n"
        for s in settings {
            let json = s.json(defaults)
            let shown =
                switch json {
                case "null", "[]": "none"
                case _ where json.hasPrefix("\""): "`" + json.dropFirst().dropLast() + "`"
                default: "`" + json + "`"
                }
            out += "| `\(s.key)` | `\(s.environmentName)` | \(shown) | \(s.summary) |\n"
        }
        return out
    }

    private func indent(_ level: Int) -> String { String(repeating: "  ", count: level) }
}
