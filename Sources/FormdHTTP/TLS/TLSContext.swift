import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An immutable OpenSSL server context (`SSL_CTX`): certificate, key and protocol policy.
///
/// A reload builds a new one and swaps it in for new connections; each `SSL` holds its own
/// reference on the `SSL_CTX` (OpenSSL reference counting), so connections made from an older
/// context keep working after the swap and the old context is freed with its last connection.
final class TLSContext: @unchecked Sendable {  // SSL_CTX is thread-safe once configured
    let ctx: OpaquePointer
    let configuration: TLSConfiguration

    /// Mozilla "intermediate" (v5.7) TLS 1.2 suites, ECDHE only (no finite-field DHE params to manage).
    static let tls12Ciphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")
    static let tls13Suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"
    static let groups = "X25519:P-256:P-384"

    /// Loads and checks the certificate chain and key; errors name the offending file.
    init(_ configuration: TLSConfiguration) throws {
        self.configuration = configuration
        let certPath = configuration.certificateChainPath
        let keyPath = configuration.privateKeyPath
        try Self.checkReadable(certPath, what: "certificate")
        try Self.checkReadable(keyPath, what: "private key")
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            throw HTTPServerError(description: "TLS: SSL_CTX_new failed: \(Self.lastError())")
        }
        self.ctx = ctx
        formd_ctx_disable_password_prompt(ctx)
        guard SSL_CTX_use_certificate_chain_file(ctx, certPath) == 1 else {
            throw HTTPServerError(description: "TLS certificate \(certPath): not a usable PEM certificate chain (\(Self.lastError()))")
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, keyPath, SSL_FILETYPE_PEM) == 1 else {
            if ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH {
                ERR_clear_error()
                throw HTTPServerError(description: "TLS private key \(keyPath) does not match the certificate \(certPath)")
            }
            throw HTTPServerError(description: "TLS private key \(keyPath): not a usable unencrypted PEM key (\(Self.lastError()))")
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            throw HTTPServerError(description: "TLS private key \(keyPath) does not match the certificate \(certPath)")
        }
        guard formd_ctx_set_protocols(ctx, TLS1_2_VERSION, TLS1_3_VERSION) == 1,
              SSL_CTX_set_cipher_list(ctx, Self.tls12Ciphers) == 1,
              SSL_CTX_set_ciphersuites(ctx, Self.tls13Suites) == 1,
              formd_ctx_set_groups(ctx, Self.groups) == 1
        else {
            throw HTTPServerError(description: "TLS: cannot apply the protocol policy: \(Self.lastError())")
        }
        formd_ctx_set_server_options(ctx)
        // Idle connections give their 2 x ~17 KiB record buffers back; partial writes and a
        // moving buffer let the connection retry a blocked write from its own `unsent` array.
        _ = formd_ctx_set_mode(ctx, Int(SSL_MODE_RELEASE_BUFFERS | SSL_MODE_ENABLE_PARTIAL_WRITE
                                         | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        // One recv per socket read instead of two per record (header, then body); the extra
        // bytes stay in OpenSSL, which `TLSConnection.hasBufferedInput` accounts for.
        formd_ctx_set_read_ahead(ctx, 1)
        formd_ctx_set_alpn_http11(ctx)
        // Resumption: TLS 1.3 and 1.2 tickets (OpenSSL default, keys per context) plus the
        // server-side session cache for TLS 1.2 clients that do not do tickets.
        formd_ctx_set_session_cache(ctx, 20_000)
        let sid: [UInt8] = Array("formd".utf8)
        _ = SSL_CTX_set_session_id_context(ctx, sid, UInt32(sid.count))
        _ = SSL_CTX_set_timeout(ctx, 7200)
        _ = SSL_CTX_set_num_tickets(ctx, 1)
    }

    deinit { SSL_CTX_free(ctx) }

    /// Session-cache hits (TLS 1.2 resumptions through the server cache).
    var sessionCacheHits: Int { formd_ctx_sess_hits(ctx) }

    private static func checkReadable(_ path: String, what: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw HTTPServerError(description: "TLS \(what) \(path): cannot read (\(Sys.errnoString))")
        }
        close(fd)
    }

    /// The oldest error on this thread's OpenSSL error queue, then the queue is cleared.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no detail" }
        var buf = [UInt8](repeating: 0, count: 256)
        buf.withUnsafeMutableBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { ERR_error_string_n(code, $0.baseAddress, $0.count) }
        }
        return String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self)
    }
}
