import FormdCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of a formd server, for apps (iOS, macOS, Linux): list forms, fetch definitions
/// (cached, revalidated with their ETag), and validate or evaluate remotely with typed answers.
/// With `offline` on, a request the server cannot answer is evaluated on the device with
/// `FormdCore` on the cached definition, and the result says so (``Source/local``).
///
/// ```swift
/// let formd = FormdClient(server: URL(string: "https://forms.example")!, locale: "nb")
/// let result = try await formd.evaluate("signup", ["email": "ola@"], changed: ["email"])
/// if result.source == .local { showOfflineBadge() }
/// for error in result.state.errors { show(error.message, on: error.field) }
/// ```
public final class FormdClient: Sendable {
    /// Where an answer came from.
    public enum Source: Sendable, Equatable {
        /// The server computed it.
        case server
        /// The server could not be reached; the engine on this device computed it with the
        /// definition of ``Result/version`` (the last one the server sent).
        case local
    }

    /// A state and where it was computed.
    public struct Result: Sendable, Equatable {
        /// What formd (or the device) computed.
        public let state: FormState
        /// Where.
        public let source: Source
        /// The definition version the state was computed against.
        public var version: String { state.version }
    }

    /// One form in `GET /forms`.
    public struct FormSummary: Sendable, Equatable, Decodable {
        /// The form id.
        public let id: String
        /// Its `title` (else its first group's, else the id).
        public let title: String
        /// Its definition's ETag.
        public let version: String
        /// Fields that hold values.
        public let fields: Int
    }

    /// formd's base URL.
    public let server: URL
    /// Language tag for messages (`en`, `nb`, `es`); nil lets the server choose (English).
    public let locale: String?
    /// Evaluate on the device when the server cannot be reached (and a definition is cached).
    public let offline: Bool
    let session: URLSession
    let cache: DefinitionCache

    /// - Parameters:
    ///   - server: formd's base URL (`https://forms.example/`).
    ///   - locale: messages in this language (sent as `?locale=`).
    ///   - offline: fall back to on-device evaluation when the server cannot be reached.
    ///   - cacheDirectory: where definitions are kept between launches (nil: memory only).
    ///   - session: the `URLSession` to use (`.shared` by default).
    public init(server: URL, locale: String? = nil, offline: Bool = true, cacheDirectory: URL? = nil, session: URLSession = .shared) {
        self.server = server.absoluteString.hasSuffix("/") ? server : server.appendingPathComponent("")
        self.locale = locale
        self.offline = offline
        self.session = session
        self.cache = DefinitionCache(directory: cacheDirectory)
    }

    // MARK: - Definitions

    /// `GET /forms`.
    public func forms() async throws(FormdClientError) -> [FormSummary] {
        let (data, _) = try await send(get: "forms")
        struct List: Decodable { let forms: [FormSummary] }
        do { return try JSONDecoder().decode(List.self, from: data).forms } catch { throw .invalidAnswer(String(describing: error)) }
    }

    /// The form's definition, loaded into the engine: from the cache when the server answers
    /// 304 to its `If-None-Match`, else as the server sends it (and then cached). When the server
    /// cannot be reached and `offline` is on, the cached one.
    public func form(_ id: String) async throws(FormdClientError) -> Form {
        let cached = await cache.entry(id)
        do throws(FormdClientError) {
            let (data, response) = try await send(get: "forms/\(Self.escape(id))", raw: true, ifNoneMatch: cached?.version, allow304: true)
            if response.statusCode == 304, let cached { return cached.form }
            guard let version = response.value(forHTTPHeaderField: "ETag") else { throw .invalidAnswer("no ETag") }
            let form: Form
            do { form = try Form(id: id, json: data) } catch { throw .invalidDefinition(error.description) }
            guard form.version == version else { throw .invalidAnswer("the definition's bytes do not match its ETag") }
            await cache.store(id, form: form, bytes: Array(data))
            return form
        } catch {
            if offline, error.isUnreachable, let cached { return cached.form }
            throw error
        }
    }

    // MARK: - Validate and evaluate

    /// `POST /forms/{id}/validate`. With `version` (a ``Form/version`` the app drew), the server
    /// answers only for that version (`If-Match`), else ``FormdClientError/preconditionFailed(_:)``.
    /// Offline (see ``offline``): validated on the device.
    public func validate(_ id: String, _ values: FormValues, version: String? = nil) async throws(FormdClientError) -> Result {
        do throws(FormdClientError) {
            let (data, _) = try await send(post: "forms/\(Self.escape(id))/validate", body: FormValue.object(values).jsonBytes, ifMatch: version, accept422: true)
            return Result(state: try Self.state(data), source: .server)
        } catch {
            guard offline, error.isUnreachable, let form = await cache.entry(id)?.form else { throw error }
            do {
                return Result(state: try form.validate(values, locale: locale), source: .local)
            } catch {
                throw .badRequest(Problem(type: "/problems/bad-rows", title: "Bad Request", status: 400, detail: error.description))
            }
        }
    }

    /// `POST /forms/{id}/evaluate` with `changed`; `version` as for ``validate(_:_:version:)``.
    /// Offline (see ``offline``): evaluated on the device.
    public func evaluate(_ id: String, _ values: FormValues, changed: [String] = [], version: String? = nil) async throws(FormdClientError) -> Result {
        var body = JSONObject()
        body.append("values", .object(values))
        body.append("changed", .array(changed.map { .string($0) }))
        do throws(FormdClientError) {
            let (data, _) = try await send(post: "forms/\(Self.escape(id))/evaluate", body: FormValue.object(body).jsonBytes, ifMatch: version)
            return Result(state: try Self.state(data), source: .server)
        } catch {
            guard offline, error.isUnreachable, let form = await cache.entry(id)?.form else { throw error }
            do {
                return Result(state: try form.evaluate(values, changed: changed, locale: locale), source: .local)
            } catch {
                throw .badRequest(Problem(type: "/problems/bad-request", title: "Bad Request", status: 400, detail: error.description))
            }
        }
    }

    // MARK: - HTTP

    static func state(_ data: Data) throws(FormdClientError) -> FormState {
        do { return try FormState(answer: data) } catch { throw .invalidAnswer(error.description) }
    }

    static func escape(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? id
    }

    func url(_ path: String, raw: Bool = false) -> URL {
        var c = URLComponents(url: server.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        // The definition as written: the engine resolves texts given per language itself (messages
        // quote the label in their locale), and its version is the file's.
        if raw {
            c.queryItems = [URLQueryItem(name: "raw", value: "true")]
        } else if let locale {
            c.queryItems = [URLQueryItem(name: "locale", value: locale)]
        }
        return c.url!
    }

    func send(get path: String, raw: Bool = false, ifNoneMatch: String? = nil, allow304: Bool = false) async throws(FormdClientError)
        -> (Data, HTTPURLResponse)
    {
        var request = URLRequest(url: url(path, raw: raw))
        // The client revalidates itself; URLSession's own cache must not answer for the server.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        return try await perform(request, accept: allow304 ? [304] : [])
    }

    func send(post path: String, body: [UInt8], ifMatch: String? = nil, accept422: Bool = false) async throws(FormdClientError) -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(body)
        if let ifMatch { request.setValue(ifMatch, forHTTPHeaderField: "If-Match") }
        return try await perform(request, accept: accept422 ? [422] : [])
    }

    func perform(_ request: URLRequest, accept: Set<Int>) async throws(FormdClientError) -> (Data, HTTPURLResponse) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw .unreachable(error.localizedDescription, code: error.code.rawValue)
        } catch {
            throw .unreachable(String(describing: error), code: 0)
        }
        guard let http = response as? HTTPURLResponse else { throw .invalidAnswer("not HTTP") }
        if (200..<300).contains(http.statusCode) || accept.contains(http.statusCode) { return (data, http) }
        throw FormdClientError(status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }
}
