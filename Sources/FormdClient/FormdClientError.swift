import FormdCore
import Foundation

/// An RFC 9457 problem as formd answers it (`application/problem+json`).
public struct Problem: Sendable, Equatable, Decodable {
    /// `/problems/<slug>`.
    public let type: String
    /// The status's reason phrase.
    public let title: String
    /// The HTTP status.
    public let status: Int
    /// What happened, for a person.
    public let detail: String
    /// A stable code where formd gives one: `version-not-held` on a 412 (API.md §3.1).
    public let code: String?
    /// On a 412: the form's current version on the replica that answered.
    public let currentVersion: String?
    /// On a 412: the versions that replica holds, the current one first.
    public let versions: [String]?

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, code, versions
        case currentVersion = "current_version"
    }

    /// A problem.
    public init(
        type: String, title: String, status: Int, detail: String, code: String? = nil, currentVersion: String? = nil,
        versions: [String]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.currentVersion = currentVersion
        self.versions = versions
    }

    /// The last part of `type`: `not-found`, `precondition-failed`, `overloaded`, ...
    public var slug: String { type.split(separator: "/").last.map(String.init) ?? type }
}

/// Why a request to formd failed.
public enum FormdClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: no connection, a timeout, DNS (the `URLError` code is kept).
    case unreachable(String, code: Int)
    /// 404: no such form.
    case notFound(Problem)
    /// 412: the form changed since the version the request named.
    case preconditionFailed(Problem)
    /// 503: formd is overloaded or draining; try again after `retryAfter` seconds if given.
    case overloaded(Problem, retryAfter: Int?)
    /// 400, 413, 415: the request itself was refused (`detail` says why).
    case badRequest(Problem)
    /// Any other status.
    case server(status: Int, Problem?)
    /// The server's definition is not one the engine on this device can load.
    case invalidDefinition(String)
    /// The answer was not what formd sends.
    case invalidAnswer(String)

    /// The error for an HTTP answer with `status` (not 2xx), its body and its `Retry-After`.
    public init(status: Int, body: Data, retryAfter: String?) {
        let problem = try? JSONDecoder().decode(Problem.self, from: body)
        let fallback = Problem(type: "about:blank", title: "HTTP \(status)", status: status, detail: "")
        switch status {
        case 404: self = .notFound(problem ?? fallback)
        case 412: self = .preconditionFailed(problem ?? fallback)
        case 503: self = .overloaded(problem ?? fallback, retryAfter: retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        case 400, 413, 415: self = .badRequest(problem ?? fallback)
        default: self = .server(status: status, problem)
        }
    }

    /// The server could not be reached (what the offline mode falls back on).
    public var isUnreachable: Bool { if case .unreachable = self { true } else { false } }

    /// One line for logs.
    public var description: String {
        switch self {
        case .unreachable(let m, _): "formd cannot be reached: \(m)"
        case .notFound(let p), .preconditionFailed(let p), .badRequest(let p): "\(p.status) \(p.slug): \(p.detail)"
        case .overloaded(let p, let after): "\(p.status) \(p.slug): \(p.detail)" + (after.map { " (retry after \($0) s)" } ?? "")
        case .server(let status, let p): "HTTP \(status)" + (p.map { " \($0.slug): \($0.detail)" } ?? "")
        case .invalidDefinition(let m): "the definition cannot be loaded: \(m)"
        case .invalidAnswer(let m): "not a formd answer: \(m)"
        }
    }
}
