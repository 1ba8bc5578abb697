/// What a browser posts for a `<form>`, read with the form's own meaning (API.md §4):
///
/// * a checked checkbox sends `on` (its default value): true for a `switch` field, as `off` is
///   false; an unchecked one sends nothing: a `switch` outside repeating sections that the post
///   does not name is false;
/// * a key may repeat for a `switch` (the "hidden input `false` before the checkbox" idiom,
///   which also covers checkboxes in repeating sections): it is true when any of its values is
///   `on`, `true` or `1`, else its last value;
/// * a `multi_select` takes every value of its key (checkboxes sharing a name, or a
///   `<select multiple>`), blank ones left out (a hidden empty input marks the field as on the
///   page); one outside repeating sections that the post does not name chose nothing (`[]`), as
///   an unchecked checkbox is false. Any other repeated key is refused (400).
extension Form {
    /// The submission a browser's form post stands for: `pairs` are the post's keys and values in
    /// order (urlencoded or multipart, already decoded).
    ///
    /// - Throws: ``FormRequestError/repeatedFormKey(_:)`` when a key that is neither a `switch`'s
    ///   nor a `multi_select`'s repeats.
    public func values(fromFormPost pairs: [(key: String, value: String)]) throws(FormRequestError) -> FormValues {
        let plan = loaded.plan
        // Keys in first-seen order with their values; only a repeated key gets an array of its
        // own (a list per key made an 18,588-key post cost twice its JSON).
        var entries: [(key: String, first: String, more: [String])] = []
        entries.reserveCapacity(pairs.count)
        var position: [String: Int] = [:]
        position.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            // One hash per key: the default inserts a new key's position in the same look-up.
            let next = entries.count
            let at = Self.firstPosition(&position[key, default: next])
            if at < next {
                entries[at].more.append(value)
            } else {
                entries.append((key, value, []))
            }
        }
        var object = JSONObject()
        for entry in entries {
            let key = entry.key
            let kind = plan.kind(ofKey: key)
            if kind != .multiSelect && kind != .switch {
                guard entry.more.isEmpty else { throw .repeatedFormKey(key) }
                object.append(key, .string(entry.first))
                continue
            }
            let values = [entry.first] + entry.more
            if kind == .multiSelect {
                object.append(key, .array(values.filter { !$0.allSatisfy({ $0.isWhitespace }) }.map { .string($0) }))
            } else if values.contains(where: { ["on", "true", "1"].contains($0.lowercased()) }) {  // a switch
                object.append(key, .bool(true))
            } else if let last = values.last {
                object.append(key, last.lowercased() == "off" ? .bool(false) : .string(last))
            }
        }
        for id in plan.staticSwitchIDs where position[id] == nil { object.append(id, .bool(false)) }
        for id in plan.staticMultipleChoiceIDs where position[id] == nil { object.append(id, .array([])) }
        return object
    }

    /// Reads a dictionary slot passed `inout`: through `subscript(_:default:)`'s modify accessor,
    /// which stores the default for a key it does not find. So the result is the default for a new
    /// key (now recorded) and the key's first position otherwise.
    private static func firstPosition(_ slot: inout Int) -> Int { slot }
}
