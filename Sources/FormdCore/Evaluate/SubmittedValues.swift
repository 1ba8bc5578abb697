/// The submitted members an evaluation reads, by index: a decoded object (`FormValues`), or a
/// submission read in place (`SentMembers`, with the bytes it was read from and the ids of its
/// keys). Read through these accessors, never through `object` alone: a submission read in
/// place leaves `object` empty, and makes a member's `String` only when it is read as a value.
struct SubmittedValues {
    let object: JSONObject
    /// For a submission read in place: its members, its decoded values, its keys' ids, the bytes,
    /// all in its `FormSubmission`'s storage, which outlives the evaluation (`FormSubmission.
    /// withStorage`): held as arrays, they were retained and released with every copy.
    nonisolated(unsafe) let sent: UnsafeBufferPointer<SentMembers.Member>
    nonisolated(unsafe) let decoded: UnsafeBufferPointer<JSONValue>
    nonisolated(unsafe) let keys: UnsafeBufferPointer<String>
    let ids: KeyHints.View?
    nonisolated(unsafe) let bytes: UnsafeBufferPointer<UInt8>
    /// Whether the members were read in place (`sent`).
    let isSent: Bool

    init(_ object: JSONObject) {
        self.object = object
        sent = UnsafeBufferPointer(start: nil, count: 0)
        decoded = UnsafeBufferPointer(start: nil, count: 0)
        keys = UnsafeBufferPointer(start: nil, count: 0)
        ids = nil
        bytes = UnsafeBufferPointer(start: nil, count: 0)
        isSent = false
    }

    /// Members read in place from `bytes`, with the keys' `ids`.
    init(
        sent: UnsafeBufferPointer<SentMembers.Member>, decoded: UnsafeBufferPointer<JSONValue>, keys: UnsafeBufferPointer<String>,
        ids: KeyHints.View, bytes: UnsafeBufferPointer<UInt8>
    ) {
        object = JSONObject()
        self.sent = sent
        self.decoded = decoded
        self.keys = keys
        self.ids = ids
        self.bytes = bytes
        isSent = true
    }

    /// The decoded object of these members (`SentMembers.object` for members read in place).
    var asObject: JSONObject {
        guard isSent, let ids else { return object }
        return SentMembers.object(sent, decoded: decoded, keys: keys, ids: ids, bytes: bytes)
    }

    @inline(__always) var count: Int { isSent ? sent.count : object.members.count }

    /// Member `m`'s value (made from the bytes for a member read in place).
    @inline(__always) func value(_ m: Int) -> JSONValue {
        guard isSent else { return object.members[m].value }
        return sentValue(m)
    }

    /// Out of line: inlined, the making of every kind of value grew the loops that read values
    /// (the answer's `values` among them) past what the optimizer inlines.
    @inline(never) private func sentValue(_ m: Int) -> JSONValue {
        SentMembers.value(sent[m], decoded: decoded, bytes: bytes)
    }

    /// Member `m`'s key.
    @inline(__always) func key(_ m: Int) -> String {
        guard isSent, let ids else { return object.members[m].key }
        let id = Int(sent[m].id)
        return id >= 0 ? ids.id(id) : keys[Int(sent[m].key)]
    }

    /// Where member `m`'s value's text is in the bytes it was read from (`JSONObject.Member.textStart`).
    @inline(__always) func textStart(_ m: Int) -> Int32 { isSent ? sent[m].textStart : object.members[m].textStart }
    @inline(__always) func textCount(_ m: Int) -> Int32 { isSent ? sent[m].textCount : object.members[m].textCount }
}
