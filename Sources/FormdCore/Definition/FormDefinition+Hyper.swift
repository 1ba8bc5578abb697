/// A PureForm definition in the Hyper object shape, for renderers that draw one shape only (the
/// browser client): one section per `<section>` (`section-N`), one field per input with its id,
/// kind (`password` for a secure text entry), title and placeholder. Read by `PureFormReader`,
/// so the server and every client agree on ids and kinds; served at `GET /forms/{id}?shape=hyper`.
extension FormDefinition {
    package func hyperJSON() -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 256)
        w.beginObject()
        if let title {
            w.key("title")
            w.string(title)
        }
        w.key("groups")
        w.beginArray()
        for group in groups {
            w.beginObject()
            w.key("sections")
            w.beginArray()
            for section in group.sections {
                w.beginObject()
                if let id = section.id {
                    w.key("id")
                    w.string(id)
                }
                w.key("fields")
                w.beginArray()
                for field in section.fields {
                    w.beginObject()
                    w.key("id")
                    w.string(field.id)
                    w.key("type")
                    w.string(field.secret && field.kind == .text ? "password" : field.type ?? "text")
                    w.key("title")
                    w.string(field.label)
                    if case .string(let placeholder)? = field.raw["placeholder"] {
                        w.key("placeholder")
                        w.string(placeholder)
                    }
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
