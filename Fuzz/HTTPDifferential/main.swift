// formd's HTTP parser as a filter for scripts/http-differential: reads messages from standard
// input (each a 4-byte big-endian length, then the bytes), parses each as one connection's whole
// input, and prints one line per message:
//   R <method> <target> <body length> <keep-alive>   for each complete request, in order
//   E <status>                                        when it refuses the input
//   N                                                 when it waits for more bytes
//   .                                                 end of this message
// Built with the parser's sources by the script (swiftc), like the fuzz targets.
import Foundation

@main
struct Differential {
    static func main() {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        let bytes = [UInt8](input)
        var out = ""
        var i = 0
        while i + 4 <= bytes.count {
            let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            i += 4
            let message = Array(bytes[i..<min(bytes.count, i + n)])
            i += n
            out += verdict(message)
            out += ".\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    static func verdict(_ message: [UInt8]) -> String {
        var parser = HTTPParser(maxBodyBytes: 1 << 20, maxHeaderBytes: 16384)
        var pending = message
        var out = ""
        while true {
            let (event, used) = pending.withUnsafeBufferPointer { parser.next($0) }
            pending.removeFirst(used)
            switch event {
            case .needMore:
                if used == 0 || pending.isEmpty { return out + "N\n" }
            case .sendContinue:
                continue
            case .request(let r, let keepAlive):
                out += "R \(r.method) \(r.target) \(r.body.count) \(keepAlive)\n"
                if !keepAlive { return out }
            case .error(let e, _):
                return out + "E \(e.status)\n"
            case .streamHead, .bodyPart, .bodyEnd:
                preconditionFailure("no request is claimed for streaming here (no `claims`)")
            }
        }
    }
}
