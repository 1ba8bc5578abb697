/// TLS settings of an `HTTPServer` (HTTPS when set on `HTTPServerConfiguration.tls`).
///
/// The policy is fixed, not configurable: TLS 1.2 and 1.3 only, Mozilla "intermediate" cipher
/// suites for TLS 1.2 (ECDHE with AES-GCM or CHACHA20-POLY1305), OpenSSL's TLS 1.3 defaults,
/// ALPN `http/1.1`, session resumption through the server cache and tickets.
package struct TLSConfiguration: Sendable, Equatable {
    /// PEM file: the server certificate first, then its intermediates.
    package var certificateChainPath: String
    /// PEM file: the unencrypted private key of the certificate.
    package var privateKeyPath: String

    package init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }
}

extension TLSConfiguration {
    /// Loads the files as `HTTPServer.start()` would and throws the same error (naming the
    /// file) when they are unusable; lets a caller fail before doing other start-up work.
    package func validate() throws {
        _ = try TLSContext(self)
    }
}
