import FormdCore
import FormdHTTP

/// The limits of `POST /forms/{id}/validate/batch` (API.md §4.2): `limits.max_batch_lines`,
/// `limits.max_batch_line_bytes`, `limits.max_batch_bytes`, `timeouts.batch_seconds`.
struct BatchLimits: Sendable {
    var maxLines: Int
    var maxLineBytes: Int
    var maxBytes: Int
    var seconds: Double
}

/// One batch validation as a stream (API.md §4.2): lines are split as the body's bytes arrive (a
/// line may span any number of pieces), each is validated, answered and forgotten, so the memory
/// is one line and its answer whatever the batch's size.
///
/// A line over `maxLineBytes` is answered with a `line-too-long` problem and its bytes dropped up
/// to its end; the other lines are unaffected. Past `maxLines`, `maxBytes` or the time budget, the
/// answer ends with one problem line naming the first line not validated, and the body is not
/// read further. A body that does not arrive whole ends the answer likewise.
final class BatchStream: HTTPBodyStream {
    let form: Form
    let locale: SupportedLocale
    let limits: BatchLimits
    let deadline: ContinuousClock.Instant
    /// Called once, at the end, with what the batch came to.
    let done: (BatchCounts) -> Void
    private(set) var counts = BatchCounts()
    private(set) var wantsMore = true
    /// The current line's bytes so far.
    private var line: [UInt8] = []
    /// Inside a line (some of its bytes received).
    private var inLine = false
    /// The current line passed `maxLineBytes`: dropped up to its end.
    private var skipping = false
    /// Lines answered.
    private var number = 0
    /// Body bytes received.
    private var received = 0

    /// Lines answered per `receive` call at most: a call is a piece of the connection's work and
    /// must stay short (64 lines of the bundled employment form: about 1 ms).
    static let linesPerCall = 64

    init(form: Form, locale: SupportedLocale, limits: BatchLimits, done: @escaping (BatchCounts) -> Void) {
        self.form = form
        self.locale = locale
        self.limits = limits
        deadline = ContinuousClock.now + .milliseconds(Int(min(limits.seconds, 1e9) * 1000))
        self.done = done
    }

    func receive(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Int {
        guard wantsMore else { return bytes.count }
        if ContinuousClock.now > deadline {
            stop(slug: "batch-timeout", status: 503, "the batch took longer than timeouts.batch_seconds (\(Self.seconds(limits.seconds)))", &out)
            return bytes.count
        }
        let n = bytes.count
        var i = 0
        var answered = 0
        while i < n && answered < Self.linesPerCall {
            if !inLine {
                if number >= limits.maxLines {
                    stop(slug: "batch-too-large", status: 413, "the batch has more than limits.max_batch_lines (\(limits.maxLines)) lines", &out)
                    return n
                }
                inLine = true
            }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[i...])
            let newline = rest.firstIndex(of: 0x0A).map { i + $0 }
            let end = newline ?? n
            let used = end - i + (newline == nil ? 0 : 1)
            if received + used > limits.maxBytes {
                stop(slug: "batch-too-large", status: 413, "the batch has more than limits.max_batch_bytes (\(limits.maxBytes)) bytes", &out)
                return n
            }
            received += used
            if !skipping {
                if line.count + (end - i) > limits.maxLineBytes {
                    skipping = true
                    line = []
                } else {
                    line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<end]))
                }
            }
            i += used
            if newline != nil {
                answerLine(&out)
                answered += 1
            }
        }
        return i
    }

    func finish(_ end: HTTPStreamEnd, into out: inout [UInt8]) -> HTTPHeaders {
        switch end {
        case .complete:
            if wantsMore && inLine { answerLine(&out) }  // the last line, without a newline
        case .stopped:
            break  // `stop` wrote the last line
        case .failed(let error):
            if wantsMore {
                stop(slug: error.slug, status: error.status, "the request body did not arrive whole: \(error.detail)", &out)
            }
        }
        done(counts)
        return ["Formd-Batch-Counts": counts.header]
    }

    private func answerLine(_ out: inout [UInt8]) {
        number += 1
        if skipping {
            Self.problemLine(number, slug: "line-too-long", status: 400,
                             "a line of more than limits.max_batch_line_bytes (\(limits.maxLineBytes)) bytes", into: &out)
            counts.add(.problem)
        } else {
            counts.add(form.batchAnswerLine(line[...], number: number, locale: locale, into: &out))
        }
        out.append(0x0A)
        line.removeAll(keepingCapacity: line.capacity <= 1 << 16)
        inLine = false
        skipping = false
    }

    /// The last line of the answer: the first line not validated, and why; nothing more is read.
    private func stop(slug: String, status: Int, _ why: String, _ out: inout [UInt8]) {
        wantsMore = false
        Self.problemLine(number + 1, slug: slug, status: status, "not validated, nor any line after it: " + why, into: &out)
        out.append(0x0A)
        counts.add(.problem)
        line = []
    }

    /// `{"line", "type", "title", "status", "detail"}`, as `Form.problemLine` writes it, with the
    /// status's own title.
    static func problemLine(_ number: Int, slug: String, status: Int, _ detail: String, into out: inout [UInt8]) {
        var w = JSONWriter(appendingTo: out)
        out = []  // `w` holds the only reference: appending does not copy
        w.beginObject()
        w.key("line")
        w.number(number)
        w.key("type")
        w.string("/problems/" + slug)
        w.key("title")
        w.string(HTTPStatus.reason(status))
        w.key("status")
        w.number(status)
        w.key("detail")
        w.string(detail)
        w.endObject()
        out = w.bytes
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}

extension BatchCounts {
    /// `valid=N, invalid=N, problems=N`: the `Formd-Batch-Counts` field.
    var header: String { "valid=\(valid), invalid=\(invalid), problems=\(problems)" }
}
