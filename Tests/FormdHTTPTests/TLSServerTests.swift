import COpenSSL
import Foundation
import FormdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

@Suite(.serialized) struct TLSServerTests {
    let pki: TestPKI
    let tls: TLSConfiguration

    init() throws {
        pki = try TestPKI()
        let (cert, key) = try pki.issue("server")
        tls = TLSConfiguration(certificateChainPath: cert, privateKeyPath: key)
    }

    @Test func handshakeAndRequest() throws {
        let (s, port) = try makeTLSServer(tls)
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        #expect(c.tlsVersion == "TLSv1.3")
        #expect(c.alpn == "http/1.1")
        #expect(c.peerSubject.contains("CN=localhost"))
        try c.send("GET /hello?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let r = try #require(c.read())
        #expect(r.status == 200)
        #expect(r.text == "{\"path\":\"/hello\",\"query\":\"x=1\",\"len\":0}")
        // ALPN: a client that offers only h2 is refused (no_application_protocol)
        let h2 = #expect(throws: HarnessError.self) { try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert, alpn: Array("\u{2}h2".utf8))) }
        #expect(h2?.description.contains("no application protocol") == true, "\(String(describing: h2))")
        let mixed = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert, alpn: Array("\u{2}h2\u{8}http/1.1".utf8)))
        #expect(mixed.alpn == "http/1.1")
    }

    @Test func tls12WithIntermediateCipherAndOldVersionsRefused() throws {
        let (s, port) = try makeTLSServer(tls)
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert, maxVersion: TLS1_2_VERSION,
                                  ciphers: "ECDHE-ECDSA-CHACHA20-POLY1305"))
        #expect(c.tlsVersion == "TLSv1.2")
        try c.send("GET /v12 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(c.read()).status == 200)
        let old = #expect(throws: HarnessError.self) { try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert, maxVersion: TLS1_1_VERSION)) }
        #expect(old?.description.contains("protocol version") == true, "\(String(describing: old))")
        #expect(throws: HarnessError.self) {
            try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert, maxVersion: TLS1_2_VERSION, ciphers: "ECDHE-ECDSA-AES128-SHA256"))
        }
    }

    /// Both handler modes: in `.pool` the responses are written from `complete` after a worker
    /// ran the handler (what `formd serve` does for validate and evaluate).
    @Test(arguments: [HTTPServerConfiguration.HandlerMode.inline, .pool(width: 2)])
    func keepAlivePipeliningAndLargeBodies(_ mode: HTTPServerConfiguration.HandlerMode) throws {
        let (s, port) = try makeTLSServer(tls) { $0.handlerMode = mode }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        for i in 0..<3 {
            try c.send("GET /k\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try #require(c.read()).text == "{\"path\":\"/k\(i)\",\"query\":\"\",\"len\":0}")
        }
        var all = ""
        for i in 0..<20 { all += "POST /p\(i) HTTP/1.1\r\nHost: x\r\nContent-Length: \(i)\r\n\r\n" + String(repeating: "z", count: i) }
        try c.send(all)
        for i in 0..<20 {
            #expect(try #require(c.read()).text == "{\"path\":\"/p\(i)\",\"query\":\"\",\"len\":\(i)}")
        }
        // a body and a response spanning many TLS records (and partial socket writes)
        let big = (0..<900_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try c.send(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(big.count)\r\n\r\n".utf8) + big)
        let r = try #require(c.read())
        #expect(r.status == 200 && r.body == big)
        try c.send("GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try #require(c.read()).status == 200)
        #expect(c.isClosedByServer())
    }

    @Test func sessionResumption() throws {
        let (s, port) = try makeTLSServer(tls)
        defer { stop(s) }
        for maxVersion in [TLS1_3_VERSION, TLS1_2_VERSION] {
            let first = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert, maxVersion: maxVersion))
            try first.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")  // TLS 1.3 tickets arrive after the handshake
            _ = try #require(first.read())
            let session = try #require(first.session())
            defer { SSL_SESSION_free(session) }
            let second = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert, session: session, maxVersion: maxVersion))
            #expect(second.sessionReused, "max version \(maxVersion)")
            try second.send("GET /two HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try #require(second.read()).status == 200)
        }
    }

    @Test func missingCertificateFailsNamingTheFile() throws {
        let missing = pki.dir + "/nope.pem"
        var c = testConfiguration()
        c.port = 0
        c.tls = TLSConfiguration(certificateChainPath: missing, privateKeyPath: tls.privateKeyPath)
        let s = HTTPServer(configuration: c, handler: EchoHandler())
        let error = try #require(throws: HTTPServerError.self) { try s.start() }
        #expect(error.description.contains(missing))
        #expect(s.state == .stopped)
        c.tls = TLSConfiguration(certificateChainPath: tls.certificateChainPath, privateKeyPath: missing)
        let e2 = try #require(throws: HTTPServerError.self) { try HTTPServer(configuration: c, handler: EchoHandler()).start() }
        #expect(e2.description.contains(missing))
        // a file that is not PEM
        c.tls = TLSConfiguration(certificateChainPath: pki.dir + "/server.ext", privateKeyPath: tls.privateKeyPath)
        let e3 = try #require(throws: HTTPServerError.self) { try HTTPServer(configuration: c, handler: EchoHandler()).start() }
        #expect(e3.description.contains("server.ext"))
    }

    @Test func mismatchedKeyFails() throws {
        let (_, otherKey) = try pki.issue("other")
        var c = testConfiguration()
        c.port = 0
        c.tls = TLSConfiguration(certificateChainPath: tls.certificateChainPath, privateKeyPath: otherKey)
        let error = try #require(throws: HTTPServerError.self) { try HTTPServer(configuration: c, handler: EchoHandler()).start() }
        #expect(error.description.contains(otherKey) && error.description.contains("does not match"))
    }

    @Test func plaintextAndGarbageOnTLSPortCloseOnlyThatConnection() throws {
        let (s, port) = try makeTLSServer(tls)
        defer { stop(s) }
        let keep = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        let plain = try HTTPTestClient(port: port)
        try plain.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try #require(plain.read())  // a plain 400 naming the problem, then closed
        #expect(answer.status == 400 && answer.headers["connection"] == "close")
        #expect(answer.text.contains("HTTPS"))
        #expect(plain.isClosedByServer())
        let garbage = try HTTPTestClient(port: port)
        try garbage.send((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        #expect(garbage.isClosedByServer())
        // garbage records after a good handshake (written under the TLS layer)
        let tampered = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        let junk: [UInt8] = [0x17, 0x03, 0x03, 0x00, 0x20] + Array(repeating: 0xAB, count: 32)
        _ = junk.withUnsafeBytes { Glibc.send(tampered.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(tampered.isClosedByServer())
        try keep.send("GET /still HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(keep.read()).status == 200)
        let fresh = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        try fresh.send("GET /fresh HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(fresh.read()).status == 200)
        #expect(eventually { s.openConnections == 2 ? true : nil } != nil)
    }

    @Test func stalledAndVanishingHandshakesAreClosed() throws {
        let (s, port) = try makeTLSServer(tls) { $0.headerTimeout = 0.4 }
        defer { stop(s) }
        let silent = try HTTPTestClient(port: port)
        // a ClientHello record header promising 512 bytes, then silence
        let partial = try HTTPTestClient(port: port)
        try partial.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01])
        // a client that vanishes mid-handshake
        do {
            let gone = try HTTPTestClient(port: port)
            try gone.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01])
        }
        let start = Date()
        #expect(silent.isClosedByServer())
        #expect(partial.isClosedByServer())
        #expect(Date().timeIntervalSince(start) < 3)
        #expect(eventually { s.openConnections == 0 ? true : nil } != nil)
        let c = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(c.read()).status == 200)
    }

    @Test func reloadSwapsCertificateForNewConnectionsOnly() throws {
        // the files are replaced in place, as a certificate renewal does, then reloaded
        let dir = pki.dir
        let live = TLSConfiguration(certificateChainPath: dir + "/live.pem", privateKeyPath: dir + "/live.key")
        try FileManager.default.copyItem(atPath: tls.certificateChainPath, toPath: live.certificateChainPath)
        try FileManager.default.copyItem(atPath: tls.privateKeyPath, toPath: live.privateKeyPath)
        let (s, port) = try makeTLSServer(live)
        defer { stop(s) }
        let old = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        #expect(old.peerSubject.contains("O=formd"))
        try old.send("GET /before HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(old.read()).status == 200)

        let (newCert, newKey) = try pki.issue("renewed", organization: "renewed")
        for (from, to) in [(newCert, live.certificateChainPath), (newKey, live.privateKeyPath)] {
            try Data(contentsOf: URL(fileURLWithPath: from)).write(to: URL(fileURLWithPath: to), options: .atomic)
        }
        try s.reloadTLS()
        let fresh = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        #expect(fresh.peerSubject.contains("O=renewed"))
        try fresh.send("GET /new HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(fresh.read()).status == 200)
        try old.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(old.read()).text.contains("/after"))

        // a broken reload throws, naming the file, and keeps the current certificate
        try "not a certificate\n".write(toFile: live.certificateChainPath, atomically: true, encoding: .utf8)
        let error = try #require(throws: HTTPServerError.self) { try s.reloadTLS() }
        #expect(error.description.contains(live.certificateChainPath))
        let again = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert))
        #expect(again.peerSubject.contains("O=renewed"))
        // explicit new paths
        let (third, thirdKey) = try pki.issue("third", organization: "third")
        try s.reloadTLS(TLSConfiguration(certificateChainPath: third, privateKeyPath: thirdKey))
        #expect(try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert)).peerSubject.contains("O=third"))
        #expect(s.tlsConfiguration?.certificateChainPath == third)
    }

    @Test func reloadWithoutTLSThrows() throws {
        let (s, _) = try makeServer()
        defer { stop(s) }
        #expect(throws: HTTPServerError.self) { try s.reloadTLS() }
    }
}
