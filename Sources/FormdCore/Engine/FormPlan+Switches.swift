/// What an HTML form post needs to know of the form: which keys are checkboxes.
extension FormPlan {
    /// The ids of the `switch` fields outside repeating sections: a browser leaves an unchecked
    /// checkbox out of its post, so these are false when a post does not name them.
    public var staticSwitchIDs: [String] { fields.filter { $0.kind == .switch }.map(\.id) }

    /// Whether a submitted key names a `switch` field: a static one, or an instance's
    /// (`items[2].approved`).
    public func namesSwitch(_ key: String) -> Bool {
        if let i = fieldIndex[key] { return fields[i].kind == .switch }
        guard let instance = InstanceKey(key) else { return false }
        for t in templates {
            if let a = t.attrIndex[instance.pattern] { return t.fields[a].kind == .switch }
        }
        return false
    }
}
