/// A definition file that passed its checks: what the service serves and evaluates.
package final class LoadedForm: Sendable {
    package let id: String
    /// Strong ETag of `servedBytes`, quoted: `"3f2a…"`.
    package let version: String
    /// `{"form":…,"version":…`: how each of this version's answers starts (`AnswerWriter.head`).
    let answerHead: [UInt8]
    /// The file's bytes when strict JSON, else with each trailing comma removed (API.md).
    package let servedBytes: [UInt8]
    package let plan: FormPlan
    /// Warnings found at load (unknown keys, targets naming nothing).
    package let warnings: [Diagnostic]
    /// The definition resolved for each locale, when some text is given per language; empty
    /// otherwise (every locale then gets `servedBytes`).
    package let localizedDefinitions: [SupportedLocale: LocalizedDefinition]
    /// A PureForm definition in the Hyper object shape (`FormDefinition.hyperJSON`), with its own
    /// version; nil for a Hyper definition (its shape is the served one).
    package let hyperDefinition: LocalizedDefinition?

    init(
        id: String, servedBytes: [UInt8], plan: FormPlan, warnings: [Diagnostic], localizedRoot: JSONValue? = nil,
        hyperBytes: [UInt8]? = nil
    ) {
        self.id = id
        self.servedBytes = servedBytes
        let version = ETag.strong(of: servedBytes)
        self.version = version
        answerHead = AnswerWriter.head(form: id, version: version)
        self.plan = plan
        self.warnings = warnings
        var variants: [SupportedLocale: LocalizedDefinition] = [:]
        if let root = localizedRoot {
            for locale in SupportedLocale.allCases {
                variants[locale] = LocalizedDefinition(
                    bytes: JSONWriter.encode(LocalizedDefinition.resolve(root, for: locale)),
                    version: LocalizedDefinition.version(version, locale))
            }
        }
        self.localizedDefinitions = variants
        hyperDefinition = hyperBytes.map { LocalizedDefinition(bytes: $0, version: String(version.dropLast()) + "-hyper\"") }
    }

    /// Whether an `If-Match` tag names this version: the form's own ETag, or one of its
    /// per-language variants' (they pin the same definition).
    package func isVersion(_ tag: String) -> Bool {
        tag == version || hyperDefinition?.version == tag || localizedDefinitions.values.contains { $0.version == tag }
    }

    /// `title`, else the first group's title, else the id (API.md `GET /forms`).
    package var title: String { plan.definition.displayTitle ?? id }
}

/// Reads, checks and compiles definition files (SEMANTICS §1).
package enum FormLoader {
    package struct Result: Sendable {
        package let form: LoadedForm?
        /// Every problem, errors and warnings, in file order of discovery.
        package let diagnostics: [Diagnostic]
        package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Form ids: `[A-Za-z0-9][A-Za-z0-9_-]{0,127}`.
    package static func isValidID(_ id: String) -> Bool {
        let u = id.utf8
        guard let first = u.first, u.count <= 128, first.isASCIIAlphanumeric else { return false }
        return u.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    package static func load(id: String, bytes: [UInt8]) -> Result {
        let document: JSONDocument
        do {
            document = try JSONParser.parse(bytes, options: .definition)
        } catch {
            return Result(
                form: nil, diagnostics: [Diagnostic(.error, path: "", message: error.message, line: error.line, column: error.column)])
        }
        let locate: DefinitionReader.Locator = { path in
            (document.location(of: path) ?? document.keyLocation(of: path)).map { ($0.line, $0.column) }
        }
        var reader = DefinitionReader(locate: { path in
            (document.keyLocation(of: path) ?? document.location(of: path)).map { ($0.line, $0.column) }
        })
        let definition: FormDefinition?
        var readerDiagnostics: [Diagnostic]
        let isPureForm = PureFormReader.recognizes(document.root)
        if isPureForm, case .array(let items) = document.root {
            var pure = PureFormReader(locate: { path in
                (document.keyLocation(of: path) ?? document.location(of: path)).map { ($0.line, $0.column) }
            })
            definition = pure.read(items)
            readerDiagnostics = pure.diagnostics
        } else {
            definition = reader.read(document.root)
            readerDiagnostics = reader.diagnostics
        }
        guard let definition else { return Result(form: nil, diagnostics: readerDiagnostics) }
        var compiler = FormCompiler(
            definition: definition, locate: locate,
            locateInString: { path, offset in
                document.stringContentLocation(of: path, scalarOffset: offset).map { ($0.line, $0.column) }
            })
        let plan = compiler.compile()
        var lint = DefinitionLint(definition: definition, locate: locate)
        lint.run()
        // In file order, so an author reads them top to bottom.
        let diagnostics = (readerDiagnostics + compiler.diagnostics + lint.diagnostics).enumerated().sorted {
            ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
        }.map({ $0.element })
        guard let plan, !diagnostics.contains(where: { $0.severity == .error }) else {
            return Result(form: nil, diagnostics: diagnostics)
        }
        let served = document.trailingCommaOffsets.isEmpty ? bytes : document.strictBytes(from: bytes)
        let form = LoadedForm(
            id: id, servedBytes: served, plan: plan, warnings: diagnostics,
            localizedRoot: reader.hasLocalizedText ? document.root : nil,
            hyperBytes: isPureForm ? definition.hyperJSON() : nil)
        return Result(form: form, diagnostics: diagnostics)
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool { (self >= 48 && self <= 57) || (self >= 65 && self <= 90) || (self >= 97 && self <= 122) }
}
