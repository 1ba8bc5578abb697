import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The TLS side of one `Connection`: an `SSL` on the connection's non-blocking socket.
///
/// Every call returns at once; `WANT_READ`/`WANT_WRITE` become `.wouldBlock` plus a note of
/// which readiness OpenSSL waits for, and the connection's epoll interest follows it. Confined
/// to the loop thread, like its connection.
final class TLSConnection {
    enum Result: Equatable {
        case bytes(Int)
        case wouldBlock
        case eof
        case failed
    }

    private let ssl: OpaquePointer
    private(set) var established = false
    /// The handshake waits for a writable socket (else for a readable one).
    private(set) var handshakeWantsWrite = false
    /// Unusual cross-direction waits (a read that must first write, a write that must first
    /// read): the connection's epoll interest has to follow them or it would spin or stall.
    private(set) var readNeedsWritable = false
    private(set) var writeNeedsReadable = false
    /// The handshake failed because the client spoke plain HTTP (OpenSSL recognises the method).
    private(set) var sawPlainHTTP = false
    /// A fatal error happened: no close_notify may be sent (OpenSSL forbids SSL_shutdown then).
    private var broken = false

    init?(context: TLSContext, fd: Int32) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.ctx) else { return nil }
        self.ssl = ssl
        guard SSL_set_fd(ssl, fd) == 1 else { return nil }  // deinit frees ssl
        SSL_set_accept_state(ssl)
    }

    /// The client side (`HTTPClient`): SNI and the peer's name checked against `host` (a DNS
    /// name or an IP address), chain verification as the context says.
    init?(clientContext ctx: OpaquePointer, fd: Int32, host: String) {
        ERR_clear_error()
        guard let ssl = SSL_new(ctx) else { return nil }
        self.ssl = ssl
        guard SSL_set_fd(ssl, fd) == 1 else { return nil }
        SSL_set_connect_state(ssl)
        if TLSConnection.isIPAddress(host) {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else { return nil }
        } else {
            guard formd_set_sni(ssl, host) == 1, SSL_set1_host(ssl, host) == 1 else { return nil }
        }
        _ = formd_set_alpn_http11(ssl)
    }

    /// Why the peer's certificate was refused (after a failed client handshake), or nil.
    var verifyFailure: String? {
        let rc = SSL_get_verify_result(ssl)
        guard rc != Int(X509_V_OK) else { return nil }
        return String(cString: X509_verify_cert_error_string(rc))
    }

    static func isIPAddress(_ host: String) -> Bool {
        var a4 = in_addr()
        var a6 = in6_addr()
        return inet_pton(AF_INET, host, &a4) == 1 || inet_pton(AF_INET6, host, &a6) == 1
    }

    deinit { SSL_free(ssl) }

    /// Advances the handshake; `.bytes(0)` once established.
    func handshake() -> Result {
        ERR_clear_error()
        let rc = SSL_do_handshake(ssl)
        if rc == 1 {
            established = true
            return .bytes(0)
        }
        sawPlainHTTP = ERR_GET_REASON(ERR_peek_error()) == SSL_R_HTTP_REQUEST
        let (result, err) = classify(rc)
        handshakeWantsWrite = err == SSL_ERROR_WANT_WRITE
        return result
    }

    /// Decrypted bytes into `buffer`, or why none.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result {
        ERR_clear_error()
        let n = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if n > 0 { readNeedsWritable = false; return .bytes(Int(n)) }
        let (result, err) = classify(n)
        readNeedsWritable = err == SSL_ERROR_WANT_WRITE
        return result
    }

    /// Plaintext bytes taken (possibly fewer than asked: partial writes are on).
    func write(_ bytes: UnsafeRawBufferPointer) -> Result {
        ERR_clear_error()
        let n = SSL_write(ssl, bytes.baseAddress, Int32(min(bytes.count, 1 << 20)))
        if n > 0 { writeNeedsReadable = false; return .bytes(Int(n)) }
        let (result, err) = classify(n)
        writeNeedsReadable = err == SSL_ERROR_WANT_READ
        return result
    }

    /// Bytes OpenSSL holds (decrypted, or records read ahead) that epoll cannot report.
    var hasBufferedInput: Bool { SSL_has_pending(ssl) == 1 }

    /// Best-effort close_notify (never waits for the peer's).
    func sendCloseNotify() {
        guard established, !broken else { return }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
        broken = true  // once is enough
    }

    private func classify(_ rc: Int32) -> (Result, Int32) {
        let err = SSL_get_error(ssl, rc)
        switch err {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return (.wouldBlock, err)
        case SSL_ERROR_ZERO_RETURN:
            return (.eof, err)  // close_notify, or a bare EOF (SSL_OP_IGNORE_UNEXPECTED_EOF)
        default:
            // SSL_ERROR_SYSCALL / SSL_ERROR_SSL: reset, garbage (plain HTTP included), bad handshake.
            broken = true
            ERR_clear_error()
            return (.failed, err)
        }
    }
}
