/// A numeric formula flattened into a postfix program, for evaluating many formulas per request
/// without walking one tree of boxed nodes each: the programs of a whole form live in one
/// contiguous array (`FormPlan`), so evaluating them in order streams memory. On a 100,000-field
/// form the tree walk cost a cache miss per node.
///
/// Same semantics as `FormulaEvaluator` on the tree it comes from, step for step: operands are
/// evaluated in the same order, an operation without a value ends the program with no value
/// at the same point, and `inexact` is the same (tests compare both on random formulas).
enum FormulaProgram {
    enum Op: Sendable, Equatable {
        /// Push a constant.
        case number(FormNumber)
        /// Push the environment's scalar slot, as a number (missing and non-numeric: 0).
        case variable(Int32)
        /// Push the aggregate of the environment's aggregate slot; no value ends the program.
        case aggregate(AggregateFunction, Int32)
        case negate
        /// Pop b, pop a, push a op b.
        case arithmetic(ArithmeticOperator)
        /// Pop `count` values, push the least (or greatest), the first of equals.
        case fold(min: Bool, count: Int32)
        /// Pop `arguments` values (1 or 2), push `fn` of them.
        case call(NumericFunction, arguments: Int32)
        /// Push the number of options the multiple choice in the slot has chosen; for any other
        /// field 1 (`count($x)`'s list form, which in a formula is 1 whatever `x` holds).
        case choiceCount(Int32)
        /// A node the formula parser does not produce: no value.
        case fail
    }

    /// Appends the program of `formula` to `ops`; returns the stack depth it needs.
    static func compile(_ formula: Formula, into ops: inout [Op]) -> Int {
        var depth = 0
        var maxDepth = 0
        func push(_ op: Op, _ delta: Int) {
            ops.append(op)
            depth += delta
            maxDepth = max(maxDepth, depth)
        }
        func emit(_ node: ExpressionNode) {
            switch node {
            case .number(let d): push(.number(d), 1)
            case .variable(let i): push(.variable(Int32(formula.variableSlots[i])), 1)
            case .aggregate(let fn, let i): push(.aggregate(fn, Int32(formula.aggregateSlots[i])), 1)
            case .negate(let operand):
                emit(operand)
                push(.negate, 0)
            case .arithmetic(let first, let links):
                emit(first)
                for link in links {
                    emit(link.operand)
                    push(.arithmetic(link.op), -1)
                }
            case .function(_, let args) where args.isEmpty:
                push(.fail, 1)  // not produced by the parser (which the tree evaluator relies on)
            case .function(let fn, let args):
                if fn == .min || fn == .max {
                    for a in args { emit(a) }
                    push(.fold(min: fn == .min, count: Int32(args.count)), 1 - args.count)
                } else {
                    // The tree evaluator reads the first two arguments only.
                    let used = args.prefix(2)
                    for a in used { emit(a) }
                    push(.call(fn, arguments: Int32(used.count)), 1 - used.count)
                }
            case .choiceCount(let i, _):
                push(.choiceCount(Int32(formula.variableSlots[i])), 1)
            case .string, .compare, .all, .any, .not, .equals, .present, .missing, .contains:
                push(.fail, 1)
            }
        }
        emit(formula.root)
        return maxDepth
    }

    /// The value of the program `ops[range]` (compiled with stack depth `depth`), or nil for
    /// no value; inexact results rounded to 15 significant digits, as `Formula.evaluate`.
    static func evaluate<E: ExpressionEnvironment>(
        _ ops: UnsafeBufferPointer<Op>, _ range: Range<Int>, depth: Int, in environment: E
    ) -> FormNumber? {
        withUnsafeTemporaryAllocation(of: FormNumber.self, capacity: max(depth, 1)) { stack in
            var top = 0  // number of values on the stack
            var inexact = false
            for i in range {
                switch ops[i] {
                case .number(let d):
                    stack.initializeElement(at: top, to: d)
                    top += 1
                case .variable(let slot):
                    let v = FormulaEvaluator<E>.numeric(environment.operand(Int(slot))) ?? 0
                    stack.initializeElement(at: top, to: v)
                    top += 1
                case .aggregate(let fn, let slot):
                    guard let r = Arithmetic.aggregate(fn, environment, Int(slot), &inexact) else { return nil }
                    stack.initializeElement(at: top, to: r)
                    top += 1
                case .negate:
                    stack[top - 1] = DecimalMath.negate(stack[top - 1])
                case .arithmetic(let op):
                    guard let r = Arithmetic.apply(op, stack[top - 2], stack[top - 1], &inexact) else { return nil }
                    top -= 1
                    stack[top - 1] = r
                case .fold(let isMin, let count):
                    let first = top - Int(count)
                    var a = stack[first]
                    for k in (first + 1)..<top {
                        let v = stack[k]
                        if isMin ? v < a : v > a { a = v }
                    }
                    top = first + 1
                    stack[first] = a
                case .call(let fn, let arguments):
                    let first = top - Int(arguments)
                    let b: FormNumber? = arguments > 1 ? stack[first + 1] : nil
                    guard let r = Arithmetic.call(fn, stack[first], b, &inexact) else { return nil }
                    top = first + 1
                    stack[first] = r
                case .choiceCount(let slot):
                    stack.initializeElement(at: top, to: FormNumber(environment.choices(Int(slot))?.count ?? 1))
                    top += 1
                case .fail:
                    return nil
                }
            }
            // FormNumber is a trivial type: the stack needs no deinitialisation.
            guard top == 1 else { return nil }
            return inexact ? DecimalMath.roundedToSignificantDigits(stack[0]) : stack[0]
        }
    }
}
