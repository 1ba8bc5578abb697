/// A submission's JSON bytes decoded for one form (`Form.submission(fromJSON:)`), kept with the
/// bytes. Its answers (`Form.validateAnswer(_:locale:remote:reservingCapacity:)` with a
/// submission) are the same bytes as for its `values`, written faster: a value sent back as it
/// was sent (most of them) is copied from the submission's text, not written again.
///
/// ```swift
/// let submission = try form.submission(fromJSON: body)
/// let answer = try form.validateAnswer(submission)
/// ```
///
/// A usual submission (an object of the form's field ids, in the form's order) is read in place:
/// its values are spans of its bytes (`SentMembers`) until something reads them, and `values`
/// makes them when asked.
public struct FormSubmission: Sendable {
    /// The values, as `Form.values(json:)` decodes them.
    public var values: FormValues {
        guard let hints else { return decoded }
        return withStorage { json, members, decoded, keys in
            SentMembers.object(members, decoded: decoded, keys: keys, ids: hints.view, bytes: json)
        }
    }

    /// Calls `body` with the bytes, and the members, decoded values and keys read in place (empty
    /// for a decoded submission), valid only inside `body`.
    @inline(__always) func withStorage<R, E: Error>(
        _ body: (
            _ json: UnsafeBufferPointer<UInt8>, _ members: UnsafeBufferPointer<SentMembers.Member>,
            _ decoded: UnsafeBufferPointer<JSONValue>, _ keys: UnsafeBufferPointer<String>
        ) throws(E) -> R
    ) throws(E) -> R {
        try json.withUnsafeBufferPointer { (json) throws(E) in
            try sentMembers.withUnsafeBufferPointer { (members) throws(E) in
                try sentDecoded.withUnsafeBufferPointer { (decoded) throws(E) in
                    try sentKeys.withUnsafeBufferPointer { (keys) throws(E) in try body(json, members, decoded, keys) }
                }
            }
        }
    }
    /// The values of a submission decoded as an object (empty when it was read in place).
    let decoded: FormValues
    /// A submission read in place: its members, decoded values and keys (`SentMembers`), and the key
    /// hints it was read with (whose ids its keys are; nil: decoded). The answers of the form
    /// that owns these hints read the members as they are. Plain arrays, not a `SentMembers?`:
    /// destroying an optional struct went through the runtime's generic value witnesses.
    let sentMembers: [SentMembers.Member]
    let sentDecoded: [JSONValue]
    let sentKeys: [String]
    let hints: KeyHints?
    /// The bytes `values` were decoded from: each member's `textStart` and `textCount` point here.
    let json: [UInt8]

    /// `values` must be exactly what `Form.submission(json:)` decoded from `json` (the server,
    /// which tells a body that is not an object apart itself, pairs them).
    package init(decoded values: FormValues, from json: [UInt8]) {
        decoded = values
        sentMembers = []
        sentDecoded = []
        sentKeys = []
        hints = nil
        self.json = json
    }

    /// `sent` must be what `JSONParser.scanSubmission` read from `json` with `hints`.
    init(sent: consuming SentMembers, hints: KeyHints, from json: [UInt8]) {
        decoded = FormValues()
        sentMembers = sent.members
        sentDecoded = sent.decoded
        sentKeys = sent.keys
        self.hints = hints
        self.json = json
    }

    /// Whether the submission was read in place (the usual one), not decoded as an object.
    package var isReadInPlace: Bool { hints != nil }
}
