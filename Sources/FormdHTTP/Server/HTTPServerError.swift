/// The server could not start (bind, listen, epoll, TLS files): what failed, for a person.
package struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    package var description: String
}
