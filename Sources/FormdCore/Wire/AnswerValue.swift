/// A value of the answer's `values`: one to write, or its JSON text exactly as the writer would
/// write it (a value sent back as it was sent, in the submission's bytes), copied as it is.
/// The text case spares the value itself: passing it on retained and released it.
enum AnswerValue {
    case value(JSONValue)
    case text(UnsafeBufferPointer<UInt8>)
}

extension JSONWriter {
    @inline(__always) mutating func answerValue(_ value: AnswerValue) {
        switch value {
        case .value(let v): writeValue(v)
        case .text(let bytes): rawValue(bytes)
        }
    }
}
