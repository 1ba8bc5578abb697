/// An upstream's address: `http://host[:port][/path]` or `https://…` (no user info, no fragment).
package struct UpstreamURL: Sendable, Hashable, CustomStringConvertible {
    package let isTLS: Bool
    /// The host as written (an IPv6 literal without its brackets).
    package let host: String
    package let port: Int
    /// Path and query, at least `/`.
    package let path: String

    package init?(_ text: String) {
        let rest: Substring
        if text.hasPrefix("http://") {
            isTLS = false
            rest = text.dropFirst(7)
        } else if text.hasPrefix("https://") {
            isTLS = true
            rest = text.dropFirst(8)
        } else {
            return nil
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count))
        if path.contains("#") || path.contains(" ") { return nil }
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { return nil }
        if let p = portText {
            guard let n = Int(p), (1...65535).contains(n) else { return nil }
            port = n
        } else {
            port = isTLS ? 443 : 80
        }
        self.host = String(host)
        self.path = path
    }

    /// The `Host` header's value.
    package var hostHeader: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return (isTLS ? port == 443 : port == 80) ? h : "\(h):\(port)"
    }

    /// Connections are pooled per origin.
    package var origin: String { "\(isTLS ? "https" : "http")://\(hostHeader)" }

    package var description: String { origin + path }
}
