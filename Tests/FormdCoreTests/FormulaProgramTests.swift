import Testing
@testable import FormdCore

/// `FormulaProgram` (what the engine runs) against `FormulaEvaluator` on the tree it is
/// compiled from (the reference), on random formulas over every operation, with random values.
@Suite struct FormulaProgramTests {
    struct Random {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func pick<T>(_ xs: [T]) -> T { xs[next(xs.count)] }
    }

    static let definition = #"""
        {"groups": [{"id": "g", "sections": [
          {"id": "s", "fields": [
            {"id": "a", "type": "float"}, {"id": "b", "type": "float"}, {"id": "c", "type": "count"},
            {"id": "t", "type": "text"},
            {"id": "k", "type": "select", "values": [{"id": "x", "value": 2.5}, {"id": "y", "value": -3}, {"id": "z"}]},
            {"id": "f", "type": "float", "formula": "FORMULA"}]},
          {"id": "items", "type": "dynamic", "fields": null}]}],
         "templates": {"sections": [{"id": "items", "fields": [{"id": "items[:index].v", "type": "float"}]}]}}
        """#

    static func formula(_ r: inout Random, depth: Int) -> String {
        if depth == 0 || r.next(4) == 0 {
            return r.pick([
                "a", "b", "c", "t", "k", "0", "1", "2.5", "-7", "0.1", "3", "1000000", "99999999999999999999",
                "0.000000001", "sum(items[*].v)", "count(items[*].v)", "avg(items[*].v)", "min(items[*].v)",
                "max(items[*].v)",
            ])
        }
        let d = depth - 1
        switch r.next(10) {
        case 7: return formula(&r, depth: d) + " ** " + r.pick(["2", "-1", "0.5", "3", "a"])
        case 8:
            let fn = r.pick(["log", "ln", "exp", "sin", "trunc", "percent", "negate"])
            return fn + "(" + formula(&r, depth: d) + ")"
        case 9:
            let fn = r.pick(["sum", "avg", "count", "mod", "nthroot", "add", "divide"])
            let n = ["mod", "nthroot", "add", "divide"].contains(fn) ? 2 : 1 + r.next(3)
            return fn + "(" + (0..<n).map { _ in formula(&r, depth: d) }.joined(separator: ", ") + ")"
        case 0: return "-(" + formula(&r, depth: d) + ")"
        case 1, 2:
            var s = formula(&r, depth: d)
            for _ in 0...r.next(3) { s += " " + r.pick(["+", "-", "*", "/", "%"]) + " " + formula(&r, depth: d) }
            return s
        case 3: return "(" + formula(&r, depth: d) + ")"
        case 4:
            let fn = r.pick(["min", "max"])
            return fn + "(" + (0...r.next(3)).map { _ in formula(&r, depth: d) }.joined(separator: ", ") + ")"
        case 5:
            let fn = r.pick(["abs", "floor", "ceil", "sqrt", "round"])
            return fn + "(" + formula(&r, depth: d) + ")"
        default:
            let fn = r.pick(["round", "pow"])
            return fn + "(" + formula(&r, depth: d) + ", " + formula(&r, depth: d) + ")"
        }
    }

    static func values(_ r: inout Random) -> String {
        func number() -> String { r.pick(["0", "1", "-2", "2.5", "1e20", "0.3333", "7", "-0.5", "123456789.123456789"]) }
        var parts: [String] = []
        if r.next(5) > 0 { parts.append("\"a\": \(number())") }
        if r.next(5) > 0 { parts.append("\"b\": \(number())") }
        if r.next(5) > 0 { parts.append("\"c\": \(r.pick(["0", "3", "-4", "10"]))") }
        if r.next(3) > 0 { parts.append("\"t\": \(r.pick(["\"12.5\"", "\"abc\"", "\"-3\""]))") }
        if r.next(4) > 0 { parts.append("\"k\": \(r.pick(["\"x\"", "\"y\"", "\"z\""]))") }
        for i in 0..<r.next(4) where r.next(3) > 0 { parts.append("\"items[\(i)].v\": \(number())") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    @Test func programAgreesWithTheTreeOnRandomFormulas() throws {
        var r = Random(state: 2026)
        var compared = 0
        var withValue = 0
        for _ in 0..<1500 {
            let f = Self.formula(&r, depth: 4)
            let loaded = FormLoader.load(id: "p", bytes: Array(Self.definition.replacingOccurrences(of: "FORMULA", with: f).utf8))
            guard let form = loaded.form else { continue }  // e.g. a formula the parser rejects
            for _ in 0..<3 {
                var e = try Engine.evaluation(form, Self.values(&r))
                let s = e.slotMap.staticSlot[try #require(form.plan.fieldIndex["f"])]
                let spec = form.plan.spec(e.slotMap.fields[s].spec)
                let compiled = try #require(spec.formula)
                var tooLong = false
                let tree = withUnsafePointer(to: &e) { compiled.evaluate(in: $0, context: s, kind: spec.kind, tooLong: &tooLong) }
                let program = e.formulaValue(slot: s)
                #expect(tree == program, "\(f): tree \(String(describing: tree)), program \(String(describing: program))")
                compared += 1
                if tree != nil { withValue += 1 }
            }
        }
        // The generator must exercise both outcomes broadly, or the comparison proves little.
        #expect(compared > 3000)
        #expect(withValue > compared / 3 && withValue < compared)
    }

    @Test func programShapes() {
        // `a + b * 2` over slots a = 0, b = 1: postfix, one multiply then one add.
        var ops: [FormulaProgram.Op] = []
        let formula = try! Formula(parsing: "a + b * 2")
        let depth = FormulaProgram.compile(formula, into: &ops)
        #expect(ops == [.variable(0), .variable(1), .number(2), .arithmetic(.multiply), .arithmetic(.add)])
        #expect(depth == 3)
    }
}
