/// The definition format's JSON Schema (2020-12), served at `/schemas/form-definition.json`
/// (API.md §3): the bytes of `schemas/form-definition.json` itself, embedded in the binary at
/// build time (`Documents/Resources/form-definition.json` links to it), so editors, `formd check`'s
/// users and the server read one file and the container needs no resource bundle.
enum DefinitionSchema {
    static let bytes: [UInt8] = PackageResources.form_definition_json
}
