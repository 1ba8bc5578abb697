@testable import FormdHTTP

/// One raw request and what the server must answer: status, and whether it closes after.
struct Vector: CustomStringConvertible, Sendable {
    var name: String
    var raw: [UInt8]
    var status: Int
    var close: Bool
    var body: [UInt8]? = nil
    var description: String { name }
}

/// Limits used for the vectors (small, so limit cases stay small).
let vectorMaxBody = 1024
let vectorMaxHeader = 1024

private func v(_ name: String, _ raw: String, _ status: Int, close: Bool = false, body: String? = nil) -> Vector {
    Vector(name: name, raw: Array(raw.utf8), status: status, close: close, body: body.map { Array($0.utf8) })
}

private func vb(_ name: String, _ head: String, _ bytes: [UInt8], _ status: Int, close: Bool = false, body: [UInt8]? = nil) -> Vector {
    Vector(name: name, raw: Array(head.utf8) + bytes, status: status, close: close, body: body)
}

let gzipHello: [UInt8] = Gzip.compress(Array("hello gzip".utf8))!
let gzipBomb: [UInt8] = Gzip.compress([UInt8](repeating: 0, count: 200_000))!

let parserVectors: [Vector] = [
    // valid
    v("simple GET", "GET / HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("HTTP/1.0 closes", "GET / HTTP/1.0\r\n\r\n", 200, close: true),
    v("HTTP/1.0 keep-alive", "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 200),
    v("Connection close", "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 200, close: true),
    v("Connection list with close", "GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Close\r\n\r\n", 200, close: true),
    v("Content-Length body", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", 200, body: "hello"),
    v("chunked body", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 200, body: "hello"),
    v("chunk extensions", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;foo=bar\r\nhello\r\n0;x\r\n\r\n", 200, body: "hello"),
    v("chunk trailers", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-T: 1\r\nY: 2\r\n\r\n", 200, body: "hello"),
    v("uppercase hex", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n", 200, body: "0123456789"),
    v("lowercase hex", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n0\r\n\r\n", 200, body: "0123456789"),
    v("several chunks", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n1\r\nf\r\n0\r\n\r\n", 200, body: "abcdef"),
    v("chunk size leading zeros", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n003\r\nabc\r\n000\r\n\r\n", 200, body: "abc"),
    v("chunk size BWS before ext", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3 ;a=b\r\nabc\r\n0\r\n\r\n", 200, body: "abc"),
    v("Content-Length 0", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", 200, body: ""),
    v("repeated equal Content-Length", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 200, body: "hello"),
    v("Content-Length list equal", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\nhello", 200, body: "hello"),
    v("Content-Length leading zeros", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 005\r\n\r\nhello", 200, body: "hello"),
    v("leading empty line", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("two leading empty lines", "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("value trailing whitespace", "GET / HTTP/1.1\r\nHost: a  \t\r\nX-A:   b   \r\n\r\n", 200),
    v("empty header value", "GET / HTTP/1.1\r\nHost: a\r\nX-E:\r\n\r\n", 200),
    vb("obs-text in value", "GET / HTTP/1.1\r\nHost: a\r\nX-O: ", [0xC3, 0xA9, 0xFF, 13, 10, 13, 10], 200),
    v("OPTIONS asterisk", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("absolute-form", "GET http://a/x?y=1 HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("tab in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\tb\r\n\r\n", 200),
    v("extension method", "PURGE /x HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("lowercase method token", "get / HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("TE case-insensitive", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n", 200, body: "z"),
    v("Expect with body present", "POST /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok", 200, body: "ok"),
    v("HEAD", "HEAD / HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("long header under limit", "GET / HTTP/1.1\r\nHost: a\r\nX-L: " + String(repeating: "x", count: 900) + "\r\n\r\n", 200),
    v("body exactly at limit", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1024\r\n\r\n" + String(repeating: "b", count: 1024), 200),
    v("chunked total at limit", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n" + String(repeating: "c", count: 512) + "\r\n200\r\n" + String(repeating: "c", count: 512) + "\r\n0\r\n\r\n", 200),
    v("host with port", "GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n", 200),
    v("lowercase names", "post /x HTTP/1.1\r\nhost: a\r\ncontent-length: 1\r\n\r\nq", 200, body: "q"),
    v("query string", "GET /a/b?c=d&e HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    v("Content-Encoding identity", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: identity\r\nContent-Length: 2\r\n\r\nhi", 200, body: "hi"),
    vb("gzip body", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipHello.count)\r\n\r\n", gzipHello, 200, body: Array("hello gzip".utf8)),
    vb("gzip chunked body", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: GZIP\r\nTransfer-Encoding: chunked\r\n\r\n\(String(gzipHello.count, radix: 16))\r\n", gzipHello + Array("\r\n0\r\n\r\n".utf8), 200, body: Array("hello gzip".utf8)),
    v("HTTP/1.0 with Host", "GET / HTTP/1.0\r\nHost: a\r\n\r\n", 200, close: true),
    v("HTTP/1.0 body", "POST /x HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc", 200, close: true, body: "abc"),

    // framing and syntax errors: 400 and close
    v("CL and TE", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400, close: true),
    v("TE and CL", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400, close: true),
    v("differing CL", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400, close: true),
    v("CL list differing", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\nhello!", 400, close: true),
    v("CL not a number", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", 400, close: true),
    v("CL negative", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400, close: true),
    v("CL plus sign", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello", 400, close: true),
    v("CL empty", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", 400, close: true),
    v("CL hex", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\n", 400, close: true),
    v("CL list empty element", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5,\r\n\r\nhello", 400, close: true),
    v("bad chunk size", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, close: true),
    v("empty chunk size", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\nhello\r\n", 400, close: true),
    v("chunk data too long", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n", 400, close: true),
    v("chunk size overflow", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n", 400, close: true),
    v("negative chunk size", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n", 400, close: true),
    v("chunk size leading space", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n0\r\n\r\n", 400, close: true),
    v("chunk size 0x prefix", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n", 400, close: true),
    v("chunk ext control char", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a\u{1}\r\nhello\r\n0\r\n\r\n", 400, close: true),
    v("chunk size bare LF", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n", 400, close: true),
    v("chunk data bare LF end", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n", 400, close: true),
    v("trailer obs-fold", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: a\r\n b\r\n\r\n", 400, close: true),
    v("trailer without colon", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbogus\r\n\r\n", 400, close: true),
    v("bare CR in request line", "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("bare CR in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400, close: true),
    v("bare LF line ends", "GET / HTTP/1.1\nHost: a\n\n", 400, close: true),
    v("bare LF after headers", "GET / HTTP/1.1\r\nHost: a\r\n\n", 400, close: true),
    v("NUL in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", 400, close: true),
    v("NUL in target", "GET /a\u{0} HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("control char in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{1}b\r\n\r\n", 400, close: true),
    v("DEL in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{7F}b\r\n\r\n", 400, close: true),
    v("escape in name", "GET / HTTP/1.1\r\nHost: a\r\nX\u{1B}: b\r\n\r\n", 400, close: true),
    v("space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400, close: true),
    v("tab before colon", "GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", 400, close: true),
    v("space before colon on CL", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length : 5\r\n\r\nhello", 400, close: true),
    v("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n  b\r\n\r\n", 400, close: true),
    v("obs-fold tab", "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n\tb\r\n\r\n", 400, close: true),
    v("header without colon", "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400, close: true),
    v("empty header name", "GET / HTTP/1.1\r\nHost: a\r\n: x\r\n\r\n", 400, close: true),
    v("invalid name char", "GET / HTTP/1.1\r\nHost: a\r\nX(a): 1\r\n\r\n", 400, close: true),
    v("invalid method char", "G@T / HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("empty method", " / HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("double space", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("tab separator", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("missing version", "GET /\r\nHost: a\r\n\r\n", 400, close: true),
    v("trailing space after version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400, close: true),
    v("version 1.10", "GET / HTTP/1.10\r\nHost: a\r\n\r\n", 400, close: true),
    v("lowercase version", "GET / http/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("relative target", "GET abc HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("asterisk with GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400, close: true),
    v("missing Host", "GET / HTTP/1.1\r\n\r\n", 400, close: true),
    v("two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, close: true),
    v("TE gzip only", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 400, close: true),
    v("TE chunked twice", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400, close: true),
    v("TE chunked not last", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400, close: true),
    v("TE in HTTP/1.0", "POST /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, close: true),
    v("TE empty", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\r\n\r\n", 400, close: true),
    v("TE identity", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n", 400, close: true),

    // versions
    v("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505, close: true),
    v("HTTP/1.2", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505, close: true),
    v("HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", 505, close: true),
    v("HTTP/3.0", "GET / HTTP/3.0\r\nHost: a\r\n\r\n", 505, close: true),

    // not implemented
    v("TE gzip, chunked", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, close: true),

    // limits
    v("CL over limit", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2000\r\n\r\n", 413, close: true),
    v("CL huge", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413, close: true),
    v("chunk over limit", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n401\r\n", 413, close: true),
    v("chunks sum over limit", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n" + String(repeating: "c", count: 512) + "\r\n201\r\n", 413, close: true),
    v("target too long", "GET /" + String(repeating: "a", count: 1100) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414, close: true),
    v("headers too large", "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "h", count: 1100) + "\r\n\r\n", 431, close: true),
    v("many headers too large", "GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X-Y: zzzzzzzzzz\r\n", count: 80) + "\r\n", 431, close: true),
    v("trailers too large", "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + String(repeating: "T: tttttttttt\r\n", count: 80) + "\r\n", 431, close: true),

    // content codings
    v("Content-Encoding br", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: br\r\nContent-Length: 2\r\n\r\nhi", 415, close: true),
    v("Content-Encoding deflate", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: deflate\r\nContent-Length: 2\r\n\r\nhi", 415, close: true),
    v("gzip corrupt", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello", 400),
    vb("gzip truncated", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipHello.count - 4)\r\n\r\n", Array(gzipHello.dropLast(4)), 400),
    vb("gzip bomb", "POST /x HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipBomb.count)\r\n\r\n", gzipBomb, 413),
]
