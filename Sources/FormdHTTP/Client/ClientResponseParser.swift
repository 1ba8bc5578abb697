/// Reads one HTTP/1.1 response from the bytes as they come: status line, headers, then a body
/// framed by `Content-Length`, chunked, or (neither) the end of the connection. Everything it
/// holds is bounded: a head over `maxHeadBytes` or a body over `maxBodyBytes` is refused.
struct ClientResponseParser {
    enum Outcome {
        case needMore
        case done(HTTPClientResponse, reusable: Bool)
        case failed(HTTPClientError)
    }

    let maxHeadBytes: Int
    let maxBodyBytes: Int
    private var buffer: [UInt8] = []
    private var head: (status: Int, headers: [(name: String, value: String)])?
    private var bodyStart = 0
    private var framing = Framing.untilClose
    private var keepAlive = true
    /// Chunked: the decoded body so far, and where the next chunk header starts in `buffer`.
    private var decoded: [UInt8] = []
    private var chunkCursor = 0

    enum Framing { case length(Int), chunked, untilClose }

    init(maxHeadBytes: Int = 16 * 1024, maxBodyBytes: Int = 64 * 1024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// Whether any byte of the answer arrived (a reused connection that closes before that may
    /// be retried).
    var started: Bool { !buffer.isEmpty }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        buffer.append(contentsOf: bytes)
        return advance()
    }

    /// The connection ended.
    mutating func end() -> Outcome {
        guard let head else { return .failed(buffer.isEmpty ? .closed : .malformed("incomplete head")) }
        if case .untilClose = framing {
            return .done(HTTPClientResponse(status: head.status, headers: head.headers, body: Array(buffer[bodyStart...])), reusable: false)
        }
        return .failed(.closed)
    }

    private mutating func advance() -> Outcome {
        if head == nil {
            guard let end = headEnd() else {
                return buffer.count > maxHeadBytes ? .failed(.oversized) : .needMore
            }
            if end > maxHeadBytes { return .failed(.oversized) }
            switch parseHead(buffer[..<end]) {
            case .failure(let e): return .failed(e)
            case .success(let h): head = h
            }
            bodyStart = end + 4
            chunkCursor = bodyStart
        }
        guard let head else { return .needMore }
        // 1xx answers (100 Continue) carry no body: skip them and read the final one.
        if (100..<200).contains(head.status) {
            buffer.removeFirst(bodyStart)
            self.head = nil
            framing = .untilClose
            return buffer.isEmpty ? .needMore : advance()
        }
        if head.status == 204 || head.status == 304 {
            return .done(HTTPClientResponse(status: head.status, headers: head.headers, body: []), reusable: keepAlive)
        }
        switch framing {
        case .length(let n):
            if n > maxBodyBytes { return .failed(.oversized) }
            guard buffer.count - bodyStart >= n else { return .needMore }
            let reusable = keepAlive && buffer.count - bodyStart == n
            return .done(HTTPClientResponse(status: head.status, headers: head.headers, body: Array(buffer[bodyStart..<bodyStart + n])), reusable: reusable)
        case .untilClose:
            return buffer.count - bodyStart > maxBodyBytes ? .failed(.oversized) : .needMore
        case .chunked:
            return advanceChunks(head)
        }
    }

    private mutating func advanceChunks(_ head: (status: Int, headers: [(name: String, value: String)])) -> Outcome {
        while true {
            guard let lineEnd = find(crlf, from: chunkCursor) else {
                return buffer.count - chunkCursor > 1024 ? .failed(.malformed("chunk header too long")) : .needMore
            }
            let sizeText = buffer[chunkCursor..<lineEnd].prefix { $0 != UInt8(ascii: ";") }
            guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(String(decoding: sizeText, as: UTF8.self).trimmingSpaces, radix: 16) else {
                return .failed(.malformed("bad chunk size"))
            }
            if size == 0 {
                // Trailers end with an empty line.
                guard let end = find([13, 10, 13, 10], from: lineEnd) else { return .needMore }
                let reusable = keepAlive && end + 4 == buffer.count
                return .done(HTTPClientResponse(status: head.status, headers: head.headers, body: decoded), reusable: reusable)
            }
            if decoded.count + size > maxBodyBytes { return .failed(.oversized) }
            let dataStart = lineEnd + 2
            guard buffer.count >= dataStart + size + 2 else { return .needMore }
            guard buffer[dataStart + size] == 13, buffer[dataStart + size + 1] == 10 else { return .failed(.malformed("bad chunk end")) }
            decoded.append(contentsOf: buffer[dataStart..<dataStart + size])
            chunkCursor = dataStart + size + 2
        }
    }

    private let crlf: [UInt8] = [13, 10]

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        var i = from
        while i + needle.count <= buffer.count {
            if buffer[i] == needle[0] && (needle.count == 1 || buffer[i + 1] == needle[1])
                && (needle.count < 4 || (buffer[i + 2] == needle[2] && buffer[i + 3] == needle[3]))
            {
                return i
            }
            i += 1
        }
        return nil
    }

    private func headEnd() -> Int? { find([13, 10, 13, 10], from: 0) }

    private mutating func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<(status: Int, headers: [(name: String, value: String)]), HTTPClientError> {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return .failure(.malformed("empty head")) }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0", parts[1].count == 3, let status = Int(parts[1]),
            (100...599).contains(status)
        else { return .failure(.malformed("bad status line")) }
        keepAlive = parts[0] == "HTTP/1.1"
        var headers: [(name: String, value: String)] = []
        var length: Int?
        var chunked = false
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return .failure(.malformed("bad header line")) }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingSpaces
            guard !name.isEmpty, !name.contains(" ") else { return .failure(.malformed("bad header name")) }
            headers.append((name, value))
            switch name {
            case "content-length":
                guard let n = Int(value), n >= 0, length == nil || length == n else { return .failure(.malformed("bad Content-Length")) }
                length = n
            case "transfer-encoding":
                if value.lowercased().hasSuffix("chunked") { chunked = true } else { return .failure(.malformed("unsupported Transfer-Encoding")) }
            case "connection":
                let v = value.lowercased()
                if v.contains("close") { keepAlive = false } else if v.contains("keep-alive") { keepAlive = true }
            default: break
            }
        }
        if chunked {
            framing = .chunked
        } else if let length {
            framing = .length(length)
        } else {
            framing = .untilClose
            keepAlive = false
        }
        return .success((status, headers))
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
