/// A coerced `date`, `date_time` or `time` value (SEMANTICS §2), with its canonical text and a
/// comparable instant for `compare` checks (SEMANTICS §6).
///
/// * `date`: the calendar date as written (a date-time's own offset is not applied);
///   canonical `YYYY-MM-DD`.
/// * `date_time`: converted to UTC; canonical `YYYY-MM-DDTHH:MM:SSZ`, with `.sss` when the
///   milliseconds are not zero (finer fractions are truncated, not rounded). A conversion that
///   leaves the years 0000–9999 is rejected, since the canonical form could not write it.
/// * `time`: the time of day as written (milliseconds dropped); canonical `HH:MM:SS`.
///
/// Anything else is nil: the engine reports a `type` error. See `CalendarParser` for the input
/// grammar.
package struct CalendarValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let kind: CalendarKind
    /// `date` and `date_time` (UTC); 0 for `time`.
    package let year: Int, month: Int, day: Int
    /// `date_time` (UTC) and `time`; 0 for `date`. `millisecond` is always 0 for `time`.
    package let hour: Int, minute: Int, second: Int, millisecond: Int

    /// Milliseconds: for `date` since 1970-01-01T00:00Z to the date's midnight (UTC), for
    /// `date_time` since 1970-01-01T00:00Z, for `time` since midnight.
    package let instant: Int64

    /// Coerces submitted or definition text to `kind`; nil when it cannot be.
    package init?(_ text: String, as kind: CalendarKind) {
        guard let p = CalendarParser(text) else { return nil }
        switch (kind, p.shape) {
        case (.date, .date), (.date, .dateTime):
            self.init(date: p.year, p.month, p.day)
        case (.time, .time), (.time, .dateTime):
            self.init(time: p.hour, p.minute, p.second)
        case (.dateTime, .dateTime(let offset)):
            let local = Int64(CivilCalendar.days(year: p.year, month: p.month, day: p.day)) * 86_400_000
                + Int64((p.hour * 60 + p.minute) * 60 + p.second) * 1000 + Int64(p.millisecond)
            self.init(utcMilliseconds: local - Int64(offset) * 60_000)
        default:
            return nil
        }
    }

    /// Coerces a JSON value: only strings are calendar values (`20141031` is not a date).
    package init?(_ json: JSONValue, as kind: CalendarKind) {
        guard case .string(let text) = json else { return nil }
        self.init(text, as: kind)
    }

    private init(date y: Int, _ m: Int, _ d: Int) {
        kind = .date
        year = y; month = m; day = d
        hour = 0; minute = 0; second = 0; millisecond = 0
        instant = Int64(CivilCalendar.days(year: y, month: m, day: d)) * 86_400_000
    }

    private init(time h: Int, _ m: Int, _ s: Int) {
        kind = .time
        year = 0; month = 0; day = 0
        hour = h; minute = m; second = s; millisecond = 0
        instant = Int64((h * 60 + m) * 60 + s) * 1000
    }

    private init?(utcMilliseconds t: Int64) {
        let dayMs: Int64 = 86_400_000
        let days = t >= 0 ? t / dayMs : (t - dayMs + 1) / dayMs
        let inDay = Int(t - days * dayMs)
        let date = CivilCalendar.date(days: Int(days))
        guard (0...9999).contains(date.year) else { return nil }
        kind = .dateTime
        year = date.year; month = date.month; day = date.day
        hour = inDay / 3_600_000
        minute = inDay / 60_000 % 60
        second = inDay / 1000 % 60
        millisecond = inDay % 1000
        instant = t
    }

    /// The canonical text, as returned in responses.
    package var canonical: String {
        let length: Int
        switch kind {
        case .date: length = 10
        case .time: length = 8
        case .dateTime: length = millisecond == 0 ? 20 : 24
        }
        return String(unsafeUninitializedCapacity: length) { buf in
            var i = 0
            func put(_ value: Int, _ width: Int) {
                var v = value
                for k in stride(from: width - 1, through: 0, by: -1) {
                    buf[i + k] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
                i += width
            }
            func put(_ c: Unicode.Scalar) { buf[i] = UInt8(ascii: c); i += 1 }
            if kind != .time {
                put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2)
                if kind == .dateTime { put("T") }
            }
            if kind != .date {
                put(hour, 2); put(":"); put(minute, 2); put(":"); put(second, 2)
            }
            if kind == .dateTime {
                if millisecond != 0 { put("."); put(millisecond, 3) }
                put("Z")
            }
            return i
        }
    }

    package var description: String { canonical }

    /// Orders by kind (`date`, `date_time`, `time`), then by instant. `compare` checks between
    /// fields of the same kind only need the instant; mixed kinds can compare `instant`s.
    package static func < (a: CalendarValue, b: CalendarValue) -> Bool {
        if a.kind != b.kind { return a.kind.order < b.kind.order }
        return a.instant < b.instant
    }

    /// Compares two values of `kind` given as text (canonical or any accepted input), as
    /// instants; nil when either is not a value of that kind. Canonical `date_time`s cannot be
    /// compared as strings (`…00Z` sorts after `…00.500Z`).
    /// -1, 0 or 1 (as `DecimalText.compare`).
    package static func order(_ a: String, _ b: String, as kind: CalendarKind) -> Int? {
        // Two canonical dates (what coerced `date` fields hold) sort as their text does.
        if kind == .date, isCanonicalDate(a), isCanonicalDate(b) { return a < b ? -1 : a > b ? 1 : 0 }
        guard let x = CalendarValue(a, as: kind), let y = CalendarValue(b, as: kind) else { return nil }
        return x.instant < y.instant ? -1 : x.instant > y.instant ? 1 : 0
    }
}

extension CalendarKind {
    fileprivate var order: Int {
        switch self {
        case .date: 0
        case .dateTime: 1
        case .time: 2
        }
    }
}

extension CalendarValue {
    /// Whether `text` is a valid date written exactly as its canonical form, `YYYY-MM-DD`
    /// (`CalendarParser`'s ranges): coercion then keeps the text as sent, and two such dates
    /// compare as text, with no value built for either.
    static func isCanonicalDate(_ text: String) -> Bool {
        guard text.utf8.count == 10 else { return false }
        // Not contiguous (bridged text): the parser decides.
        return text.utf8.withContiguousStorageIfAvailable { isCanonicalDate(utf8: $0) } ?? false
    }

    /// `isCanonicalDate` of the text these bytes are.
    static func isCanonicalDate(utf8 b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return false }
        var y = 0, m = 0, d = 0
        for i in 0..<10 where i != 4 && i != 7 {
            let digit = b[i] &- 48
            guard digit < 10 else { return false }
            if i < 4 { y = y * 10 + Int(digit) } else if i < 7 { m = m * 10 + Int(digit) } else { d = d * 10 + Int(digit) }
        }
        return (1...12).contains(m) && d >= 1 && d <= CivilCalendar.daysInMonth(y, m)
    }
}
