/// A submission's JSON bytes decoded for one form (`Form.submission(fromJSON:)`), kept with the
/// bytes. Its answers (`Form.validateAnswer(_:locale:remote:reservingCapacity:)` with a
/// submission) are the same bytes as for its `values`, written faster: a value sent back as it
/// was sent (most of them) is copied from the submission's text, not written again.
///
/// ```swift
/// let submission = try form.submission(fromJSON: body)
/// let answer = try form.validateAnswer(submission)
/// ```
public struct FormSubmission: Sendable {
    /// The values, as `Form.values(json:)` decodes them.
    public let values: FormValues
    /// The bytes `values` were decoded from: each member's `textStart` and `textCount` point here.
    let json: [UInt8]

    /// `values` must be exactly what `Form.submission(json:)` decoded from `json` (the server,
    /// which tells a body that is not an object apart itself, pairs them).
    package init(decoded values: FormValues, from json: [UInt8]) {
        self.values = values
        self.json = json
    }
}
