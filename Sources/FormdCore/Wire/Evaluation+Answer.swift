/// The server's answers, written straight from the evaluation's per-slot arrays by the one
/// `AnswerWriter`: same input, same bytes.
extension Evaluation: AnswerContent {
    package var isValid: Bool { errors.isEmpty }

    /// The validate answer (API reference §4).
    package func validateResponse(head: [UInt8], into w: inout JSONWriter) {
        AnswerWriter.write(self, head: head, into: &w)
    }

    /// The evaluate answer (API reference §5); with `previous` (a client that sent `state`),
    /// also `state` and `changes` (§5.1).
    package func evaluateResponse(
        head: [UInt8], form: String, version: String, previous: StateSnapshot? = nil, into w: inout JSONWriter
    ) {
        AnswerWriter.write(self, head: head, into: &w) { w in
            if let previous { writeStateChanges(previous: previous, form: form, version: version, into: &w) }
        }
    }

    var answerMode: AnswerMode { mode == .validate ? .validate : .evaluate }
    var answerIsValid: Bool { isValid }

    @inline(__always)
    func forEachValue(_ body: (AnswerKey, AnswerValue) -> Void) {
        if let rows = nestedRows {
            // Not `body` passed on: the flat loop below keeps it inlined.
            for (id, v) in values(rows: rows) { body(.text(id), .value(v)) }
            return
        }
        let statics = slotMap.quotedStaticIDs.count
        // The slot map (which holds the keys) outlives the loop: the evaluation holds it.
        let quoted = slotMap.quotedStaticIDs
        for s in slotMap.outputOrder where isVisible(s) && !slotMap.fields[s].flags.contains(.secret) {
            let key: AnswerKey = s < statics ? .quoted(quoted.key(s)) : .text(slotMap.ids[s])
            // The canonical value, or the value as sent when the field's kind cannot hold it.
            if cells[s].origin != .stored {
                let m = Int(cells[s].member)
                guard m >= 0 else { continue }
                if let text = sentText(m) {
                    body(key, .text(text))
                } else {
                    body(key, .value(submission.value(m)))
                }
            } else if let v = cells[s].stored {
                body(key, .value(v))
            }
        }
    }

    /// Member `m`'s value as it was sent, when that text is what the answer writes for it: the
    /// parser recorded where it is only then (a scalar's, a string's only without escapes,
    /// `JSONObject.Member.textStart`).
    @inline(__always) func sentText(_ m: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let json = sentJSON else { return nil }
        let start = Int(submission.textStart(m))
        let count = Int(submission.textCount(m))
        guard start >= 0, start &+ count <= json.count, let base = json.baseAddress else { return nil }
        return UnsafeBufferPointer(start: base + start, count: count)
    }

    /// Slot `s`'s value as its bytes in the body (between the quotes), when it is a string kept
    /// as sent that was sent without escapes: checks read it in place, without a copy of the value.
    @inline(__always) func sentStringBytes(_ s: Int) -> UnsafeBufferPointer<UInt8>? {
        guard cells[s].origin == .sent, let text = sentText(Int(cells[s].member)), text.count >= 2,
            text[0] == UInt8(ascii: "\"")
        else { return nil }
        return UnsafeBufferPointer(rebasing: text[1..<text.count - 1])
    }

    /// Slot `s`'s value as its text in the body when it is a number or a string (without escapes)
    /// kept as sent, or a number stored canonical (`Cell.sentNumber`): a string's bytes between
    /// the quotes, a number's as written. Numeric checks and formulas read these without making
    /// the value.
    @inline(__always) func sentReadingBytes(_ s: Int) -> UnsafeBufferPointer<UInt8>? {
        guard cells[s].origin == .sent || cells[s].sentNumber, let text = sentText(Int(cells[s].member)), let first = text.first else { return nil }
        if first == UInt8(ascii: "\"") {
            guard text.count >= 2 else { return nil }
            return UnsafeBufferPointer(rebasing: text[1..<text.count - 1])
        }
        guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else { return nil }
        return text
    }

    @inline(__always)
    func forEachLabelList(_ body: (String, [String]) -> Void) {
        guard plan.hasMultipleChoice else { return }
        for s in slotMap.outputOrder {
            if let labels = choiceLabels(s) { body(slotMap.ids[s], labels) }
        }
    }

    @inline(__always)
    func forEachField(_ body: (String, Bool, Bool, Bool) -> Void) {
        for s in slotMap.outputOrder {
            let visible = isVisible(s)
            body(slotMap.ids[s], visible, !disabled[s], visible && isRequired(s))
        }
    }

    @inline(__always)
    func forEachSection(_ body: (String, Bool) -> Void) {
        for o in slotMap.sectionOrder {
            let ss = Int(o)
            guard let id = slotMap.sections[ss].id else { continue }
            body(id, !sectionHidden[ss])
        }
    }

    @inline(__always)
    func forEachAction(_ body: (String, String, String, JSONValue?) -> Void) {
        for a in actions + structuralActions {
            body(a.id, a.type, a.action.rawValue, a.action == .update ? (a.value ?? .null) : nil)
        }
        for id in hiddenClears { body(id, "field", "clear", nil) }
    }

    var answerHasWarnings: Bool { plan.hasWarnings }

    @inline(__always)
    func forEachWarning(_ body: (AnswerString?, String?, AnswerString, MessageText, ParamList, String?) -> Void) {
        forEach(warnings, body)
    }

    @inline(__always)
    func forEachError(_ body: (AnswerString?, String?, AnswerString, MessageText, ParamList, String?) -> Void) {
        forEach(errors, body)
    }

    /// A field's id is copied as written at load when the field is static (`quotedStaticIDs`).
    @inline(__always)
    func forEach(_ list: [FormError], _ body: (AnswerString?, String?, AnswerString, MessageText, ParamList, String?) -> Void) {
        let statics = slotMap.quotedStaticIDs.count
        slotMap.quotedStaticIDs.withKeys(colon: false) { quoted in
            // By index, not `for e in list`: binding each error copied it (retaining its strings,
            // params and template) only to release it again.
            for i in list.indices {
                switch list[i].subject {
                case .field(let id):
                    let s = Int(list[i].slot)
                    let field: AnswerString = s >= 0 && s < statics ? .quoted(quoted(s)) : .text(id)
                    body(field, nil, list[i].answerCode, list[i].text, list[i].paramList, list[i].messageKey)
                case .section(let id): body(nil, id, list[i].answerCode, list[i].text, list[i].paramList, list[i].messageKey)
                case .form: body(nil, nil, list[i].answerCode, list[i].text, list[i].paramList, list[i].messageKey)
                }
            }
        }
    }

    @inline(__always)
    func forEachDropped(_ body: (String, String) -> Void) {
        forEachDroppedKey { body($0, $1.rawValue) }
    }

    @inline(__always)
    func forEachHidden(_ body: (String) -> Void) {
        guard anyHidden else { return }
        for s in slotMap.outputOrder where !isVisible(s) { body(slotMap.ids[s]) }
    }

    @inline(__always)
    func forEachDisabled(_ body: (String) -> Void) {
        guard disabled.anySet() else { return }
        for s in slotMap.outputOrder where disabled[s] { body(slotMap.ids[s]) }
    }
}

extension Evaluation {
    /// `values` of a submission that sent some repeating sections as rows: those sections as
    /// `"items": [{"amount": 3}, ...]` at the section's place (one row per instance, in order,
    /// `{}` for a row without visible values), everything else as the flat path writes it.
    func values(rows: NestedRows) -> [(id: String, value: JSONValue)] {
        var out: [(id: String, value: JSONValue)] = []
        for o in slotMap.sectionOrder {
            let ss = Int(o)
            let section = slotMap.sections[ss]
            if section.template >= 0 {
                if rows.templates[section.template] { continue }  // in its section's rows
            } else if let t = plan.sections[section.section].template, rows.templates[t], let id = section.id {
                var list: [JSONValue] = []
                list.reserveCapacity(slotMap.instances[t].count)
                for base in slotMap.instanceBase[t] {
                    var row = JSONObject()
                    for a in plan.templates[t].fields.indices {
                        guard let v = outputValue(base + a) else { continue }
                        row.append(plan.rowKey(template: t, attr: a, section: id) ?? slotMap.ids[base + a], v)
                    }
                    list.append(.object(row))
                }
                out.append((id, .array(list)))
            }
            let range = slotMap.sectionFields[ss]
            for s in Int(range.lowerBound)..<Int(range.upperBound) {
                if let v = outputValue(s) { out.append((slotMap.ids[s], v)) }
            }
        }
        return out
    }
}
