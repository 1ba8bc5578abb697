extension HTTPServer {
    /// Re-reads the certificate chain and key (the configured paths, or `tls` when given) into
    /// a new context used by connections accepted from now on; open connections keep theirs.
    /// On error the current context stays in use and the error (naming the file) is thrown.
    package func reloadTLS(_ tls: TLSConfiguration? = nil) throws {
        guard let current = withStateLock({ $0.tlsContext }) else {
            throw HTTPServerError(description: "TLS reload: the server is not serving TLS")
        }
        let fresh = try TLSContext(tls ?? current.configuration)
        withStateLock { $0.tlsContext = fresh }
    }

    /// The TLS files in use (nil when serving plain HTTP or not started).
    package var tlsConfiguration: TLSConfiguration? { withStateLock { $0.tlsContext?.configuration } }

    func currentTLSContext() -> TLSContext? { withStateLock { $0.tlsContext } }
}
