import Foundation

/// Small definitions the tests write into temporary forms folders.
enum Fixtures {
    /// Two value fields (`first_name` required, min length 2; `email`) and a button (not counted).
    static let contact = """
        [
          {
            "id": "contact",
            "title": "Contact",
            "sections": [
              {
                "id": "contact-0",
                "fields": [
                  {"id": "first_name", "title": "First name", "type": "name",
                   "validations": {"required": true, "min_length": 2}},
                  {"id": "email", "title": "Email", "type": "email"},
                  {"id": "send", "title": "Send", "type": "button"}
                ]
              }
            ]
          }
        ]
        """

    /// One text field, with trailing commas (served as strict JSON).
    static let trailing = """
        [
          {
            "id": "g",
            "title": "Trailing",
            "sections": [
              {"id": "s", "fields": [{"id": "note", "title": "Note", "type": "text",},],},
            ],
          },
        ]
        """

    /// A form with `count` text fields (a large definition for the gzip test).
    static func wide(title: String, count: Int) -> String {
        let fields = (0..<count).map {
            #"{"id": "field_\#($0)", "title": "A rather long title for field number \#($0)", "type": "text"}"#
        }
        return """
            [{"id": "g", "title": "\(title)", "sections": [{"id": "s", "fields": [\(fields.joined(separator: ",\n"))]}]}]
            """
    }

    /// A minimal valid form whose title tells versions apart.
    static func titled(_ title: String) -> String {
        """
        [{"id": "g", "title": "\(title)", "sections": [{"id": "s", "fields": [{"id": "a", "title": "A", "type": "text"}]}]}]
        """
    }
}

/// A forms folder with `contact`, `trailing` and `wide`, and a server on it.
final class ServedForms: @unchecked Sendable {
    let folder: TempFolder
    let forms: URL
    let server: FormdServerProcess

    init(environment: [String: String] = [:], extra: [String: String] = [:], launcher: [String] = []) throws {
        folder = try TempFolder()
        forms = try folder.subfolder("Forms")
        try folder.write("Forms/contact.json", Fixtures.contact)
        try folder.write("Forms/trailing.json", Fixtures.trailing)
        try folder.write("Forms/wide.json", Fixtures.wide(title: "UInt256", count: 40))
        for (name, text) in extra { try folder.write("Forms/\(name)", text) }
        server = try FormdServerProcess(forms: forms, environment: environment, directory: folder.url, launcher: launcher)
    }
}
