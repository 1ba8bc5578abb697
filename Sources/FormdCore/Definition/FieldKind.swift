/// What a field's `type` means for values (SEMANTICS §2). Unknown types are `custom`.
package enum FieldKind: Sendable, Hashable {
    case text, name, email, password
    case number, count, float
    case `switch`
    case select, segment
    /// A list of option ids (several may be chosen): Formkit's multiple select.
    case multiSelect
    case date, dateTime, time
    case button, spacer
    case custom

    package init(type: String?) {
        switch type {
        case "text": self = .text
        case "name": self = .name
        case "email": self = .email
        case "password": self = .password
        case "number": self = .number
        case "count": self = .count
        case "float": self = .float
        case "switch": self = .switch
        case "select": self = .select
        case "segment": self = .segment
        case "multi_select": self = .multiSelect
        case "date": self = .date
        case "date_time": self = .dateTime
        case "time": self = .time
        case "button": self = .button
        case "spacer": self = .spacer
        default: self = .custom
        }
    }

    /// Buttons and spacers never hold a value (SEMANTICS §2, §8).
    package var holdsValue: Bool { self != .button && self != .spacer }
    /// A formula on these kinds is numeric; on any other it is a text template (SEMANTICS §4).
    package var isNumeric: Bool { self == .number || self == .count || self == .float }
    package var isTextual: Bool { self == .text || self == .name || self == .email || self == .password }
    package var hasOptions: Bool { self == .select || self == .segment || self == .multiSelect }
    package var isCalendar: Bool { self == .date || self == .dateTime || self == .time }

    package var calendarKind: CalendarKind? {
        switch self {
        case .date: .date
        case .dateTime: .dateTime
        case .time: .time
        default: nil
        }
    }

    /// The name used in `type` error params (`{"expected": "<kind>"}`).
    package var expectedName: String {
        switch self {
        case .text: "text"
        case .name: "name"
        case .email: "email"
        case .password: "password"
        case .number: "number"
        case .count: "count"
        case .float: "float"
        case .switch: "switch"
        case .select: "select"
        case .segment: "segment"
        case .multiSelect: "multi_select"
        case .date: "date"
        case .dateTime: "date_time"
        case .time: "time"
        case .button: "button"
        case .spacer: "spacer"
        case .custom: "custom"
        }
    }
}
