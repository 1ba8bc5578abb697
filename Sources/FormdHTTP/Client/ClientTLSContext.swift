import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An OpenSSL client context: TLS 1.2 or 1.3, the peer's chain verified against the system CA
/// store (or `caFile` alone when given), its name checked per connection (`TLSConnection`).
final class ClientTLSContext: @unchecked Sendable {  // SSL_CTX is thread-safe once configured
    let ctx: OpaquePointer

    init(caFile: String?) throws {
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw HTTPServerError(description: "TLS client: SSL_CTX_new failed: \(TLSContext.lastError())")
        }
        self.ctx = ctx
        guard formd_ctx_set_protocols(ctx, TLS1_2_VERSION, TLS1_3_VERSION) == 1 else {
            throw HTTPServerError(description: "TLS client: cannot set the protocol versions: \(TLSContext.lastError())")
        }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        if let caFile {
            guard SSL_CTX_load_verify_locations(ctx, caFile, nil) == 1 else {
                throw HTTPServerError(description: "ca_file \(caFile): not a usable PEM certificate file (\(TLSContext.lastError()))")
            }
        } else {
            guard SSL_CTX_set_default_verify_paths(ctx) == 1 else {
                throw HTTPServerError(description: "TLS client: cannot load the system CA store: \(TLSContext.lastError())")
            }
        }
        _ = formd_ctx_set_mode(ctx, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
    }

    deinit { SSL_CTX_free(ctx) }
}
