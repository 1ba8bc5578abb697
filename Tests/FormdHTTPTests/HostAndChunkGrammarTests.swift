import Testing
@testable import FormdHTTP

/// RFC 9112 §3.2 (Host is `uri-host [":" port]`) and §7.1 (chunk-size lines): anything else is
/// a 400 that closes the connection.
@Suite struct HostAndChunkGrammarTests {
    private func status(_ text: String) -> Int? { simulate([Array(text.utf8)[...]]).first?.status }

    @Test(arguments: ["localhost", "localhost:8080", "127.0.0.1:80", "[::1]:8080", "[::1]", "", "xn--bcher-kva.example",
                      "a%20b", "x:", "sub_domain.example~1"])
    func validHosts(_ host: String) {
        #expect(status("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") == 200, "Host: \(host)")
    }

    @Test(arguments: ["a b", "x/y", "[::1", "x:8o", "x:80:80", "a@b", "%zz", "[]", "x?y", "\"q\""])
    func invalidHosts(_ host: String) {
        #expect(status("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") == 400, "Host: \(host)")
    }

    private func chunked(_ sizeLine: String) -> Int? {
        status("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(sizeLine)\r\nhello\r\n0\r\n\r\n")
    }

    @Test(arguments: ["5", "5;ext", "5 ;ext", "5; ext=val", "5;ext = \"quoted ; value\"", "5;a;b=c", "005"])
    func validChunkSizeLines(_ line: String) {
        #expect(chunked(line) == 200, "\(line)")
    }

    @Test(arguments: ["5 ", "5\t", "5 x", "5;", "5; ", "5;=v", "5;ext=", "5;ext=\"open", "5;e\u{7F}", "5,ext"])
    func invalidChunkSizeLines(_ line: String) {
        #expect(chunked(line) == 400, "\(line.debugDescription)")
    }
}
