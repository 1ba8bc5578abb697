import COpenSSL

/// What the TLS handshake agreed (empty on a plain connection).
extension HTTPTestClient {
    var ssl: OpaquePointer? { (stream as? TLSStream)?.ssl }

    /// The server certificate's subject, `/O=formd/CN=localhost`.
    public var peerSubject: String {
        guard let ssl, let cert = SSL_get1_peer_certificate(ssl) else { return "" }
        defer { X509_free(cert) }
        guard let line = X509_NAME_oneline(X509_get_subject_name(cert), nil, 0) else { return "" }
        defer { CRYPTO_free(line, #file, #line) }
        return String(cString: line)
    }

    public var alpn: String {
        guard let ssl else { return "" }
        var p: UnsafePointer<UInt8>?
        var len: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &p, &len)
        guard let p else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(len)), as: UTF8.self)
    }

    public var tlsVersion: String { ssl.map { String(cString: SSL_get_version($0)) } ?? "" }
    public var sessionReused: Bool { ssl.map { formd_session_reused($0) == 1 } ?? false }
    /// The session to resume with (the caller frees it with `SSL_SESSION_free`).
    public func session() -> OpaquePointer? { ssl.flatMap { SSL_get1_session($0) } }
}
