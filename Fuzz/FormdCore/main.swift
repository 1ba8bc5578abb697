// libFuzzer entry for FormdCore. One binary, three targets chosen by FORMD_FUZZ_TARGET:
//   submission  the request path: strict JSON parse of a submission + validate + evaluate
//               against a fixed definition, then the response encoders
//   expression  formula, condition and text-template parsing and evaluation; the formula
//               program and the simple-comparison fast path checked against the trees
//   definition  the definition loader: lenient JSON with locations, reader, checks, compiler
//   format      a `format` pattern and a value (split at the first NUL byte): the engine-free
//               fast path (SimplePattern) checked against the regex engine, and its
//               automaton against its bit masks
//   inplace     a submission read in place (`Form.submission(body:)`, `SentMembers`) checked
//               against the same bytes decoded as a tree: the same errors, the same values and
//               byte-identical validate and evaluate answers
// Any crash, hang or sanitizer report is a finding; inputs are never expected to be valid.

import Foundation

enum FuzzTarget: String { case submission, expression, definition, format, inplace }

let target = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["FORMD_FUZZ_TARGET"] ?? "submission") ?? .submission

/// A definition that uses templates, formulas, conditions, targets and formats.
let fixedForm: LoadedForm = {
    let text = #"""
    {"groups":[{"id":"g","sections":[
      {"id":"s","fields":[
        {"id":"name","type":"name","validations":{"required":true,"min_length":2,"max_length":20}},
        {"id":"email","type":"email","validations":{"format":"[\\w._%+-]+@[\\w.-]+\\.\\w{2,}"}},
        {"id":"kind","type":"select","values":[
          {"id":0,"value":10,"default":true,"targets":[{"id":"bonus","type":"field","action":"hide"}]},
          {"id":1,"value":20,"targets":[{"id":"bonus","type":"field","action":"show"},
                                       {"id":"note","type":"field","action":"update","target_value":"x"}]}]},
        {"id":"bonus","type":"float","validations":{"min_value":0,"max_value":1e6}},
        {"id":"total","type":"float","formula":"kind + bonus + sum(rows[*].amount)"},
        {"id":"note","type":"text","formula":"name kind","targets":[{"id":"s2","type":"section","action":"hide","condition":"$total > 100 && present($email)"}]},
        {"id":"on","type":"switch","targets":[{"id":"d","type":"field","action":"clear"}]},
        {"id":"d","type":"date","validations":{"compare_to":"d2","compare_rule":"<="}},
        {"id":"d2","type":"date_time"},
        {"id":"t","type":"time"},
        {"id":"c","type":"count"},
        {"id":"n","type":"number"},
        {"id":"person.social_security_number","type":"text"}]},
      {"id":"rows","type":"dynamic","action_title":"Add","max_instances":5,"targets":[{"id":"note","type":"field","action":"clear"}]},
      {"id":"s2","fields":[{"id":"x","type":"custom"}]}]}],
     "templates":{"sections":[{"id":"rows","fields":[
        {"id":"rows[:index].qty","type":"count","value":1},
        {"id":"rows[:index].price","type":"float"},
        {"id":"rows[:index].amount","type":"float","formula":"rows[:index].qty * rows[:index].price"},
        {"id":"rows[:index].cmp","type":"float","validations":{"compare_to":"rows[:index].price","compare_rule":">"}}]}]}}
    """#
    guard let form = FormLoader.load(id: "fuzz", bytes: Array(text.utf8)).form else { fatalError("fixed form rejected") }
    return form
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case .submission:
        guard let doc = try? JSONParser.parse(bytes, options: .submission), case .object(let values) = doc.root else {
            return 0
        }
        let ids = values.members.prefix(4).map(\.key)
        for mode in [Evaluation.Mode.validate, .evaluate] {
            let changed = mode == .evaluate && fixedForm.plan.unknownChangedID(ids) == nil ? ids : []
            // Repeating sections may come as rows (API.md §4.3): a shape formd refuses is a request error.
            guard let e = try? Evaluation.of(plan: fixedForm.plan, values: values, changed: changed, mode: mode, options: EvaluationOptions())
            else { return 0 }
            var w = JSONWriter()
            if mode == .validate {
                e.validateResponse(head: fixedForm.answerHead, into: &w)
            } else {
                e.evaluateResponse(head: fixedForm.answerHead, form: fixedForm.id, version: fixedForm.version, into: &w)
            }
            // What formd writes must always be strict JSON.
            if (try? JSONParser.parse(w.bytes, options: .submission)) == nil { fatalError("response is not strict JSON") }
        }
    case .expression:
        guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
        // The parsers and evaluators directly (fast: most of the budget goes to them), each
        // operand slot answering a different kind of value so every evaluation path runs.
        let environment = FuzzEnvironment(seed: bytes.first ?? 0)
        // Oracles: what the engine runs (the postfix program, the simple-comparison fast path)
        // must agree with the tree evaluators on every input.
        if let formula = try? Formula(parsing: text) {
            let bound = formula.substitutingIndex(3)
            let tree = bound.evaluate(in: environment)
            var ops: [FormulaProgram.Op] = []
            let depth = FormulaProgram.compile(bound, into: &ops)
            let program = ops.withUnsafeBufferPointer { FormulaProgram.evaluate($0, 0..<ops.count, depth: max(depth, 1), in: environment) }
            if tree != program { fatalError("formula program \(String(describing: program)) != tree \(String(describing: tree))") }
        }
        if let condition = try? Condition(parsing: text) {
            let bound = condition.substitutingIndex(3)
            let holds = bound.evaluate(in: environment)
            if let simple = SimpleComparison(bound), simple.holds(environment.operand(simple.slot)) != holds {
                fatalError("simple comparison disagrees with the condition evaluator")
            }
        }
        var slots: [String: Int] = [:]
        let template = TextTemplate(parsing: text).substitutingIndex(3).bound { name in
            if let s = slots[name] { return s }
            guard name.utf8.count % 3 != 0 else { return nil }  // some words are not fields
            slots[name] = slots.count
            return slots.count - 1
        }
        _ = template.evaluate(in: environment)
        // One input in 32 also goes through the loader as a formula, a text formula and a
        // condition of a real definition, then one evaluation of that form (the definition
        // target covers the loader; this keeps the parsers' share of the time high).
        if (bytes.last ?? 0) & 31 == 0 {
            let quoted = String(decoding: JSONWriter.encode(.string(text)), as: UTF8.self)
            let definition = #"{"groups":[{"sections":[{"fields":[{"id":"a","type":"float","value":2},{"id":"b","type":"text","value":"x"},"#
                + #"{"id":"f","type":"float","formula":"# + quoted + "},"
                + #"{"id":"g","type":"text","formula":"# + quoted + "},"
                + #"{"id":"h","type":"text","targets":[{"id":"a","type":"field","action":"hide","condition":"#
                + quoted + "}]}]}]}]}"
            if let form = FormLoader.load(id: "x", bytes: Array(definition.utf8)).form {
                _ = Evaluation(plan: form.plan, values: JSONObject([.init(key: "h", value: .string("y"))]), mode: .validate, options: EvaluationOptions())
            }
        }
    case .format:
        let cut = bytes.firstIndex(of: 0) ?? bytes.count
        guard let source = String(validating: bytes[..<cut], as: UTF8.self),
              let text = String(validating: bytes[min(cut + 1, bytes.count)...], as: UTF8.self),
              let simple = SimplePattern(source),
              let engine = try? FormatPattern(source, engine: .preferred, fastPath: false)
        else { return 0 }
        let want = engine.evaluate(text)
        // Where the engine gives up there is nothing to compare with (the fast path answers).
        if want != .timedOut, let found = simple.matches(text), found != (want == .match) {
            fatalError("fast path says \(found), the engine \(want), for \(source.debugDescription) on \(text.debugDescription)")
        }
        // The automaton (which `matches` uses when the pattern has one) against the bit masks.
        let utf8 = Array(text.utf8)
        if let automaton = simple.automaton, utf8.count < 64 {
            let (a, m) = utf8.withUnsafeBufferPointer { (automaton.matches($0, anchoredEnd: simple.anchoredEnd), simple.matchesByMasks($0)) }
            if a != m {
                fatalError("automaton says \(String(describing: a)), the masks \(String(describing: m)), for \(source.debugDescription) on \(text.debugDescription)")
            }
        }
    case .inplace:
        for form in [flatForm, rowsForm] { checkReadInPlace(form, bytes) }
    case .definition:
        let result = FormLoader.load(id: "fuzz", bytes: bytes)
        if let form = result.form {
            _ = Evaluation(plan: form.plan, values: JSONObject(), mode: .evaluate, options: EvaluationOptions())
            if (try? JSONParser.parse(form.servedBytes, options: .submission)) == nil { fatalError("served bytes are not strict JSON") }
        }
    }
    return 0
}

/// A definition without repeating sections (their submissions are evaluated as read, not through
/// rows), with a field of each kind whose check reads a value's bytes in the body: coercion kept
/// as sent, `format`, lengths in UTF-16 units, dates compared as sent, option ids (numbers,
/// ASCII and non-ASCII strings), plus formulas and targets that read them.
let flatForm: Form = {
    let text = #"""
    {"groups":[{"id":"g","sections":[{"id":"s","fields":[
      {"id":"a","type":"text","validations":{"required":true,"min_length":2,"max_length":5}},
      {"id":"b","type":"name","validations":{"format":"^[A-Z][a-z]+$"}},
      {"id":"c","type":"email","validations":{"format":"[\\w._%+-]+@[\\w.-]+\\.\\w{2,}"}},
      {"id":"d","type":"password","validations":{"min_length":3}},
      {"id":"e","type":"custom"},
      {"id":"f","type":"date","validations":{"compare_to":"g2","compare_rule":"<="}},
      {"id":"g2","type":"date"},
      {"id":"h","type":"date_time","validations":{"compare_to":"f","compare_rule":">"}},
      {"id":"i","type":"time"},
      {"id":"j","type":"select","values":[{"id":0,"value":1},{"id":"x","value":2,"targets":[{"id":"k","type":"field","action":"hide"}]},
                                         {"id":"\u00e6","value":3}]},
      {"id":"k","type":"segment","values":[{"id":"on","value":1},{"id":"off","value":0,"default":true}]},
      {"id":"l","type":"multi_select","values":[{"id":"p"},{"id":"q"}]},
      {"id":"m","type":"float","validations":{"min_value":0,"max_value":100}},
      {"id":"n","type":"count"},
      {"id":"o","type":"number","formula":"m + n + j"},
      {"id":"p","type":"switch","targets":[{"id":"a","type":"field","action":"disable"},{"id":"b","type":"field","action":"clear"}]},
      {"id":"q","type":"text","formula":"a b","targets":[{"id":"c","type":"field","action":"show","condition":"$m > 3 && present($a)"}]},
      {"id":"r","type":"text","validations":{"required":"$m > 50"}}]}]}]}
    """#
    do { return try Form(id: "flat", json: Array(text.utf8)) } catch { fatalError("flat form rejected: \(error)") }
}()

/// The submission target's definition (repeating sections: a submission read in place is
/// evaluated through its rows, `FormSubmission.values`).
let rowsForm = Form(loaded: fixedForm, options: EvaluationOptions())

/// `Form.submission(body:)` against `Form.submission(json:)` and the values' answers.
func checkReadInPlace(_ form: Form, _ bytes: [UInt8]) {
    let tree: Result<JSONValue, JSONParseError> = Result { () throws(JSONParseError) in try form.submission(json: bytes) }
    let sent: Result<FormSubmission?, JSONParseError> = Result { () throws(JSONParseError) in try form.submission(body: bytes) }
    let values: FormValues
    let submission: FormSubmission
    switch (tree, sent) {
    case (.failure(let a), .failure(let b)):
        if a != b { fatalError("read in place throws \(b), decoded \(a)") }
        return
    case (.success(.object(let o)), .success(let s?)):
        values = o
        submission = s
    case (.success(let v), .success(nil)):
        if case .object = v { fatalError("read in place refused an object") }
        return
    default:
        fatalError("read in place and decoded disagree: \(sent) against \(tree)")
    }
    if submission.values != values { fatalError("read in place gives other values: \(submission.values) against \(values)") }
    let keys = values.members.prefix(3).map(\.key)
    let changed = form.loaded.plan.unknownChangedID(keys) == nil ? keys : []
    let pairs: [(Result<FormAnswer, FormRequestError>, Result<FormAnswer, FormRequestError>)] = [
        (Result { () throws(FormRequestError) in try form.validateAnswer(submission) },
         Result { () throws(FormRequestError) in try form.validateAnswer(values) }),
        (Result { () throws(FormRequestError) in try form.evaluateAnswer(submission, changed: changed, previous: .initial) },
         Result { () throws(FormRequestError) in try form.evaluateAnswer(values, changed: changed, previous: .initial) }),
    ]
    for (a, b) in pairs {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            if x.json != y.json {
                fatalError("answers differ:\n\(String(decoding: x.json, as: UTF8.self))\n\(String(decoding: y.json, as: UTF8.self))")
            }
            if (try? JSONParser.parse(x.json, options: .submission)) == nil { fatalError("answer is not strict JSON") }
        case (.failure(let x), .failure(let y)):
            if x != y { fatalError("errors differ: \(x) against \(y)") }
        default:
            fatalError("one answer threw: \(a) against \(b)")
        }
    }
}

/// Operands for the expression target: slot `i` answers a number, a string that reads as a
/// number, a plain string or nothing, rotated by the input's first byte; aggregates yield a mix.
struct FuzzEnvironment: ExpressionEnvironment {
    let seed: UInt8

    static let twoAndAHalf = FormNumber.parse("2.5")!

    func operand(_ slot: Int) -> Operand {
        switch (slot + Int(seed)) % 5 {
        case 0: return .number(Self.twoAndAHalf)
        case 1: return .string("12")
        case 2: return .string("x")
        case 3: return .number(-1)
        default: return .missing
        }
    }

    func forEachAggregateValue(_ slot: Int, _ body: (Operand) -> Void) {
        for i in 0..<(slot % 4) { body(operand(i + slot)) }
    }
}
