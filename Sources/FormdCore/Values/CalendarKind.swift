/// The three calendar field kinds of SEMANTICS §2; `rawValue` is the field `type`.
package enum CalendarKind: String, Sendable, Hashable, CaseIterable {
    case date
    case dateTime = "date_time"
    case time
}
