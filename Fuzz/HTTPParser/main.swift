// libFuzzer entry for HTTPParser. Built by ../run-http-parser.sh together with the parser's
// sources (swiftc -sanitize=fuzzer,address). Oracle: no crash/hang, and feeding the input in
// pieces gives exactly the answers of feeding it whole (incremental parsing is consistent).

func answers(_ data: [UInt8], pieces: Int) -> [String] {
    var parser = HTTPParser(maxBodyBytes: 4096, maxHeaderBytes: 2048)
    var pending: [UInt8] = []
    var out: [String] = []
    let step = max(1, data.count / max(1, pieces))
    var i = 0
    while i < data.count {
        pending.append(contentsOf: data[i..<min(data.count, i + step)])
        i += step
        while true {
            let (event, used) = pending.withUnsafeBufferPointer { parser.next($0) }
            precondition(used <= pending.count)
            pending.removeFirst(used)
            switch event {
            case .needMore:
                if used == 0 || pending.isEmpty { break }
                continue
            case .sendContinue:
                continue
            case .request(let r, let keepAlive):
                precondition(r.body.count <= 4096)
                out.append("200 \(r.method) \(r.target) \(r.body.count) \(keepAlive)")
                if !keepAlive { return out }
                continue
            case .error(let e, let close):
                out.append("\(e.status) \(close)")
                if close { return out }
                continue
            case .streamHead, .bodyPart, .bodyEnd:
                preconditionFailure("no request is claimed for streaming here (no `claims`)")
            }
            break
        }
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = answers(bytes, pieces: 1)
    let split = answers(bytes, pieces: 1 + Int(bytes.first ?? 0) % 13)
    precondition(whole == split, "incremental mismatch: \(whole) vs \(split)")
    return 0
}
