/// Repeating sections sent as rows (API reference §4.3): `{"items": [{"amount": 3}, ...]}` is read
/// as the flat keys `items[0].amount`, ... (row `i` is instance `i`), and the answer's `values`
/// carries those sections as rows again. Which sections a submission sent as rows is all the
/// answer needs to know: `templates[t]` is true for them.
///
/// A submission without rows is not copied: each key's length is tested against the section ids'
/// (a bit mask), and forms without dynamic sections skip even that, so the flat path, the common
/// one, stays as it was (callgrind, docs/BENCHMARKS.md).
package struct NestedRows: Sendable {
    /// A dynamic section a submission may send as rows.
    package struct Section: Sendable {
        let id: String
        let template: Int
        /// `id.utf8.count`: most keys differ in length, so they are not compared at all.
        let idLength: Int
    }

    /// Per template: sent as rows, so answered as rows.
    var templates: [Bool]
}

extension Evaluation {
    /// The evaluation of a submission whose repeating sections may be flat keys or rows: rows are
    /// flattened first (`FormPlan.flattenRows`, which returns a flat submission as it is), and the
    /// answer carries those sections as rows.
    ///
    /// - Throws: ``FormRequestError/badRows(_:)`` for rows formd cannot read.
    /// `of` for submitted values read in place (with `plan`'s key hints, from `sentJSON`) or
    /// decoded. A plan with sections sent as rows reads them decoded (`flattenRows`).
    @inline(__always)
    static func of(
        plan: FormPlan, _ submitted: consuming SubmittedValues, sentJSON: UnsafeBufferPointer<UInt8>?, changed: [String] = [], mode: Mode,
        options: EvaluationOptions
    ) throws(FormRequestError) -> Evaluation {
        guard submitted.isSent, plan.rowSections.isEmpty else {
            return try of(plan: plan, values: submitted.asObject, sentJSON: sentJSON, changed: changed, mode: mode, options: options)
        }
        return Evaluation(plan: plan, submitted: consume submitted, sentJSON: sentJSON, changed: changed, mode: mode, options: options)
    }

    @inline(__always)
    static func of(
        plan: FormPlan, values: JSONObject, sentJSON: UnsafeBufferPointer<UInt8>? = nil, changed: [String] = [], mode: Mode,
        options: EvaluationOptions
    ) throws(FormRequestError) -> Evaluation {
        guard !plan.rowSections.isEmpty else {
            return Evaluation(plan: plan, values: values, sentJSON: sentJSON, changed: changed, mode: mode, options: options)
        }
        let (flat, rows) = try plan.flattenRows(values)
        var e = Evaluation(plan: plan, values: flat, sentJSON: sentJSON, changed: changed, mode: mode, options: options)
        e.nestedRows = rows
        return e
    }
}

extension FormPlan {
    /// The dynamic section a member key names as a whole (`items`), if any. Most keys differ in
    /// length from every section id (`rowSectionLengths`): they cost a length and a bit test.
    @inline(__always) func rowSection(_ key: String) -> NestedRows.Section? {
        let length = key.utf8.count
        guard rowSectionLengths & (1 << UInt64(min(length, 63))) != 0 else { return nil }
        for s in rowSections where s.idLength == length && s.id == key { return s }
        return nil
    }

    /// `values` with every section sent as rows rewritten as flat instance keys, and which
    /// sections those were (nil: none, and `values` is returned as it is).
    ///
    /// - Throws: ``FormRequestError/badRows(_:)`` for a section's value that is neither an array
    ///   nor `null` (no rows), a row that is not an object, a section named twice, or flat keys of
    ///   a section that is also sent as rows.
    func flattenRows(_ values: FormValues) throws(FormRequestError) -> (values: FormValues, rows: NestedRows?) {
        guard !rowSections.isEmpty else { return (values, nil) }
        let members = values.members
        var first = -1
        for m in members.indices where rowSection(members[m].key) != nil {
            first = m
            break
        }
        guard first >= 0 else { return (values, nil) }

        var nested = NestedRows(templates: Array(repeating: false, count: templates.count))
        var out = JSONObject()
        out.members.reserveCapacity(members.count + 8)
        for m in members.indices {
            guard m >= first, let section = rowSection(members[m].key) else {
                out.members.append(members[m])
                continue
            }
            let id = section.id
            if nested.templates[section.template] {
                throw .badRows("the submission names the repeating section \"\(id)\" twice")
            }
            nested.templates[section.template] = true
            let rows: [JSONValue]
            switch members[m].value {
            case .null: rows = []
            case .array(let list): rows = list
            default:
                throw .badRows(
                    "\"\(id)\" is a repeating section: its value must be an array of row objects "
                        + "(\"\(id)\": [{...}, ...]), not \(Self.kindName(members[m].value))")
            }
            let template = templates[section.template]
            for (r, row) in rows.enumerated() {
                guard case .object(let fields) = row else {
                    throw .badRows("row \(r) of \"\(id)\" must be an object of the row's fields, not \(Self.kindName(row))")
                }
                let prefix = "\(id)[\(r)]."
                // A row without keys is still an instance (as a flat key with `null` makes one).
                if fields.isEmpty, !template.fields.isEmpty {
                    out.append(template.instanceFieldID(attr: 0, index: r), .null)
                }
                for f in fields.members { out.append(prefix + f.key, f.value) }
            }
        }
        // Flat instance keys of a section that also came as rows: which instance would win is
        // anybody's guess, so neither does.
        for m in members.indices where rowSection(members[m].key) == nil {
            if case .instance(let t, _, _) = route(members[m].key), nested.templates[t] {
                let id = rowSections.first(where: { $0.template == t })?.id ?? templates[t].id
                throw .badRows(
                    "\"\(members[m].key)\" is a flat key of the repeating section \"\(id)\", which the submission also sends "
                        + "as rows: send one form or the other")
            }
        }
        return (out, nested)
    }

    /// A row's key for template `t`'s attribute `a` (`amount` for `items[:index].amount`), or
    /// nil when the attribute's id does not start with the section's (it is then answered flat).
    func rowKey(template t: Int, attr a: Int, section id: String) -> String? {
        let parts = templates[t].idParts[a]
        guard parts.prefix.utf8.count == id.utf8.count + 1, parts.prefix.hasPrefix(id), parts.prefix.hasSuffix("["),
            parts.suffix.hasPrefix("].")
        else { return nil }
        return String(parts.suffix.dropFirst(2))
    }

    private static func kindName(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
