/// Finds operands of a rule's or a conditional `required`'s condition that can never compare as
/// written (SEMANTICS §6): a date, time, e-mail or a select of text ids ordered or added as a
/// number, a numeric field compared with a text, a select compared with an id it does not have.
/// Such a condition is always false, so a rule would always fail and a `required` never apply:
/// `formd check` names the operand at its `file:line:col`.
struct ConditionTypeCheck {
    struct Problem {
        let message: String
        /// 0-based scalar offset in the condition's text.
        let offset: Int
    }

    let field: (VariableRef) -> Field?

    func check(_ c: CompiledCondition) -> [Problem] {
        var problems: [Problem] = []
        walk(c.condition.root, c, &problems)
        return problems
    }

    private func walk(_ node: ExpressionNode, _ c: CompiledCondition, _ out: inout [Problem]) {
        switch node {
        case .number, .string, .variable, .aggregate, .present, .missing:
            break
        case .negate(let a):
            numeric(a, c, &out, "is negated")
            walk(a, c, &out)
        case .arithmetic(let a, let links):
            numeric(a, c, &out, "is used in arithmetic")
            walk(a, c, &out)
            for l in links {
                numeric(l.operand, c, &out, "is used in arithmetic")
                walk(l.operand, c, &out)
            }
        case .compare(let op, let a, let b):
            switch op {
            case .less, .greater, .lessOrEqual, .greaterOrEqual:
                numeric(a, c, &out, "is ordered with '\(op.rawValue)'")
                numeric(b, c, &out, "is ordered with '\(op.rawValue)'")
            case .equal, .notEqual:
                equality(a, b, c, &out)
                equality(b, a, c, &out)
            }
            walk(a, c, &out)
            walk(b, c, &out)
        case .all(let list), .any(let list):
            for n in list { walk(n, c, &out) }
        case .not(let a):
            walk(a, c, &out)
        case .function(_, let args):
            for a in args {
                numeric(a, c, &out, "is used as a number")
                walk(a, c, &out)
            }
        case .equals(let args):
            for (i, a) in args.enumerated() {
                for b in args[(i + 1)...] {
                    equality(a, b, c, &out)
                    equality(b, a, c, &out)
                }
                walk(a, c, &out)
            }
        case .choiceCount(_, let fallback):
            walk(fallback, c, &out)
        case .contains(_, let v):
            walk(v, c, &out)
        }
    }

    /// A variable's field and its name as written, for `.variable(i)`.
    private func variable(_ node: ExpressionNode, _ c: CompiledCondition) -> (Field, String)? {
        guard case .variable(let i) = node, c.condition.variables.indices.contains(i), c.variables.indices.contains(i),
            let f = field(c.variables[i])
        else { return nil }
        return (f, c.condition.variables[i])
    }

    /// Whether a field's values never read as a number in a condition.
    private func neverNumeric(_ f: Field) -> String? {
        switch f.kind {
        case .date, .dateTime, .time: return "a \(f.kind.expectedName) field (conditions do not order dates; use compare_to)"
        case .email: return "an email field"
        case .button, .spacer: return "a \(f.kind.expectedName), which holds no value"
        case .select, .segment:
            let ids = f.options.compactMap({ $0.id })
            guard !ids.isEmpty, ids.allSatisfy({ id in
                if case .string(let s) = id { return FormNumber(literal: s) == nil }
                return false
            }) else { return nil }
            return "a \(f.kind.expectedName) whose option ids are text"
        default: return nil
        }
    }

    private func numeric(_ node: ExpressionNode, _ c: CompiledCondition, _ out: inout [Problem], _ how: String) {
        if case .string(let s) = node {
            out.append(Problem(message: "the text \"\(s)\" \(how), but it is not a number", offset: offset(of: "\"\(s)\"", c)))
        } else if let (f, name) = variable(node, c), let why = neverNumeric(f) {
            out.append(Problem(message: "\"\(name)\" \(how), but it is \(why)", offset: offset(of: name, c)))
        }
    }

    /// `a == b` where `a` is a field whose values never equal the literal `b`.
    private func equality(_ a: ExpressionNode, _ b: ExpressionNode, _ c: CompiledCondition, _ out: inout [Problem]) {
        guard let (f, name) = variable(a, c) else { return }
        switch (f.kind, b) {
        case (.count, .string(let s)), (.float, .string(let s)), (.switch, .string(let s)), (.number, .string(let s)):
            out.append(
                Problem(
                    message: "\"\(name)\" is a \(f.kind.expectedName) field and is never equal to the text \"\(s)\"",
                    offset: offset(of: name, c)))
        case (.select, .string), (.segment, .string), (.select, .number), (.segment, .number):
            let ids = f.options.compactMap({ $0.id })
            guard !ids.isEmpty, !ids.contains(where: { Self.matches(b, $0) }) else { return }
            let literal: String
            switch b {
            case .string(let s): literal = "\"\(s)\""
            case .number(let n): literal = n.canonicalText
            default: literal = "?"
            }
            out.append(
                Problem(message: "\"\(name)\" has no option \(literal), so this comparison never holds", offset: offset(of: name, c)))
        default: break
        }
    }

    /// Whether a literal can equal an option id in a condition (SEMANTICS §5.1): numbers and
    /// numeric strings numerically, other strings as text.
    static func matches(_ literal: ExpressionNode, _ id: JSONValue) -> Bool {
        let idNumber: FormNumber?
        switch id {
        case .number(let n): idNumber = FormNumber(literal: n.text)
        case .bool(let b): idNumber = b ? 1 : 0
        case .string(let s): idNumber = FormNumber(literal: s)
        default: idNumber = nil
        }
        switch literal {
        case .number(let n): return idNumber.map { $0 == n } ?? false
        case .string(let s): return id == .string(s)
        default: return true
        }
    }

    private func offset(of name: String, _ c: CompiledCondition) -> Int {
        let source = c.condition.source
        guard let r = source.firstRange(ofText: name) else { return 0 }
        return source.unicodeScalars.distance(from: source.unicodeScalars.startIndex, to: r.lowerBound)
    }
}
