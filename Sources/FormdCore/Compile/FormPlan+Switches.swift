/// What an HTML form post needs to know of the form: which keys are checkboxes.
extension FormPlan {
    /// The ids of the `switch` fields outside repeating sections: a browser leaves an unchecked
    /// checkbox out of its post, so these are false when a post does not name them.
    package var staticSwitchIDs: [String] { fields.filter { $0.kind == .switch }.map({ $0.id }) }

    /// Whether a submitted key names a `switch` field: a static one, or an instance's
    /// (`items[2].approved`).
    package func namesSwitch(_ key: String) -> Bool { kind(ofKey: key) == .switch }

    /// The kind of the field a submitted key names: a static one, or an instance's
    /// (`items[2].approved`); nil when it names no field.
    package func kind(ofKey key: String) -> FieldKind? {
        if let i = fieldIndex[key] { return fields[i].kind }
        guard let instance = InstanceKey(key) else { return nil }
        for t in templates {
            if let a = t.attrIndex[instance.pattern] { return t.fields[a].kind }
        }
        return nil
    }

    /// Ids of the multiple-choice fields outside repeating sections.
    package var staticMultipleChoiceIDs: [String] { fields.filter { $0.kind == .multiSelect }.map({ $0.id }) }
}
