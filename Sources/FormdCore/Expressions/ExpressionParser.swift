/// Recursive-descent parser shared by numeric formulas and conditions.
///
/// Grammar, lowest precedence first (conditions; formulas start at `additive`):
///
///     or         := and ('||' and)*
///     and        := comparison ('&&' comparison)*
///     comparison := additive (('==' | '!=' | '<' | '>' | '<=' | '>=') additive)?
///     additive   := term (('+' | '-') term)*
///     term       := unary (('*' | '/' | '%') unary)*
///     unary      := ('-' | '+' | '!') unary | power
///     power      := primary ('**' unary)?
///     primary    := number | string | $var | name | name '(' args ')' | '(' or ')'
///
/// Decisions (the original library's condition parser differs in details; SEMANTICS §5.1): all comparisons share one level and do not chain
/// (`1 < 2 < 3` is an error, as is `a == b == c`); `%` binds like `*` and `/` (DDMathParser
/// binds it tighter, which only matters for `a * b % c`); `!` is a unary operator like `-`, so
/// `!$a == 1` is `(!$a) == 1` as in the original, while `!$a + 1` is `(!$a) + 1`.
/// `**` binds tighter than unary minus and to the right, as in the original's parser: `-2**2` is
/// -4, `2**3**2` is 2**9. Formulas allow variables with or without `$`; conditions require `$`
/// (a bare name that is not a function call or a constant such as `pi` is an error; in formulas
/// a bare name is a field, so constants are written `pi()` there). Function names are
/// case-insensitive. The functions, their aliases and what desugars to what: `aliases`,
/// `desugared`, `constants` and `makeCall` below.
package struct ExpressionParser {
    package enum Dialect: Sendable { case formula, condition }

    /// Maximum nesting of parentheses, unary operators and calls.
    static let maxNesting = 64

    let dialect: Dialect
    private var tokens: [ExpressionToken]
    private var position = 0
    private var nesting = 0
    private(set) var variables: [String] = []
    private var variableIndex: [String: Int] = [:]
    private(set) var aggregates: [AggregateReference] = []
    private var aggregateIndex: [AggregateReference: Int] = [:]

    init(_ source: String, dialect: Dialect) throws(ExpressionError) {
        self.dialect = dialect
        self.tokens = try ExpressionLexer.tokenize(source, allowStrings: dialect == .condition)
    }

    mutating func parse() throws(ExpressionError) -> ExpressionNode {
        if case .end = current.kind { throw ExpressionError("empty expression", column: 1) }
        let node = dialect == .condition ? try parseOr() : try parseAdditive()
        if case .end = current.kind { return node }
        throw unexpected(expecting: "an operator")
    }

    // MARK: - Tokens

    private var current: ExpressionToken { tokens[position] }
    private var next: ExpressionToken { tokens[Swift.min(position + 1, tokens.count - 1)] }
    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isOp(_ op: String) -> Bool {
        if case .op(let o) = current.kind { return o == op }
        return false
    }

    private func describe(_ token: ExpressionToken) -> String {
        switch token.kind {
        case .number(let d): return "'\(d.canonicalText)'"
        case .string: return "a string"
        case .name(let n, let dollar): return "'\(dollar ? "$" : "")\(n)'"
        case .op(let o): return "'\(o)'"
        case .leftParen: return "'('"
        case .rightParen: return "')'"
        case .comma: return "','"
        case .end: return "end of expression"
        }
    }

    private func unexpected(expecting what: String) -> ExpressionError {
        if dialect == .formula, case .op(let o) = current.kind,
           ["==", "!=", "<", ">", "<=", ">=", "&&", "||", "!"].contains(o) {
            return ExpressionError("'\(o)' is only allowed in conditions, not in a numeric formula",
                                   column: current.column)
        }
        return ExpressionError("expected \(what), found \(describe(current))", column: current.column)
    }

    private mutating func enter() throws(ExpressionError) {
        nesting += 1
        if nesting > Self.maxNesting {
            throw ExpressionError("expression nested too deeply (more than \(Self.maxNesting) levels)",
                                  column: current.column)
        }
    }

    // MARK: - Levels

    private mutating func parseOr() throws(ExpressionError) -> ExpressionNode {
        var items = [try parseAnd()]
        while isOp("||") { advance(); items.append(try parseAnd()) }
        return items.count == 1 ? items[0] : .any(items)
    }

    private mutating func parseAnd() throws(ExpressionError) -> ExpressionNode {
        var items = [try parseComparison()]
        while isOp("&&") { advance(); items.append(try parseComparison()) }
        return items.count == 1 ? items[0] : .all(items)
    }

    private mutating func comparisonOperator() -> ComparisonOperator? {
        if case .op(let o) = current.kind { return ComparisonOperator(rawValue: o) }
        return nil
    }

    private mutating func parseComparison() throws(ExpressionError) -> ExpressionNode {
        let lhs = try parseAdditive()
        guard let op = comparisonOperator() else { return lhs }
        advance()
        let rhs = try parseAdditive()
        if comparisonOperator() != nil {
            throw ExpressionError("comparisons cannot be chained; use parentheses or &&",
                                  column: current.column)
        }
        return .compare(op, lhs, rhs)
    }

    private mutating func parseAdditive() throws(ExpressionError) -> ExpressionNode {
        let first = try parseTerm()
        var links: [ArithmeticLink] = []
        while true {
            let op: ArithmeticOperator
            if isOp("+") { op = .add } else if isOp("-") { op = .subtract } else { break }
            advance()
            links.append(ArithmeticLink(op: op, operand: try parseTerm()))
        }
        return links.isEmpty ? first : flatten(first, links)
    }

    private mutating func parseTerm() throws(ExpressionError) -> ExpressionNode {
        let first = try parseUnary()
        var links: [ArithmeticLink] = []
        while true {
            let op: ArithmeticOperator
            if isOp("*") { op = .multiply } else if isOp("/") { op = .divide }
            else if isOp("%") { op = .modulo } else { break }
            advance()
            links.append(ArithmeticLink(op: op, operand: try parseUnary()))
        }
        return links.isEmpty ? first : flatten(first, links)
    }

    /// Keeps chains flat.
    private func flatten(_ first: ExpressionNode, _ links: [ArithmeticLink]) -> ExpressionNode {
        .arithmetic(first, links)
    }

    private mutating func parseUnary() throws(ExpressionError) -> ExpressionNode {
        if isOp("-") || isOp("+") || (isOp("!") && dialect == .condition) {
            let negate = isOp("-"), not = isOp("!")
            try enter()
            advance()
            let operand = try parseUnary()
            nesting -= 1
            if not { return .not(operand) }
            if negate {
                if case .number(let d) = operand { return .number(DecimalMath.negate(d)) }
                return .negate(operand)
            }
            return operand
        }
        return try parsePower()
    }

    private mutating func parsePower() throws(ExpressionError) -> ExpressionNode {
        let base = try parsePrimary()
        guard isOp("**") else { return base }
        try enter()
        advance()
        let exponent = try parseUnary()
        nesting -= 1
        return .function(.pow, [base, exponent])
    }

    private mutating func parsePrimary() throws(ExpressionError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .number(let d):
            advance()
            return .number(d)
        case .string(let s):
            advance()
            if let d = FormNumber.parse(s) { return .number(d) }
            return .string(s)
        case .leftParen:
            try enter()
            advance()
            let inner = dialect == .condition ? try parseOr() : try parseAdditive()
            guard case .rightParen = current.kind else {
                throw unexpected(expecting: "')' to close the '(' at column \(token.column)")
            }
            advance()
            nesting -= 1
            return inner
        case .name(let name, let dollar):
            if !dollar, case .leftParen = next.kind {
                return try parseCall(name, column: token.column)
            }
            if dialect == .condition && !dollar, let constant = Self.constants[Self.aliases[name.lowercased()] ?? name.lowercased()] {
                advance()
                return .number(constant)
            }
            if dialect == .condition && !dollar {
                throw ExpressionError("unknown name '\(name)': write field ids as $\(name), "
                                      + "functions as \(name)(...)", column: token.column)
            }
            if name.containsText("[*]") {
                throw ExpressionError("'\(name)' can only be the argument of sum, count, avg, min or max",
                                      column: token.column)
            }
            advance()
            return .variable(intern(name))
        default:
            throw unexpected(expecting: "a value")
        }
    }

    private mutating func intern(_ name: String) -> Int {
        if let i = variableIndex[name] { return i }
        variables.append(name)
        variableIndex[name] = variables.count - 1
        return variables.count - 1
    }

    // MARK: - Calls

    private enum Argument {
        case expression(ExpressionNode)
        case aggregate(AggregateReference)
    }

    private mutating func parseCall(_ name: String, column: Int) throws(ExpressionError) -> ExpressionNode {
        let lower = Self.aliases[name.lowercased()] ?? name.lowercased()
        let aggregateFunction = AggregateFunction(rawValue: lower)
        let function = NumericFunction(rawValue: lower)
        let conditionOnly = Self.conditionFunctions.contains(lower)
        if aggregateFunction == nil && function == nil && !conditionOnly && !Self.desugared.contains(lower)
            && Self.constants[lower] == nil
        {
            throw ExpressionError("unknown function '\(name)'", column: column)
        }
        if conditionOnly && dialect == .formula {
            throw ExpressionError("'\(name)' is only available in conditions", column: column)
        }
        try enter()
        advance()   // name
        advance()   // (
        var args: [Argument] = []
        if case .rightParen = current.kind {
            advance()
        } else {
            while true {
                args.append(try parseArgument())
                if case .comma = current.kind { advance(); continue }
                if case .rightParen = current.kind { advance(); break }
                throw unexpected(expecting: "',' or ')' in the arguments of '\(name)'")
            }
        }
        nesting -= 1
        return try makeCall(lower, name: name, args, column: column)
    }

    private mutating func parseArgument() throws(ExpressionError) -> Argument {
        if case .name(let n, let dollar) = current.kind, n.containsText("[*]") {
            switch next.kind {
            case .comma, .rightParen:
                let column = current.column
                if dialect == .condition && !dollar {
                    throw ExpressionError("write the aggregated field as $\(n)", column: column)
                }
                advance()
                return .aggregate(try aggregateReference(n, column: column))
            default: break
            }
        }
        return .expression(dialect == .condition ? try parseOr() : try parseAdditive())
    }

    private func aggregateReference(_ name: String, column: Int) throws(ExpressionError) -> AggregateReference {
        let parts = name.components(separatedByText: "[*]")
        guard parts.count == 2, !parts[0].isEmpty, parts[1].hasPrefix("."), parts[1].count > 1 else {
            throw ExpressionError("an aggregated field is written T[*].attr, not '\(name)'", column: column)
        }
        return AggregateReference(template: parts[0], attribute: String(parts[1].dropFirst()))
    }

    /// Other names of functions, as the original's parser knew them. `trunc` is its alias of
    /// `floor` (so `trunc(-1.5)` is -2 there and here).
    static let aliases: [String: String] = [
        "average": "avg", "mean": "avg", "modulo": "mod", "trunc": "floor", "l_and": "and", "l_or": "or", "l_not": "not",
        "π": "pi", "tau_2": "pi", "τ": "tau", "ϕ": "phi",
    ]
    /// Functions that become other nodes (`mod(a, b)` is `a % b`).
    static let desugared: Set<String> = [
        "mod", "add", "subtract", "multiply", "divide", "negate", "percent", "and", "or", "not",
        "l_eq", "l_neq", "l_lt", "l_gt", "l_ltoe", "l_gtoe",
    ]
    /// Only conditions have booleans and the field tests.
    static let conditionFunctions: Set<String> = [
        "equals", "present", "missing", "contains", "and", "or", "not", "l_eq", "l_neq", "l_lt", "l_gt", "l_ltoe",
        "l_gtoe",
    ]
    /// Constants, to 15 significant digits (what every inexact result is rounded to).
    static let constants: [String: FormNumber] = [
        "pi": FormNumber.parse("3.14159265358979")!, "pi_2": FormNumber.parse("1.57079632679490")!,
        "pi_4": FormNumber.parse("0.785398163397448")!, "tau": FormNumber.parse("6.28318530717959")!,
        "e": FormNumber.parse("2.71828182845905")!, "phi": FormNumber.parse("1.61803398874989")!,
        "sqrt2": FormNumber.parse("1.41421356237310")!, "ln2": FormNumber.parse("0.693147180559945")!,
        "ln10": FormNumber.parse("2.30258509299405")!, "log2e": FormNumber.parse("1.44269504088896")!,
        "log10e": FormNumber.parse("0.434294481903252")!,
    ]

    private mutating func makeCall(_ lower: String, name: String, _ args: [Argument],
                                   column: Int) throws(ExpressionError) -> ExpressionNode {
        let aggregateArgs = args.compactMap { a -> AggregateReference? in
            if case .aggregate(let r) = a { return r } else { return nil }
        }
        let scalars = args.compactMap { a -> ExpressionNode? in
            if case .expression(let e) = a { return e } else { return nil }
        }
        func arity(_ range: ClosedRange<Int>, _ what: String) throws(ExpressionError) {
            guard aggregateArgs.isEmpty else {
                throw ExpressionError("'\(name)' does not take T[*].attr arguments", column: column)
            }
            guard range.contains(scalars.count) else {
                throw ExpressionError("'\(name)' takes \(what), got \(scalars.count)", column: column)
            }
        }
        if let constant = Self.constants[lower] {
            try arity(0...0, "no arguments")
            return .number(constant)
        }
        if let fn = AggregateFunction(rawValue: lower) {
            if aggregateArgs.count == 1 && args.count == 1 {
                let ref = aggregateArgs[0]
                let index: Int
                if let i = aggregateIndex[ref] { index = i } else {
                    aggregates.append(ref)
                    index = aggregates.count - 1
                    aggregateIndex[ref] = index
                }
                return .aggregate(fn, index)
            }
            // The list forms: sum(a, b, ...), avg(a, b, ...), count(a, b, ...).
            if fn != .min && fn != .max {
                guard aggregateArgs.isEmpty, !scalars.isEmpty else {
                    throw ExpressionError(
                        "'\(name)' takes one argument of the form T[*].attr, or one or more numbers", column: column)
                }
                let total = ExpressionNode.arithmetic(scalars[0], scalars.dropFirst().map { ArithmeticLink(op: .add, operand: $0) })
                switch fn {
                case .sum: return scalars.count == 1 ? scalars[0] : total
                case .avg: return .arithmetic(total, [ArithmeticLink(op: .divide, operand: .number(FormNumber(scalars.count)))])
                default:
                    // The number of arguments, as in the original; each must still have a value.
                    let listForm = ExpressionNode.arithmetic(.number(FormNumber(scalars.count)), scalars.map {
                        ArithmeticLink(op: .add, operand: .arithmetic($0, [ArithmeticLink(op: .multiply, operand: .number(0))]))
                    })
                    // `count($x)` of a multiple choice is its number of chosen options (SEMANTICS §4).
                    if scalars.count == 1, case .variable(let v) = scalars[0] { return .choiceCount(v, fallback: listForm) }
                    return listForm
                }
            }
        }
        switch lower {
        case "mod", "add", "subtract", "multiply", "divide":
            try arity(2...2, "2 arguments")
            let op: ArithmeticOperator = ["mod": .modulo, "add": .add, "subtract": .subtract, "multiply": .multiply][lower] ?? .divide
            return .arithmetic(scalars[0], [ArithmeticLink(op: op, operand: scalars[1])])
        case "negate":
            try arity(1...1, "1 argument")
            return .negate(scalars[0])
        case "percent":
            try arity(1...1, "1 argument")
            return .arithmetic(scalars[0], [ArithmeticLink(op: .divide, operand: .number(100))])
        case "and", "or":
            try arity(1...Int.max, "at least 1 argument")
            return lower == "and" ? .all(scalars) : .any(scalars)
        case "not":
            try arity(1...1, "1 argument")
            return .not(scalars[0])
        case "l_eq", "l_neq", "l_lt", "l_gt", "l_ltoe", "l_gtoe":
            try arity(2...2, "2 arguments")
            let op: ComparisonOperator =
                ["l_eq": .equal, "l_neq": .notEqual, "l_lt": .less, "l_gt": .greater, "l_ltoe": .lessOrEqual][lower] ?? .greaterOrEqual
            return .compare(op, scalars[0], scalars[1])
        case "log", "ln", "log2", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "dtor", "rtod":
            try arity(1...1, "1 argument")
            return .function(NumericFunction(rawValue: lower)!, scalars)
        case "nthroot":
            try arity(2...2, "2 arguments")
            return .function(.nthroot, scalars)
        case "min", "max":
            try arity(1...Int.max, "one T[*].attr argument or at least one number")
            return .function(lower == "min" ? .min : .max, scalars)
        case "abs", "floor", "ceil", "sqrt":
            try arity(1...1, "1 argument")
            return .function(NumericFunction(rawValue: lower)!, scalars)
        case "round":
            try arity(1...2, "1 or 2 arguments")
            return .function(.round, scalars)
        case "pow":
            try arity(2...2, "2 arguments")
            return .function(.pow, scalars)
        case "equals":
            try arity(2...Int.max, "at least 2 arguments")
            return .equals(scalars)
        case "contains":
            try arity(2...2, "2 arguments")
            guard case .variable(let v) = scalars[0] else {
                throw ExpressionError("'\(name)' takes a field, written $id, then a value", column: column)
            }
            return .contains(v, scalars[1])
        default: // present, missing
            try arity(1...1, "1 argument")
            guard case .variable(let v) = scalars[0] else {
                throw ExpressionError("'\(name)' takes a field, written $id", column: column)
            }
            return lower == "present" ? .present(v) : .missing(v)
        }
    }
}
