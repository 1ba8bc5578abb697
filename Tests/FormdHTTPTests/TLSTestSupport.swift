import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

/// A throwaway CA and server certificates made with the `openssl` CLI in a temp folder.
final class TestPKI {
    let dir: String
    var caCert: String { dir + "/ca.pem" }

    init() throws {
        dir = NSTemporaryDirectory() + "formd-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=formd test CA"])
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// A certificate for localhost/127.0.0.1 signed by the CA, as (chain path, key path).
    @discardableResult
    func issue(_ name: String, organization: String = "formd") throws -> (cert: String, key: String) {
        let ext = dir + "/\(name).ext"
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: ext, atomically: true, encoding: .utf8)
        try run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/O=\(organization)/CN=localhost"])
        try run(["x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-days", "2", "-extfile", ext, "-out", "\(name).pem"])
        return (dir + "/\(name).pem", dir + "/\(name).key")
    }

    private func run(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw HTTPServerError(description: "openssl \(args.joined(separator: " ")) failed: \(p.terminationStatus)")
        }
    }
}

func makeTLSServer(_ tls: TLSConfiguration, _ tweak: (inout HTTPServerConfiguration) -> Void = { _ in }) throws
    -> (HTTPServer, Int)
{
    try makeServer { c in
        c.tls = tls
        tweak(&c)
    }
}

/// A blocking TLS client on the same OpenSSL C API: verifies the server against the test CA
/// (name "localhost"), offers ALPN http/1.1, reads responses like `TestClient`.
final class TLSTestClient {
    let fd: Int32
    private let ctx: OpaquePointer
    let ssl: OpaquePointer
    var buffer: [UInt8] = []

    init(port: Int, caFile: String, session: OpaquePointer? = nil, maxVersion: Int32 = TLS1_3_VERSION,
         ciphers: String? = nil, alpn: [UInt8]? = nil, timeout: Double = 5) throws
    {
        let probe = try TestClient(port: port, timeout: timeout)  // plain TCP connect with timeouts
        fd = dup(probe.fd)
        ctx = SSL_CTX_new(TLS_client_method())!
        _ = formd_ctx_set_protocols(ctx, TLS1_VERSION, maxVersion)
        if let ciphers { _ = SSL_CTX_set_cipher_list(ctx, ciphers) }
        _ = SSL_CTX_load_verify_locations(ctx, caFile, nil)
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        ssl = SSL_new(ctx)!
        _ = SSL_set_fd(ssl, fd)
        _ = formd_set_sni(ssl, "localhost")
        _ = SSL_set1_host(ssl, "localhost")
        if let alpn { _ = SSL_set_alpn_protos(ssl, alpn, UInt32(alpn.count)) } else { _ = formd_set_alpn_http11(ssl) }
        if let session { _ = SSL_set_session(ssl, session) }
        ERR_clear_error()
        guard SSL_connect(ssl) == 1 else {
            // every stored property is set, so deinit frees ssl, ctx and fd
            throw HTTPServerError(description: "handshake failed: \(TLSContext.lastError())")
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(ctx)
        Glibc.close(fd)
    }

    var peerSubject: String {
        guard let cert = SSL_get1_peer_certificate(ssl) else { return "" }
        defer { X509_free(cert) }
        guard let line = X509_NAME_oneline(X509_get_subject_name(cert), nil, 0) else { return "" }
        defer { CRYPTO_free(line, #file, #line) }
        return String(cString: line)
    }

    var alpn: String {
        var p: UnsafePointer<UInt8>?
        var len: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &p, &len)
        guard let p else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(len)), as: UTF8.self)
    }

    var version: String { String(cString: SSL_get_version(ssl)) }
    var sessionReused: Bool { formd_session_reused(ssl) == 1 }
    /// The session to resume with (caller frees with SSL_SESSION_free).
    func session() -> OpaquePointer? { SSL_get1_session(ssl) }

    func send(_ s: String) { send(Array(s.utf8)) }
    func send(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + off, Int32(bytes.count - off)) }
            if n <= 0 { return }
            off += Int(n)
        }
    }

    private func fill() -> Bool {
        var tmp = [UInt8](repeating: 0, count: 65536)
        let n = SSL_read(ssl, &tmp, Int32(tmp.count))
        if n <= 0 { return false }
        buffer.append(contentsOf: tmp[0..<Int(n)])
        return true
    }

    /// True when the server ended the connection with nothing more to read.
    func isClosedByPeer() -> Bool { buffer.isEmpty && !fill() }

    func read(head: Bool = false) -> ClientResponse? {
        while true {
            if let r = buffer.firstRange(of: [13, 10, 13, 10]) {
                let headText = String(decoding: buffer[0..<r.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
                var headers = HTTPHeaders()
                for l in lines {
                    guard let c = l.firstIndex(of: ":") else { continue }
                    headers.add(String(l[..<c]), String(l[l.index(after: c)...]).trimmingCharacters(in: .whitespaces))
                }
                let length = head || status == 100 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
                while buffer.count < r.upperBound + length { if !fill() { return nil } }
                let body = Array(buffer[r.upperBound..<(r.upperBound + length)])
                buffer.removeFirst(r.upperBound + length)
                return ClientResponse(status: status, headers: headers, body: body)
            }
            if !fill() { return nil }
        }
    }
}

/// Polls `condition` for up to `seconds`.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
