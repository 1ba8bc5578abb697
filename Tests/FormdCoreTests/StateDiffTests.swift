import Foundation
import FormdTestSupport
import Testing
@testable import FormdCore

/// State diffs for declarative clients (API.md §5.1): the token, the list diff, and the property
/// that applying `changes` to the previous state gives the new one.
@Suite struct StateDiffTests {

    // MARK: - The list diff

    /// FlexibleDiff's way of applying a diff (see `ListDiff`).
    static func apply(_ diff: JSONValue?, to old: [String]) -> [String] {
        guard let diff else { return old }
        var list = old
        var drops: [Int] = []
        for r in diff["removed"]?.arrayValue ?? [] { drops.append(Int(r["from"]!.numberValue!.text)!) }
        for m in diff["moved"]?.arrayValue ?? [] { drops.append(Int(m["from"]!.numberValue!.text)!) }
        for i in drops.sorted(by: >) { list.remove(at: i) }
        var adds: [(Int, String)] = []
        for i in diff["inserted"]?.arrayValue ?? [] { adds.append((Int(i["at"]!.numberValue!.text)!, i["id"]!.stringValue!)) }
        for m in diff["moved"]?.arrayValue ?? [] { adds.append((Int(m["to"]!.numberValue!.text)!, m["id"]!.stringValue!)) }
        for (at, id) in adds.sorted(by: { $0.0 < $1.0 }) { list.insert(id, at: at) }
        return list
    }

    static func written(_ d: ListDiff) -> JSONValue {
        var w = JSONWriter()
        d.write(&w)
        return try! JSONParser.parse(w.bytes).root
    }

    @Test func listDiffsRebuildTheNewList() {
        let cases: [([String], [String])] = [
            (["a", "b", "c", "d", "e"], ["a", "c", "e"]), (["a", "b", "c"], ["c", "a", "b"]), (["a", "b", "c"], ["b", "a", "c"]),
            ([], ["a", "b"]), (["a", "b"], []), (["a", "b", "c"], ["x", "c", "b", "y"]),
        ]
        for (old, new) in cases {
            #expect(Self.apply(Self.written(ListDiff(from: old, to: new)), to: old) == new, "\(old) -> \(new)")
        }
        let shifted = ListDiff(from: ["a", "b", "c", "d", "e"], to: ["a", "c", "e"])
        #expect(shifted.moved.isEmpty && shifted.removed.map(\.id) == ["b", "d"], "a removal moves nothing")
        let rotated = ListDiff(from: ["a", "b", "c"], to: ["c", "a", "b"])
        #expect(rotated.moved.map(\.id) == ["c"] && rotated.inserted.isEmpty, "the fewest moves")
    }

    @Test func randomListDiffsRebuildTheNewList() {
        var rng = SplitMix64(state: 7)
        let pool = (0..<12).map { "f\($0)" }
        for _ in 0..<2000 {
            let old = Array(pool.shuffled(using: &rng).prefix(Int.random(in: 0...12, using: &rng)))
            let new = Array(pool.shuffled(using: &rng).prefix(Int.random(in: 0...12, using: &rng)))
            #expect(Self.apply(Self.written(ListDiff(from: old, to: new)), to: old) == new)
        }
    }

    // MARK: - The client's view of an answer

    struct View: Equatable, CustomStringConvertible {
        var sections: [String] = []
        var fieldOrder: [String: [String]] = [:]
        var fields: [String: [String: JSONValue]] = [:]
        var sectionStates: [String: [String: JSONValue]] = [:]
        var formErrors: JSONValue = .array([])

        var description: String {
            "sections \(sections)\norder \(fieldOrder.sorted { $0.key < $1.key })\nfields \(fields.sorted { $0.key < $1.key })\nsectionStates \(sectionStates.sorted { $0.key < $1.key })\nform \(formErrors)"
        }

        /// What an evaluate answer says, with the section membership of the evaluation's slotMap.
        init(answer: JSONValue, evaluation e: borrowing Evaluation) {
            let errors = answer["errors"]?.arrayValue ?? []
            func errorsOf(_ key: String, _ id: String) -> JSONValue { .array(errors.filter { $0[key]?.stringValue == id }) }
            formErrors = .array(errors.filter { $0["field"] == nil && $0["section"] == nil })
            for o in e.slotMap.sectionOrder {
                let slot = e.slotMap.sections[Int(o)]
                let key = slot.id ?? "#\(slot.section)"
                let visible = slot.id.map { answer["sections"]?[$0]?["visible"]?.boolValue ?? true } ?? true
                if visible { sections.append(key) }
                sectionStates[key] = ["visible": .bool(visible), "errors": errorsOf("section", key)]
                var order: [String] = []
                let range = e.slotMap.sectionFields[Int(o)]
                for s in Int(range.lowerBound)..<Int(range.upperBound) {
                    let id = e.slotMap.ids[s]
                    let st = answer["fields"]![id]!
                    if st["visible"]!.boolValue! { order.append(id) }
                    fields[id] = [
                        "value": answer["values"]?[id] ?? .null, "visible": st["visible"]!, "enabled": st["enabled"]!,
                        "required": st["required"]!, "errors": errorsOf("field", id),
                    ]
                }
                if !order.isEmpty { fieldOrder[key] = order }
            }
        }

        init() {}

        /// This view with an answer's `changes` applied, as a client would.
        func applying(_ changes: JSONValue) -> View {
            var v = self
            for id in changes["removed"]?["fields"]?.arrayValue ?? [] { v.fields[id.stringValue!] = nil }
            for id in changes["removed"]?["sections"]?.arrayValue ?? [] { v.sectionStates[id.stringValue!] = nil }
            for m in changes["fields"]?.objectValue?.members ?? [] {
                for a in m.value.objectValue!.members { v.fields[m.key, default: [:]][a.key] = a.value }
            }
            for m in changes["sections"]?.objectValue?.members ?? [] {
                for a in m.value.objectValue!.members { v.sectionStates[m.key, default: [:]][a.key] = a.value }
            }
            v.sections = StateDiffTests.apply(changes["order"]?["sections"], to: sections)
            for m in changes["order"]?["fields"]?.objectValue?.members ?? [] {
                let list = StateDiffTests.apply(m.value, to: fieldOrder[m.key] ?? [])
                v.fieldOrder[m.key] = list.isEmpty ? nil : list
            }
            if let e = changes["errors"] { v.formErrors = e }
            return v
        }
    }

    static func answer(_ e: borrowing Evaluation, _ form: LoadedForm, previous: StateSnapshot) -> JSONValue {
        var w = JSONWriter()
        e.evaluateResponse(head: form.answerHead, form: form.id, version: form.version, previous: previous, into: &w)
        return try! JSONParser.parse(w.bytes).root
    }

    // MARK: - The property, on random edits of every bundled form

    static var bundled: [LoadedForm] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Forms")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            let bytes = Array((try? Data(contentsOf: dir.appendingPathComponent(name))) ?? Data())
            return FormLoader.load(id: String(name.dropLast(5)), bytes: bytes).form
        }
    }

    /// A value for a field of `spec`'s kind: mostly ones the kind holds, sometimes not.
    static func randomValue(_ spec: FieldSpec, _ rng: inout SplitMix64) -> JSONValue {
        let ids = spec.options.compactMap(\.id)
        if Int.random(in: 0..<8, using: &rng) == 0 { return [.null, .string(""), .string("x?"), .number(JSONNumber(literal: "-3"))].randomElement(using: &rng)! }
        switch spec.kind {
        case .multiSelect: return .array(Array(ids.shuffled(using: &rng).prefix(Int.random(in: 0...ids.count, using: &rng))))
        case .select, .segment: return ids.randomElement(using: &rng) ?? .null
        case .switch: return .bool(Bool.random(using: &rng))
        case .number, .count, .float: return .number(JSONNumber(literal: String(Int.random(in: -5...200_000, using: &rng))))
        case .date: return .string("2026-0\(Int.random(in: 1...9, using: &rng))-1\(Int.random(in: 0...9, using: &rng))")
        case .dateTime: return .string("2026-11-2\(Int.random(in: 0...9, using: &rng))T10:00:00Z")
        case .time: return .string("1\(Int.random(in: 0...9, using: &rng)):30")
        case .email: return .string(["ola@example.no", "kari@x.io", "bad"].randomElement(using: &rng)!)
        default: return .string(["Ola", "Kari Nordmann", "a", "150765 00565", "0450", "12345678903", "hemmelig1"].randomElement(using: &rng)!)
        }
    }

    @Test(arguments: bundled.map(\.id))
    func applyingChangesToThePreviousStateGivesTheNewState(formID: String) throws {
        let form = try #require(Self.bundled.first { $0.id == formID })
        let plan = form.plan
        var rng = SplitMix64(state: UInt64(formID.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        var values: [String: JSONValue] = [:]
        var view = View()
        var previous = StateSnapshot.empty
        var orderChanges = 0
        for step in 0..<60 {
            // A few random edits: static fields, template instances, removals.
            var changed: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                if !plan.templates.isEmpty && Bool.random(using: &rng) {
                    let t = plan.templates.randomElement(using: &rng)!
                    let a = Int.random(in: 0..<t.fields.count, using: &rng)
                    let n = Int.random(in: 0...3, using: &rng)
                    let id = t.instanceFieldID(attr: a, index: n)
                    if Int.random(in: 0..<4, using: &rng) == 0 { values.removeValue(forKey: id) } else { values[id] = Self.randomValue(t.fields[a], &rng) }
                    if Bool.random(using: &rng) { changed.append(t.id) }
                } else if let spec = plan.fields.filter(\.holdsValue).randomElement(using: &rng) {
                    if Int.random(in: 0..<5, using: &rng) == 0 { values.removeValue(forKey: spec.id) } else { values[spec.id] = Self.randomValue(spec, &rng) }
                    if Bool.random(using: &rng) { changed.append(spec.id) }
                }
            }
            let locale: SupportedLocale = step % 7 == 6 ? .nb : .en
            let object = JSONObject(values.sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: $0.value) })
            let e = Evaluation(plan: plan, values: object, changed: changed, mode: .evaluate, options: EvaluationOptions(locale: locale))
            let answer = Self.answer(e, form, previous: previous)
            let want = View(answer: answer, evaluation: e)
            let got = view.applying(try #require(answer["changes"]))
            #expect(got == want, "\(formID) step \(step): applying the changes gives\n\(got)\nbut the state is\n\(want)")
            guard got == want else { return }
            if step > 0, answer["changes"]?["order"]?["fields"]?.objectValue?.isEmpty == false { orderChanges += 1 }
            let token = try #require(answer["state"]?.stringValue)
            previous = try StateSnapshot(token: token, form: form.id, version: form.version, plan: plan)
            #expect(previous == e.snapshot().0, "the token round-trips")
            view = want
        }
        // A form that shows, hides or repeats something had some of it happen.
        let structural = plan.fields.contains { $0.hasStructuralTargets } || !plan.templates.isEmpty
        #expect(!structural || orderChanges > 0, "\(formID): no edit changed what is visible")
        #expect(structural || ["newsletter-i18n", "registration-pureform"].contains(formID), "a bundled form without targets")
    }

    // MARK: - Tokens

    static let small = Engine.fields(
        #"{"id": "a", "type": "text", "validations": {"required": true}}"#,
        #"{"id": "b", "type": "switch", "targets": [{"id": "c", "type": "field", "action": "show"}]}"#,
        #"{"id": "c", "type": "text", "hidden": true}"#)

    func changes(_ def: String, _ values: String, previous: StateSnapshot, form: LoadedForm? = nil) throws -> (JSONValue, String?) {
        let f = try form ?? Engine.load(def)
        let e = try Engine.evaluation(f, values)
        let answer = Self.answer(e, f, previous: previous)
        return (try #require(answer["changes"]), answer["state"]?.stringValue)
    }

    @Test func noPreviousStateIsEverythingInserted() throws {
        let (c, token) = try changes(Self.small, #"{"a": "x"}"#, previous: .empty)
        #expect(c["order"]?["sections"] == Engine.json(#"{"removed": [], "inserted": [{"id": "s", "at": 0}], "moved": []}"#))
        #expect(c["order"]?["fields"]?["s"]?["inserted"] == Engine.json(#"[{"id": "a", "at": 0}, {"id": "b", "at": 1}]"#))
        #expect(c["fields"]?["a"] == Engine.json(#"{"value": "x", "visible": true, "enabled": true, "required": true, "errors": []}"#))
        #expect(c["fields"]?["c"]?["visible"] == .bool(false))
        #expect(token != nil)
    }

    @Test func onlyWhatChangedIsListed() throws {
        let form = try Engine.load(Self.small)
        let (_, token) = try changes(Self.small, #"{"a": "x"}"#, previous: .empty, form: form)
        let previous = try StateSnapshot(token: try #require(token), form: form.id, version: form.version, plan: form.plan)
        let (c, _) = try changes(Self.small, #"{"b": true}"#, previous: previous, form: form)
        #expect(c["order"]?["fields"] == Engine.json(#"{"s": {"removed": [], "inserted": [{"id": "c", "at": 2}], "moved": []}}"#))
        #expect(c["fields"] == Engine.json(#"{"a": {"value": null}, "b": {"value": true}, "c": {"visible": true}}"#))
        #expect(c["sections"] == Engine.json("{}") && c["errors"] == nil)
        let (same, _) = try changes(Self.small, #"{"a": "x"}"#, previous: previous, form: form)
        #expect(same["fields"] == Engine.json("{}") && same["order"]?["fields"] == Engine.json("{}"), "the same state: no changes")
    }

    @Test func damagedForeignAndOversizedTokensAreRefused() throws {
        let form = try Engine.load(Self.small)
        let (_, t) = try changes(Self.small, #"{"a": "x"}"#, previous: .empty, form: form)
        let token = try #require(t)
        func error(_ text: String, form f: LoadedForm? = nil) -> StateSnapshot.TokenError? {
            let f = f ?? form
            do {
                _ = try StateSnapshot(token: text, form: f.id, version: f.version, plan: f.plan)
                return nil
            } catch { return error }
        }
        #expect(error(token) == nil)
        var flipped = Array(token.utf8)
        flipped[10] = flipped[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(error(String(decoding: flipped, as: UTF8.self)) == .malformed)
        #expect(error(String(token.dropLast())) == .malformed)
        #expect(error("not a token!") == .malformed && error("") == .malformed)
        let other = try Engine.load(Self.small.replacingOccurrences(of: #""id": "c""#, with: #""id": "d""#).replacingOccurrences(of: #""id": "c","#, with: #""id": "d","#))
        #expect(error(token, form: other) == .foreign, "another version of the form")
        #expect(error(String(repeating: "A", count: StateSnapshot.maxTokenLength + 1)) == .tooLong)
    }

    @Test func aStateTooLargeForATokenIsAnsweredWithNull() throws {
        let many = (0..<(StateSnapshot.maxEntries + 1)).map { #"{"id": "f\#($0)", "type": "text"}"# }
        let def = "[{\"id\": \"g\", \"sections\": [{\"id\": \"s\", \"fields\": [" + many.joined(separator: ",") + "]}]}]"
        let form = try Engine.load(def)
        let e = try Engine.evaluation(form, "{}")
        let answer = Self.answer(e, form, previous: .empty)
        #expect(answer["state"] == .null)
        #expect(answer["changes"]?["order"]?["fields"]?["s"]?["inserted"]?.arrayValue?.count == StateSnapshot.maxEntries + 1)
    }
}
