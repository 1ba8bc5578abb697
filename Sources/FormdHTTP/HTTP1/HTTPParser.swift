/// A strict, incremental HTTP/1.1 request parser (RFC 9112).
///
/// The caller owns the bytes: it presents the unconsumed bytes of the connection (the same
/// prefix plus whatever arrived since) and drops the `consumed` bytes returned by `next(_:)`.
/// Body bytes are copied into the request being built, so what the caller keeps between reads
/// is at most a partial head or a partial chunk-size/trailer line.
///
/// Every error that leaves the framing in doubt is reported with `close: true`; after such an
/// error the parser is dead and must not be fed again (no second response after a rejection).
struct HTTPParser {
    enum Event {
        /// Not enough bytes yet. Keep the unconsumed bytes and call again with more.
        case needMore
        /// The head asked for `Expect: 100-continue` and the body will be accepted.
        case sendContinue
        /// A complete request (body de-chunked and inflated).
        case request(HTTPRequest, keepAlive: Bool)
        /// Answer with this error; close afterwards when `close`.
        case error(HTTPError, close: Bool)
        /// A head the `claims` test took as a stream (`HTTPStreamingHandler`): its body follows as
        /// `bodyPart`s (de-chunked, not inflated: `gzip` says whether it is gzipped) and one
        /// `bodyEnd`. `sendContinue`: the client waits for `100 Continue`.
        case streamHead(HTTPRequest, keepAlive: Bool, sendContinue: Bool, gzip: Bool)
        /// Body bytes of a streamed request: these indexes of the buffer just presented.
        case bodyPart(Range<Int>)
        /// The streamed request's body is complete (trailers read); the parser is idle again.
        case bodyEnd
    }

    /// What the parser is waiting for; drives the connection's timeouts.
    enum Phase { case idle, head, body, dead }

    let maxBodyBytes: Int
    let maxHeaderBytes: Int
    /// Whether a parsed head is taken as a stream (nil: never; see `HTTPStreamingHandler`).
    let claims: (@Sendable (HTTPRequest) -> Bool)?

    private(set) var phase: Phase = .idle
    // head scanning state (offsets into the presented buffer, which starts at the head)
    private var scanned = 0
    private var scanLineStart = 0
    private var requestLineEnd = -1
    // current request
    private var request = HTTPRequest()
    private var keepAlive = true
    private var gzipBody = false
    private var bodyState = BodyState.none
    private var body: [UInt8] = []
    private var trailerBytes = 0
    /// The current request is a stream: its body goes out as `bodyPart`s, unbounded here.
    private var streaming = false

    private enum BodyState {
        case none
        case length(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
    }

    init(maxBodyBytes: Int, maxHeaderBytes: Int, claims: (@Sendable (HTTPRequest) -> Bool)? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.claims = claims
    }

    /// Parses from the start of `buf`. Returns the event and how many bytes of `buf` are consumed.
    /// After `.needMore` with `consumed > 0`, call again with the rest: progress was made.
    mutating func next(_ buf: UnsafeBufferPointer<UInt8>) -> (Event, consumed: Int) {
        switch phase {
        case .dead:
            return (.needMore, 0)
        case .idle, .head:
            return parseHead(buf)
        case .body:
            return parseBody(buf, offset: 0)
        }
    }

    private mutating func fail(_ e: HTTPError) -> Event {
        phase = .dead
        return .error(e, close: true)
    }

    /// `*( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )` over `buf[from..<end]`,
    /// chunk-ext-val a token or a quoted-string (RFC 9112 §7.1.1).
    static func isChunkExtensions(_ buf: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        var i = from
        func skipBWS() { while i < end, buf[i] == 32 || buf[i] == 9 { i += 1 } }
        func token() -> Bool {
            let start = i
            while i < end, isTChar(buf[i]) { i += 1 }
            return i > start
        }
        while i < end {
            skipBWS()
            guard i < end, buf[i] == 59 else { return false }
            i += 1
            skipBWS()
            guard token() else { return false }
            let afterName = i
            skipBWS()
            if i < end, buf[i] == 61 {
                i += 1
                skipBWS()
                if i < end, buf[i] == 34 {
                    i += 1
                    var closed = false
                    while i < end {
                        let c = buf[i]
                        if c == 34 { i += 1; closed = true; break }
                        if c == 92 { i += 2; continue }
                        if (c < 0x20 && c != 9) || c == 0x7F { return false }
                        i += 1
                    }
                    guard closed, i <= end else { return false }
                } else if !token() {
                    return false
                }
            } else {
                i = afterName  // no value: whitespace here must be followed by another ";"
            }
        }
        return true
    }

    /// `uri-host [ ":" port ]` (RFC 9112 §3.2, RFC 3986): an IP literal in brackets, or a
    /// reg-name of unreserved, percent-encoded and sub-delim characters; an empty value is allowed.
    static func isValidHost(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        var i = from
        if i < end, h[i] == 91 {  // "[" IP-literal "]"
            i += 1
            let start = i
            while i < end, h[i] != 93 {
                let c = h[i]
                guard isUnreserved(c) || isSubDelim(c) || c == 58 else { return false }
                i += 1
            }
            guard i < end, i > start else { return false }
            i += 1
        } else {
            while i < end, h[i] != 58 {
                let c = h[i]
                if c == 37 {  // pct-encoded
                    guard i + 2 < end, hexValue(h[i + 1]) != nil, hexValue(h[i + 2]) != nil else { return false }
                    i += 3
                    continue
                }
                guard isUnreserved(c) || isSubDelim(c) else { return false }
                i += 1
            }
        }
        if i < end {
            guard h[i] == 58 else { return false }
            i += 1
            while i < end {
                guard h[i] >= 48 && h[i] <= 57 else { return false }
                i += 1
            }
        }
        return true
    }

    private static func isUnreserved(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 46 || c == 95 || c == 126
    }

    private static func isSubDelim(_ c: UInt8) -> Bool {
        switch c {
        case 33, 36, 38, 39, 40, 41, 42, 43, 44, 59, 61: true
        default: false
        }
    }

    // MARK: head

    private mutating func parseHead(_ buf: UnsafeBufferPointer<UInt8>) -> (Event, consumed: Int) {
        let n = buf.count
        var skipped = 0
        if phase == .idle {
            // RFC 9112 §2.2: ignore empty lines before the request line.
            while skipped + 1 < n, buf[skipped] == 13, buf[skipped + 1] == 10 { skipped += 2 }
            if skipped == n { return (.needMore, skipped) }
            if n - skipped == 1, buf[skipped] == 13 { return (.needMore, skipped) }
            phase = .head
            if skipped > 0 { return (.needMore, skipped) }  // caller re-presents from the head start
        }
        // Scan for the empty line, validating bytes as we go; resume where we left off.
        var i = scanned
        var lineStart = scanLineStart
        var headEnd = -1
        while i < n {
            // Eight ordinary bytes (no control byte, so no CR or LF) at once, while the limit
            // is not within them.
            if i + 8 <= n && i + 8 <= maxHeaderBytes,
                Self.isPlainWord(UnsafeRawPointer(buf.baseAddress! + i).loadUnaligned(as: UInt64.self))
            {
                i += 8
                continue
            }
            let b = buf[i]
            if b == 13 {
                if i + 1 >= n { break }
                if buf[i + 1] != 10 { return (fail(.badRequest("Bare CR in the request head.")), 0) }
                if i == lineStart {
                    if lineStart == 0 { return (fail(.badRequest("Empty request line.")), 0) }
                    headEnd = i + 2
                    break
                }
                if requestLineEnd < 0 { requestLineEnd = i }
                i += 2
                lineStart = i
                continue
            }
            if b == 10 { return (fail(.badRequest("Bare LF in the request head.")), 0) }
            if (b < 0x20 && b != 9) || b == 0x7F {
                return (fail(.badRequest("Control character in the request head.")), 0)
            }
            i += 1
            if i > maxHeaderBytes { break }
        }
        if headEnd < 0 {
            scanned = i
            scanLineStart = lineStart
            if i > maxHeaderBytes || (requestLineEnd < 0 && i >= maxHeaderBytes) {
                return (fail(requestLineEnd < 0 ? .uriTooLong : .headersTooLarge), 0)
            }
            return (.needMore, 0)
        }
        if headEnd > maxHeaderBytes {
            return (fail(requestLineEnd < 0 ? .uriTooLong : .headersTooLarge), 0)
        }
        scanned = 0
        scanLineStart = 0
        if let e = parseHeadFields(UnsafeBufferPointer(rebasing: buf[0..<headEnd])) {
            requestLineEnd = -1
            return (fail(e), headEnd)
        }
        requestLineEnd = -1
        return afterHead(buf, headEnd: headEnd)
    }

    /// Parses request line and fields of a complete, byte-validated head (CRLF CRLF included).
    private mutating func parseHeadFields(_ h: UnsafeBufferPointer<UInt8>) -> HTTPError? {
        let rlEnd = requestLineEnd
        // request line: method SP target SP version
        var sp1 = 0
        while sp1 < rlEnd, h[sp1] != 32 { sp1 += 1 }
        guard sp1 > 0, sp1 < rlEnd else { return .badRequest("Malformed request line.") }
        for k in 0..<sp1 where !isTChar(h[k]) { return .badRequest("Invalid method.") }
        var sp2 = sp1 + 1
        while sp2 < rlEnd, h[sp2] != 32 { sp2 += 1 }
        guard sp2 > sp1 + 1, sp2 < rlEnd else { return .badRequest("Malformed request line.") }
        for k in (sp1 + 1)..<sp2 where h[k] <= 0x20 || h[k] >= 0x7F { return .badRequest("Invalid request target.") }
        // version: exactly "HTTP/" DIGIT "." DIGIT
        let vLen = rlEnd - sp2 - 1
        guard vLen == 8, h[sp2 + 1] == 72, h[sp2 + 2] == 84, h[sp2 + 3] == 84, h[sp2 + 4] == 80, h[sp2 + 5] == 47,
              isDigit(h[sp2 + 6]), h[sp2 + 7] == 46, isDigit(h[sp2 + 8])
        else { return .badRequest("Malformed HTTP version.") }
        guard h[sp2 + 6] == 49, h[sp2 + 8] == 48 || h[sp2 + 8] == 49 else { return .version }
        let minor = Int(h[sp2 + 8] - 48)

        let method = Self.interned(h, 0, sp1, Self.commonMethods) ?? string(h, 0, sp1)
        let target = string(h, sp1 + 1, sp2)
        let t0 = h[sp1 + 1]
        if t0 == 47 {
            // origin-form
        } else if t0 == 42 {
            guard sp2 - sp1 == 2, method == "OPTIONS" else { return .badRequest("Invalid request target.") }
        } else {
            let lower = target.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                return .badRequest("Invalid request target.")
            }
        }

        var headers = HTTPHeaders()
        // One allocation for the usual handful of fields (appending one by one grows it 1, 2, 4, 8).
        headers.fields.reserveCapacity(8)
        var contentLength: Int? = nil
        var clTooLarge = false
        var teCodings: [Substring] = []
        var hasTE = false
        var hostCount = 0
        var connClose = false, connKeepAlive = false
        var expectContinue = false
        var contentEncoding: [Substring] = []
        var sawAcceptEncoding = false, sawRequestID = false

        var p = rlEnd + 2
        let end = h.count - 2  // before the final CRLF
        while p < end {
            var eol = p
            while h[eol] != 13 { eol += 1 }
            if h[p] == 32 || h[p] == 9 { return .badRequest("Obsolete line folding is not accepted.") }
            var colon = p
            while colon < eol, h[colon] != 58 { colon += 1 }
            guard colon < eol, colon > p else { return .badRequest("Malformed header field.") }
            for k in p..<colon where !isTChar(h[k]) { return .badRequest("Invalid header field name.") }
            var vs = colon + 1, ve = eol
            while vs < ve, h[vs] == 32 || h[vs] == 9 { vs += 1 }
            while ve > vs, h[ve - 1] == 32 || h[ve - 1] == 9 { ve -= 1 }
            let name = Self.interned(h, p, colon, Self.commonNames) ?? string(h, p, colon)
            let value = Self.interned(h, vs, ve, Self.commonValues) ?? string(h, vs, ve)
            headers.fields.append((name: name, value: value))
            // The names are compared in the buffer, not as the Strings just made.
            switch colon - p {
            case 4 where Self.nameIs(h, p, HeaderName.host):
                hostCount += 1
                if !Self.isValidHost(h, vs, ve) { return .badRequest("Invalid Host header.") }
            case 6 where Self.nameIs(h, p, HeaderName.expect):
                if HTTPHeaders.equalsIgnoringCase(value, "100-continue") { expectContinue = true }
            case 10 where Self.nameIs(h, p, HeaderName.connection):
                for tok in value.split(separator: ",") {
                    let t = tok.trimmingASCIIWhitespace()
                    if HTTPHeaders.equalsIgnoringCase(t, "close") { connClose = true }
                    else if HTTPHeaders.equalsIgnoringCase(t, "keep-alive") { connKeepAlive = true }
                }
            case 14 where Self.nameIs(h, p, HeaderName.contentLength):
                // The usual value, one to fifteen digits, read in place; lists, padding and
                // huge values go the long way below.
                if ve - vs <= 15, let v = Self.digitsValue(h, vs, ve) {
                    if let c = contentLength, c != v { return .badRequest("Conflicting Content-Length values.") }
                    contentLength = v
                    break
                }
                for tok in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let t = tok.trimmingASCIIWhitespace()
                    guard !t.isEmpty, t.utf8.allSatisfy(isDigit) else { return .badRequest("Invalid Content-Length.") }
                    // Canonical value for comparison; huge values are "too large", not malformed.
                    let digits = t.drop(while: { $0 == "0" })
                    let v: Int
                    if digits.utf8.count > 15 { v = Int.max; clTooLarge = true } else { v = Int(digits) ?? 0 }
                    if let c = contentLength, c != v { return .badRequest("Conflicting Content-Length values.") }
                    contentLength = v
                }
            case 12 where Self.nameIs(h, p, HeaderName.requestID):
                sawRequestID = true
            case 15 where Self.nameIs(h, p, HeaderName.acceptEncoding):
                sawAcceptEncoding = true
            case 16 where Self.nameIs(h, p, HeaderName.contentEncoding):
                for tok in value.split(separator: ",", omittingEmptySubsequences: false) {
                    contentEncoding.append(tok.trimmingASCIIWhitespace())
                }
            case 17 where Self.nameIs(h, p, HeaderName.transferEncoding):
                hasTE = true
                for tok in value.split(separator: ",", omittingEmptySubsequences: false) {
                    teCodings.append(tok.trimmingASCIIWhitespace())
                }
            default:
                break
            }
            p = eol + 2
        }

        // Framing (RFC 9112 §6). Anything ambiguous is a 400 and the connection closes.
        var chunked = false
        if hasTE {
            if contentLength != nil { return .badRequest("Both Content-Length and Transfer-Encoding.") }
            if minor == 0 { return .badRequest("Transfer-Encoding in an HTTP/1.0 request.") }
            let isChunked = teCodings.map { HTTPHeaders.equalsIgnoringCase($0, "chunked") }
            if teCodings.contains(where: \.isEmpty) { return .badRequest("Malformed Transfer-Encoding.") }
            guard isChunked.last == true, isChunked.filter({ $0 }).count == 1 else {
                return .badRequest("Transfer-Encoding must end with chunked.")
            }
            if teCodings.count > 1 { return .notImplemented("Only the chunked transfer coding is supported.") }
            chunked = true
        }
        if minor == 1 && hostCount != 1 || hostCount > 1 { return .badRequest("Exactly one Host header is required.") }
        if clTooLarge { return .bodyTooLarge }
        var head = HTTPRequest(method: method, target: target, versionMinor: minor, headers: headers, body: [], requestID: "")
        head.mayHaveAcceptEncoding = sawAcceptEncoding
        head.mayHaveRequestID = sawRequestID
        // A stream's body is not bounded here: its handler reads it piece by piece and keeps its own limits.
        streaming = claims?(head) ?? false
        if !streaming && (contentLength ?? 0) > maxBodyBytes { return .bodyTooLarge }

        gzipBody = false
        for ce in contentEncoding {
            if HTTPHeaders.equalsIgnoringCase(ce, "gzip") || HTTPHeaders.equalsIgnoringCase(ce, "x-gzip") {
                if gzipBody { return .unsupportedMedia("Only one gzip content coding is supported.") }
                gzipBody = true
            } else if !HTTPHeaders.equalsIgnoringCase(ce, "identity") {
                return .unsupportedMedia("Content-Encoding must be gzip or identity.")
            }
        }

        swap(&request, &head)
        keepAlive = minor == 1 ? !connClose : (connKeepAlive && !connClose)
        if chunked {
            bodyState = .chunkSize
        } else if let cl = contentLength, cl > 0 {
            bodyState = .length(remaining: cl)
        } else {
            bodyState = .none
        }
        self.expectContinue = expectContinue && minor == 1
        return nil
    }

    private var expectContinue = false

    private mutating func afterHead(_ buf: UnsafeBufferPointer<UInt8>, headEnd: Int) -> (Event, consumed: Int) {
        if streaming {
            phase = .body
            var hasBody = true
            if case .none = bodyState { hasBody = false }
            let event = Event.streamHead(request.take(), keepAlive: keepAlive, sendContinue: expectContinue && hasBody, gzip: gzipBody)
            expectContinue = false
            gzipBody = false
            return (event, headEnd)
        }
        if case .none = bodyState { return finish(consumed: headEnd) }
        phase = .body
        body = []
        trailerBytes = 0
        if expectContinue {
            expectContinue = false
            // Only worth a 100 when the body is not already here.
            let available = buf.count - headEnd
            var complete = false
            if case .length(let r) = bodyState { complete = available >= r }
            if !complete { return (.sendContinue, headEnd) }
        }
        return parseBody(buf, offset: headEnd)
    }

    // MARK: body

    private mutating func parseBody(_ buf: UnsafeBufferPointer<UInt8>, offset: Int) -> (Event, consumed: Int) {
        var i = offset
        let n = buf.count
        while true {
            switch bodyState {
            case .none:
                if streaming {
                    streaming = false
                    phase = .idle
                    return (.bodyEnd, i)
                }
                return finish(consumed: i)
            case .length(let remaining):
                let take = min(remaining, n - i)
                if streaming {
                    bodyState = take == remaining ? .none : .length(remaining: remaining - take)
                    if take > 0 { return (.bodyPart(i..<(i + take)), i + take) }
                    return (.needMore, i)
                }
                if take > 0 {
                    if body.isEmpty { body.reserveCapacity(min(remaining, 65536)) }
                    body.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<(i + take)]))
                    i += take
                }
                if take == remaining { bodyState = .none; continue }
                bodyState = .length(remaining: remaining - take)
                return (.needMore, i)
            case .chunkSize:
                guard let eol = findLineEnd(buf, from: i) else { return (.needMore, i) }
                if eol < 0 { return (fail(.badRequest("Malformed chunk size line.")), i) }
                if eol - i > 4096 { return (fail(.badRequest("Chunk size line too long.")), i) }
                var k = i
                var size = 0
                while k < eol, let d = hexValue(buf[k]) {
                    if k - i >= 15 { return (fail(.badRequest("Chunk size out of range.")), i) }
                    size = size << 4 | d
                    k += 1
                }
                if k == i { return (fail(.badRequest("Invalid chunk size.")), i) }
                // optional chunk extensions (ignored), RFC 9112 §7.1.1: whitespace only before a ";"
                if k < eol && !Self.isChunkExtensions(buf, k, eol) {
                    return (fail(.badRequest("Invalid chunk extension.")), i)
                }
                i = eol + 2
                if size == 0 {
                    bodyState = .trailers
                } else {
                    if !streaming && size > maxBodyBytes - body.count { return (fail(.bodyTooLarge), i) }
                    bodyState = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let take = min(remaining, n - i)
                if streaming {
                    bodyState = take == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - take)
                    if take > 0 { return (.bodyPart(i..<(i + take)), i + take) }
                    return (.needMore, i)
                }
                if take > 0 {
                    body.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<(i + take)]))
                    i += take
                }
                if take == remaining { bodyState = .chunkDataEnd; continue }
                bodyState = .chunkData(remaining: remaining - take)
                return (.needMore, i)
            case .chunkDataEnd:
                if n - i < 2 {
                    if n - i == 1 && buf[i] != 13 { return (fail(.badRequest("Missing CRLF after chunk data.")), i) }
                    return (.needMore, i)
                }
                guard buf[i] == 13, buf[i + 1] == 10 else { return (fail(.badRequest("Missing CRLF after chunk data.")), i) }
                i += 2
                bodyState = .chunkSize
            case .trailers:
                guard let eol = findLineEnd(buf, from: i) else {
                    if n - i + trailerBytes > maxHeaderBytes { return (fail(.headersTooLarge), i) }
                    return (.needMore, i)
                }
                if eol < 0 {
                    // The answer must not depend on how the bytes were split into reads: had a read
                    // ended just before the bad byte (or just after a CR), the size check above would
                    // already have answered 431 when the bytes up to there exceed the limit.
                    var k = i
                    while k < n, k - i <= 8192, buf[k] != 10, buf[k] != 13 { k += 1 }
                    if k < n, buf[k] == 13 { k += 1 }
                    if k - i + trailerBytes > maxHeaderBytes { return (fail(.headersTooLarge), i) }
                    return (fail(.badRequest("Malformed trailer.")), i)
                }
                trailerBytes += eol + 2 - i
                if trailerBytes > maxHeaderBytes { return (fail(.headersTooLarge), i) }
                if eol == i { i += 2; bodyState = .none; continue }
                // validate the trailer field: name ":" value, no obs-fold, no controls
                if buf[i] == 32 || buf[i] == 9 { return (fail(.badRequest("Obsolete line folding in trailer.")), i) }
                var c = i
                while c < eol, buf[c] != 58 {
                    if !isTChar(buf[c]) { return (fail(.badRequest("Invalid trailer field.")), i) }
                    c += 1
                }
                if c == i || c == eol { return (fail(.badRequest("Invalid trailer field.")), i) }
                for x in c..<eol where (buf[x] < 0x20 && buf[x] != 9) || buf[x] == 0x7F {
                    return (fail(.badRequest("Control character in trailer.")), i)
                }
                i = eol + 2
            }
        }
    }

    /// Index of the CR of the next CRLF at or after `from`; nil when incomplete; -1 for a bare CR/LF.
    private func findLineEnd(_ buf: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var k = from
        let n = buf.count
        while k < n {
            let b = buf[k]
            if b == 10 { return -1 }
            if b == 13 {
                if k + 1 >= n { return nil }
                return buf[k + 1] == 10 ? k : -1
            }
            k += 1
            if k - from > 8192 { return -1 }
        }
        return nil
    }

    private mutating func finish(consumed: Int) -> (Event, consumed: Int) {
        phase = .idle
        var req = request.take()
        let ka = keepAlive
        if gzipBody {
            gzipBody = false
            switch Gzip.inflate(body, limit: maxBodyBytes) {
            case .success(let out): req.body = out
            case .failure(let e):
                body = []
                return (.error(e, close: !ka), consumed)
            }
        } else {
            swap(&req.body, &body)
        }
        body = []
        return (.request(req, keepAlive: ka), consumed)
    }

    // MARK: byte classes

    @inline(__always) private func string(_ h: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: h[a..<b]), as: UTF8.self)
    }
}

@inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

@inline(__always) func hexValue(_ b: UInt8) -> Int? {
    switch b {
    case 48...57: Int(b - 48)
    case 65...70: Int(b - 55)
    case 97...102: Int(b - 87)
    default: nil
    }
}

/// RFC 9110 tchar.
@inline(__always) func isTChar(_ b: UInt8) -> Bool {
    switch b {
    case 48...57, 65...90, 97...122: true
    case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: true
    default: false
    }
}
