import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the encoder needs to know about the request a response answers.
struct ResponseContext {
    var isHead = false
    var versionMinor = 1
    var acceptEncoding: String? = nil
    var requestID: String
    /// Whether the connection closes after this response.
    var close: Bool
}

/// Serializes responses into a byte buffer. One per I/O loop (confined to it): it owns the
/// per-second `Date` cache and a reusable zlib deflater.
final class ResponseEncoder {
    /// `Server: <name>` CRLF.
    private let serverLine: [UInt8]
    /// Where heads are written before they are appended to the output (`HeadWriter`).
    private var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
    private var scratchCapacity = 1024
    /// Status lines by `status - 100` (empty until first used).
    private var statusLines = [[UInt8]](repeating: [], count: 500)
    private let compressionMinBytes: Int
    private var dateSecond = -1
    private var dateLine: [UInt8] = []
    private var deflater: Deflater?
    /// Gzipped bodies by `HTTPResponse.compressionKey`, shared by the server's loops.
    var gzipCache: GzipCache?

    deinit { scratch.deallocate() }

    init(serverName: String, compressionMinBytes: Int) {
        self.serverLine = Array("Server: \(serverName)\r\n".utf8)
        self.compressionMinBytes = compressionMinBytes
    }

    private func refreshDate() {
        var t = time(nil)
        if Int(t) == dateSecond { return }
        dateSecond = Int(t)
        var tmv = tm()
        gmtime_r(&t, &tmv)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let s = "Date: \(days[Int(tmv.tm_wday)]), \(two(tmv.tm_mday)) \(months[Int(tmv.tm_mon)]) \(tmv.tm_year + 1900) "
            + "\(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec)) GMT\r\n"
        dateLine = Array(s.utf8)
    }

    /// Whether `response` is to be gzipped for a client that sent `acceptEncoding`.
    static func wantsGzip(_ response: HTTPResponse, _ acceptEncoding: String?, minBytes: Int) -> Bool {
        guard response.allowsCompression, response.body.count >= minBytes, let ae = acceptEncoding,
            AcceptEncoding.allowsGzip(ae), !response.headers.contains("content-encoding")
        else { return false }
        return true
    }

    /// Bodies this loop's encoder compressed itself (tests check that worker answers and cached
    /// bodies are not among them).
    let loopDeflates = Atomic<Int>(0)

    /// The gzipped body when it is smaller, else nil.
    private func deflate(_ body: [UInt8]) -> [UInt8]? {
        loopDeflates.add(1, ordering: .relaxed)
        if deflater == nil { deflater = Deflater() }
        guard let z = deflater!.compress(body), z.count < body.count else { return nil }
        return z
    }

    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    func encode(_ response: HTTPResponse, _ ctx: ResponseContext, into out: inout [UInt8]) {
        refreshDate()
        let status = response.status
        var body = response.body
        var gzipped = response.bodyIsGzipped
        let noBody = status == 204 || status == 304 || (status >= 100 && status < 200)
        if !noBody, !gzipped, Self.wantsGzip(response, ctx.acceptEncoding, minBytes: compressionMinBytes) {
            if let key = response.compressionKey, let cache = gzipCache {
                if let z = cache.compressed(key: key, body: body, using: { self.deflate($0) }) {
                    body = z
                    gzipped = true
                }
            } else if let z = deflate(body) {
                body = z
                gzipped = true
            }
        }
        appendHead(response, status: status, gzipped: gzipped, length: noBody ? nil : body.count, chunked: false, ctx, into: &out)
        if !noBody && !ctx.isHead { out.append(contentsOf: body) }
    }

    /// Status line and header fields, through the empty line: `Content-Length: length` when
    /// given, else `Transfer-Encoding: chunked` when `chunked`, else neither.
    @inline(__always)
    private func appendHead(
        _ response: HTTPResponse, status: Int, gzipped: Bool, length: Int?, chunked: Bool, _ ctx: ResponseContext,
        into out: inout [UInt8]
    ) {
        var w = HeadWriter(base: scratch, capacity: scratchCapacity)
        defer { (scratch, scratchCapacity) = (w.base, w.capacity) }
        writeStatusLine(status, &w)
        var hasServer = false
        var hasVary = false
        for (name, value) in response.headers.fields {
            var name = name, value = value
            name.withUTF8 { n in
                value.withUTF8 { v in
                    Self.writeField(n, v, gzipped: gzipped, hasServer: &hasServer, hasVary: &hasVary, &w)
                }
            }
        }
        if gzipped {
            w.write("Content-Encoding: gzip\r\n")
            if !hasVary { w.write("Vary: Accept-Encoding\r\n") }
        }
        if let length {
            w.write("Content-Length: ")
            w.writeDecimal(length)
            w.write("\r\n")
        } else if chunked {
            w.write("Transfer-Encoding: chunked\r\n")
        }
        w.write(dateLine)
        if !hasServer { w.write(serverLine) }
        w.write("X-Request-Id: ")
        w.write(ctx.requestID)
        w.write("\r\n")
        if ctx.close {
            w.write("Connection: close\r\n")
        } else if ctx.versionMinor == 0 {
            w.write("Connection: keep-alive\r\n")
        }
        w.write("\r\n")
        out.append(contentsOf: w.bytes)
    }

    /// `HTTP/1.1 <status> <reason>` CRLF, made once per status and kept (the loop's own table).
    @inline(__always)
    private func writeStatusLine(_ status: Int, _ w: inout HeadWriter) {
        let slot = status - 100
        if slot >= 0 && slot < statusLines.count {
            if statusLines[slot].isEmpty { statusLines[slot] = Self.statusLine(status) }
            w.write(statusLines[slot])
        } else {
            w.write(Self.statusLine(status))
        }
    }

    private static func statusLine(_ status: Int) -> [UInt8] {
        Array("HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n".utf8)
    }

    /// The head of a streamed answer (`HTTPStreamOpening.stream`): chunked for HTTP/1.1, unframed
    /// for HTTP/1.0 (whose connection then closes at the end); never gzipped.
    func encodeStreamHead(_ response: HTTPResponse, _ ctx: ResponseContext, into out: inout [UInt8]) {
        refreshDate()
        appendHead(response, status: response.status, gzipped: false, length: nil, chunked: ctx.versionMinor == 1, ctx, into: &out)
    }

    /// One chunk of a streamed answer (nothing for no bytes: an empty chunk would end it).
    static func appendChunk(_ bytes: [UInt8], chunked: Bool, into out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        if chunked {
            appendHex(bytes.count, &out)
            out.append(13)
            out.append(10)
            out.append(contentsOf: bytes)
            out.append(13)
            out.append(10)
        } else {
            out.append(contentsOf: bytes)
        }
    }

    /// The last chunk and the trailer fields (RFC 9112 §7.1.2), with the same hygiene as heads.
    static func appendLastChunk(trailers: HTTPHeaders, into out: inout [UInt8]) {
        out.append(contentsOf: "0\r\n".utf8)
        for (name, value) in trailers.fields {
            if !isCleanName(name) || !isCleanValue(value) { continue }
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
    }

    private static func appendHex(_ v: Int, _ out: inout [UInt8]) {
        let digits = Array(String(v, radix: 16).utf8)
        out.append(contentsOf: digits)
    }
}

/// `Accept-Encoding` negotiation for gzip (RFC 9110 §12.5.3).
enum AcceptEncoding {
    /// True when gzip is acceptable: an explicit `gzip`/`x-gzip` with q > 0, or else `*` with q > 0.
    static func allowsGzip(_ header: String) -> Bool {
        var gzipQ: Double? = nil
        var starQ: Double? = nil
        for part in header.split(separator: ",") {
            let fields = part.split(separator: ";")
            guard let first = fields.first else { continue }
            let coding = first.trimmingASCIIWhitespace()
            var q = 1.0
            for p in fields.dropFirst() {
                let kv = p.trimmingASCIIWhitespace()
                if kv.hasPrefix("q=") || kv.hasPrefix("Q=") {
                    q = Double(kv.dropFirst(2)) ?? 0
                    if !(q >= 0 && q <= 1) { q = 0 }
                }
            }
            if HTTPHeaders.equalsIgnoringCase(coding, "gzip") || HTTPHeaders.equalsIgnoringCase(coding, "x-gzip") {
                gzipQ = max(gzipQ ?? 0, q)
            } else if coding == "*" {
                starQ = q
            }
        }
        if let g = gzipQ { return g > 0 }
        if let s = starQ { return s > 0 }
        return false
    }
}
