import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a TLS test client connects: the CA it trusts (the name checked is "localhost"), and what it
/// offers.
public struct TLSClientOptions {
    public var caFile: String
    /// A session to resume (from `HTTPTestClient.session()`).
    public var session: OpaquePointer?
    public var maxVersion: Int32
    public var ciphers: String?
    /// ALPN protocol list in wire format; nil offers `http/1.1`.
    public var alpn: [UInt8]?

    public init(
        caFile: String, session: OpaquePointer? = nil, maxVersion: Int32 = TLS1_3_VERSION, ciphers: String? = nil,
        alpn: [UInt8]? = nil
    ) {
        self.caFile = caFile
        self.session = session
        self.maxVersion = maxVersion
        self.ciphers = ciphers
        self.alpn = alpn
    }
}

/// A TLS session over a `SocketStream`, on the system OpenSSL's C API.
final class TLSStream: ByteStream {
    let socket: SocketStream
    let ctx: OpaquePointer
    let ssl: OpaquePointer
    var fd: Int32 { socket.fd }

    init(socket: SocketStream, options o: TLSClientOptions) throws {
        self.socket = socket
        ctx = SSL_CTX_new(TLS_client_method())!
        _ = formd_ctx_set_protocols(ctx, TLS1_VERSION, o.maxVersion)
        if let ciphers = o.ciphers { _ = SSL_CTX_set_cipher_list(ctx, ciphers) }
        _ = SSL_CTX_load_verify_locations(ctx, o.caFile, nil)
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        ssl = SSL_new(ctx)!
        _ = SSL_set_fd(ssl, socket.fd)
        _ = formd_set_sni(ssl, "localhost")
        _ = SSL_set1_host(ssl, "localhost")
        if let alpn = o.alpn { _ = SSL_set_alpn_protos(ssl, alpn, UInt32(alpn.count)) } else { _ = formd_set_alpn_http11(ssl) }
        if let session = o.session { _ = SSL_set_session(ssl, session) }
        ERR_clear_error()
        guard SSL_connect(ssl) == 1 else {
            // every stored property is set, so deinit frees ssl and ctx
            throw HarnessError("handshake failed: \(Self.lastError())")
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(ctx)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        Int(SSL_write(ssl, bytes.baseAddress!, Int32(bytes.count)))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        Int(SSL_read(ssl, buffer.baseAddress!, Int32(buffer.count)))
    }

    /// OpenSSL's most recent error as text.
    static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown error" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
