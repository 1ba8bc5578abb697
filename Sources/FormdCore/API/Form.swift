/// A form definition, loaded and checked, ready to evaluate submissions in-process: the same
/// engine, with the same answers, as the formd server.
///
/// ```swift
/// let form = try Form(id: "signup", contentsOf: URL(fileURLWithPath: "Forms/signup.json"))
/// let state = try form.evaluate(["email": "ola@", "newsletter": true], changed: ["newsletter"], locale: "nb")
/// state.field("newsletter_topic")?.isVisible   // true
/// state.errors.first?.message                  // "E-post er ikke gyldig." (the form's nb text)
/// ```
///
/// A `Form` is immutable and `Sendable`: evaluate on any thread, as often as needed.
public struct Form: Sendable {
    let loaded: LoadedForm
    /// Limits and tables of the engine (`limits.*` and `validators.postal_codes` on the server).
    public var options: EvaluationOptions

    /// The form's id (the definition's file name without `.json`).
    public var id: String { loaded.id }
    /// The strong ETag of the definition's bytes, quoted: the `version` the server reports.
    public var version: String { loaded.version }
    /// The form's `title`, else its first group's, else its id.
    public var title: String { loaded.title }
    /// Problems that do not reject the definition (unknown keys, targets naming nothing, ...),
    /// as `formd check` prints them.
    public var warnings: [Diagnostic] { loaded.warnings }
    /// The definition bytes as the server serves them (strict JSON).
    public var definitionJSON: [UInt8] { loaded.servedBytes }
    /// `keep_versions`: how many earlier versions `formd publish` keeps of this form, when the
    /// definition says (nil: the command's `--keep`, else its default of 10).
    public var keepVersions: Int? { loaded.plan.definition.keepVersions }

    /// Loads a definition from its bytes. Throws ``FormDefinitionError`` listing every problem
    /// with line and column, exactly as `formd check` reports them.
    public init(id: String, json bytes: some Collection<UInt8>, options: EvaluationOptions = EvaluationOptions()) throws(FormDefinitionError) {
        let result = FormLoader.load(id: id, bytes: Array(bytes))
        guard let form = result.form else { throw FormDefinitionError(id: id, file: nil, diagnostics: result.diagnostics) }
        self.loaded = form
        self.options = options
    }

    init(loaded: LoadedForm, options: EvaluationOptions) {
        self.loaded = loaded
        self.options = options
    }

    /// The live state while a user edits: values (defaults, formulas, `update`/`clear` targets),
    /// every field's and section's visibility, the actions in force, the errors (without the
    /// `required` errors of fields not in `changed`) and what was dropped.
    ///
    /// - Parameters:
    ///   - values: the submission, keyed by field id (`items[1].price` for template instances), or
    ///     with repeating sections as rows (`"items": [{"price": 3}]`, answered as rows).
    ///   - changed: the fields (or dynamic sections) the user just changed; their value targets run.
    ///   - locale: a language tag for the messages (`en`, `nb`, `es`; `nb-NO` reads as `nb`);
    ///     nil, or a language formd has no messages in, uses `options.locale`.
    /// - Throws: ``FormRequestError/unknownChangedID(_:)`` when `changed` names no field or
    ///   dynamic section of the form; ``FormRequestError/badRows(_:)`` for rows formd cannot read.
    public func evaluate(_ values: FormValues, changed: [String] = [], locale: String? = nil) throws(FormRequestError) -> FormState {
        if let bad = loaded.plan.unknownChangedID(changed) { throw .unknownChangedID(bad) }
        let evaluation = try Evaluation.of(plan: loaded.plan, values: values, changed: changed, mode: .evaluate, options: options(for: locale))
        return FormState(evaluation, form: self, mode: .evaluate)
    }

    /// The verdict on a submission: ``FormState/isValid``, the normalised values and every error.
    ///
    /// - Throws: ``FormRequestError/badRows(_:)`` when a repeating section is sent as rows in a
    ///   shape formd cannot read (API reference §4.3). Flat submissions never throw.
    public func validate(_ values: FormValues, locale: String? = nil) throws(FormRequestError) -> FormState {
        let evaluation = try Evaluation.of(plan: loaded.plan, values: values, mode: .validate, options: options(for: locale))
        return FormState(evaluation, form: self, mode: .validate)
    }

    func options(for locale: String?) -> EvaluationOptions {
        options(for: locale.flatMap { SupportedLocale(tag: $0) })
    }
}

/// A definition that cannot be used: every problem, with line and column.
public struct FormDefinitionError: Error, Sendable, CustomStringConvertible {
    /// The id the definition was loaded as.
    public let id: String
    /// The file it was read from, if any.
    public let file: String?
    /// Errors and warnings in file order (at least one error).
    public let diagnostics: [Diagnostic]

    /// One line per problem: `FILE:LINE:COL: error: PATH: MESSAGE`.
    public var description: String {
        diagnostics.map { $0.formatted(file: file ?? "\(id).json") }.joined(separator: "\n")
    }
}

/// A request the form cannot answer.
public enum FormRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `changed` names an id that is neither a field nor a dynamic section of the form.
    case unknownChangedID(String)
    /// An evaluate `state` token that is not one of this form's version: damaged, of another
    /// form, or of an earlier version (start again without one).
    case badState(String)
    /// An HTML form post repeats a key that only a `switch` or a `multi_select` may repeat.
    case repeatedFormKey(String)
    /// A repeating section sent as rows (`{"items": [{...}, ...]}`) in a shape formd cannot read:
    /// not an array, a row that is not an object, the section named twice, or flat instance keys
    /// (`items[0].amount`) beside its rows (API reference §4.3).
    case badRows(String)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .unknownChangedID(let id): "changed names \"\(id)\", which is not a field or dynamic section of the form"
        case .badState(let why): why
        case .repeatedFormKey(let key): "the form post repeats the key \"\(key)\""
        case .badRows(let why): why
        }
    }
}
