import FormdCore
import FormdHTTP

/// `POST /forms/{id}/validate` and `/evaluate`, the engine's routes: found without splitting the
/// path, answered with the form-set digest.
extension FormRoutes {
    enum EngineAction {
        case validate, evaluate

        /// The route template (metrics label).
        var template: String {
            switch self {
            case .validate: "/forms/{id}/validate"
            case .evaluate: "/forms/{id}/evaluate"
            }
        }
    }

    /// `(id, action)` when `path` is `/forms/<id>/validate` or `/forms/<id>/evaluate` with an
    /// ASCII id (the general route gives those the same answer, after splitting the path).
    static func engineTarget(_ path: String) -> (String, EngineAction)? {
        var path = path
        return path.withUTF8 { p -> (String, EngineAction)? in
            let prefix = 7  // "/forms/"
            let suffix = 9  // "/validate", "/evaluate"
            guard p.count >= prefix + suffix, p[6] == UInt8(ascii: "/"), p[p.count - suffix] == UInt8(ascii: "/"),
                startsWithForms(p)
            else { return nil }
            let action: EngineAction
            let verb = p.count - 8
            if bytes(p, at: verb, are: "validate") {
                action = .validate
            } else if bytes(p, at: verb, are: "evaluate") {
                action = .evaluate
            } else {
                return nil
            }
            let id = UnsafeBufferPointer(rebasing: p[prefix..<(p.count - suffix)])
            guard !id.contains(where: { $0 == UInt8(ascii: "/") || $0 >= 0x80 }) else { return nil }
            return (String(decoding: id, as: UTF8.self), action)
        }
    }

    /// `path.hasPrefix("/forms/")`, on the bytes: the same answer when the byte after the prefix
    /// is ASCII (it cannot join the `/` into another character), else String's own.
    static func hasFormsPrefix(_ path: String) -> Bool {
        var bytes = path
        let answer: Bool? = bytes.withUTF8 { p in
            guard p.count >= 7, p[6] == UInt8(ascii: "/"), startsWithForms(p) else { return false }
            return p.count == 7 || p[7] < 0x80 ? true : nil
        }
        return answer ?? path.hasPrefix("/forms/")
    }

    /// `p[at...]` starts with `literal` (the caller has checked the length).
    private static func bytes(_ p: UnsafeBufferPointer<UInt8>, at: Int, are literal: StaticString) -> Bool {
        let l = literal.utf8Start
        for i in 0..<literal.utf8CodeUnitCount where p[at + i] != l[i] { return false }
        return true
    }

    /// `p` begins with `/forms` (at least six bytes).
    static func startsWithForms(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        p[0] == UInt8(ascii: "/") && p[1] == UInt8(ascii: "f") && p[2] == UInt8(ascii: "o") && p[3] == UInt8(ascii: "r")
            && p[4] == UInt8(ascii: "m") && p[5] == UInt8(ascii: "s")
    }

    /// Runs `action` against the version the request asks for (If-Match, ?version=): current,
    /// kept, or a 412; never another.
    func engine(_ id: String, _ action: EngineAction, _ request: HTTPRequest) -> (String, HTTPResponse) {
        let template = action.template
        guard request.method == "POST" else { return (template, Self.notAllowed("POST")) }
        switch select(id, request) {
        case .problem(let problem): return (template, problem)
        case .form(let s):
            var r = action == .validate ? validate(s.form, request, current: s.current, versionChecked: true)
                : evaluate(s.form, request, current: s.current, versionChecked: true)
            let digest = registry.formsDigest().value
            guard r.deferred == nil else { return (template, r.finally { $0.headers.set(Self.digestHeader, digest) }) }
            r.headers.set(Self.digestHeader, digest)
            return (template, r)
        }
    }
}
