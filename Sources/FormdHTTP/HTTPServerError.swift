/// The server could not start (bind, listen, epoll, TLS files): what failed, for a person.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
