/// How large a definition may be (SEMANTICS §11): far above real forms (the bundled ones have
/// under 60 fields), low enough that loading and evaluating stay in milliseconds to a second.
/// The file's size is bounded first, by the service (`forms.max_file_bytes`).
package enum DefinitionLimits {
    package static let maxFields = 100_000
    package static let maxOptionsPerField = 50_000
    package static let maxTargets = 200_000
    /// Expression rules per field (`validations.rules`, and `warnings.rules` apart); every rule
    /// also counts toward `maxTargets`.
    package static let maxRulesPerField = 1_000
}
