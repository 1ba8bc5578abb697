import FormdCore
import Foundation

/// Submitting with the version the app rendered (API.md §3.1): formd answers with that version's
/// verdict while it holds it; when it does not (412 `version-not-held`: the form changed and the
/// version is no longer kept, or a replica not updated yet), the client fetches the current
/// definition, keeps the values, evaluates again, and says what changed so the app can show it.
///
/// ```swift
/// let form = try await formd.form("signup")          // draw it
/// switch try await formd.validate(form, values) {
/// case .answered(let result): show(result.state)
/// case .formChanged(let newForm, let result, let change):
///     redraw(newForm, keeping: values); highlight(change.added + change.changed); show(result.state)
/// }
/// ```
extension FormdClient {
    /// What changed between the version an app rendered and the one the server has now.
    public struct FormChange: Sendable, Equatable {
        /// The version the app rendered.
        public let from: String
        /// The version the server has now.
        public let to: String
        /// Field ids the new version has and the old did not.
        public let added: [String]
        /// Field ids the old version had and the new does not.
        public let removed: [String]
        /// Field ids whose definition differs.
        public let changed: [String]

        /// Compares two versions of a form field by field.
        public init(from old: Form, to new: Form) {
            from = old.version
            to = new.version
            let before = Dictionary(old.fieldSummaries.map { ($0.id, $0.definition) }, uniquingKeysWith: { a, _ in a })
            let after = new.fieldSummaries
            let afterIDs = Set(after.map(\.id))
            added = after.filter { before[$0.id] == nil }.map(\.id)
            changed = after.filter { before[$0.id] != nil && before[$0.id] != $0.definition }.map(\.id)
            removed = old.fieldSummaries.map(\.id).filter { !afterIDs.contains($0) }
        }
    }

    /// An answer for the rendered version, or the current version's after the form changed.
    public enum VersionedResult: Sendable {
        /// formd answered for the version the app rendered (current or kept).
        case answered(Result)
        /// The rendered version is not held any more: the new definition, its answer for the same
        /// values, and what changed.
        case formChanged(Form, Result, FormChange)
    }

    /// `validate` pinned to `rendered` (its version sent as `If-Match`); on a 412, see
    /// ``VersionedResult/formChanged(_:_:_:)``. Offline: validated on the device with `rendered`.
    public func validate(_ rendered: Form, _ values: FormValues) async throws(FormdClientError) -> VersionedResult {
        do throws(FormdClientError) {
            return .answered(try await validate(rendered.id, values, version: rendered.version))
        } catch {
            guard case .preconditionFailed = error else { throw error }
            return try await refetch(rendered) { form throws(FormdClientError) in try await self.validate(form.id, values, version: form.version) }
        }
    }

    /// `evaluate` pinned to `rendered`; on a 412 the new version is evaluated with the same values
    /// (every field counted as changed, so value targets of the new form run).
    public func evaluate(_ rendered: Form, _ values: FormValues, changed: [String] = []) async throws(FormdClientError) -> VersionedResult {
        do throws(FormdClientError) {
            return .answered(try await evaluate(rendered.id, values, changed: changed, version: rendered.version))
        } catch {
            guard case .preconditionFailed = error else { throw error }
            return try await refetch(rendered) { form throws(FormdClientError) in
                try await self.evaluate(form.id, values, changed: changed.filter { id in form.fieldSummaries.contains { $0.id == id } }, version: form.version)
            }
        }
    }

    /// Fetches the current definition and answers with it, pinned to it. During a rollout the
    /// fetch may reach a replica that is behind, and the answer another that is ahead: that is a
    /// ``FormdClientError/preconditionFailed(_:)`` again, to retry shortly.
    func refetch(_ rendered: Form, _ answer: (Form) async throws(FormdClientError) -> Result) async throws(FormdClientError) -> VersionedResult {
        let current = try await form(rendered.id)
        let result = try await answer(current)
        return .formChanged(current, result, FormChange(from: rendered, to: current))
    }
}
