/// Hand-written parser for the calendar inputs of SEMANTICS §2 (no `DateFormatter`: it runs per
/// request). Accepted shapes, ASCII digits only:
///
/// * `YYYY-MM-DD`
/// * `HH:MM` and `HH:MM:SS`
/// * a date-time `YYYY-MM-DD` + `T`/`t`/space + `HH:MM:SS` + optional `.` fraction (any number
///   of digits, truncated to milliseconds) + optional space + zone `Z`/`z`, `±HH:MM` or `±HHMM`.
///   This covers RFC 3339 and the original's `yyyy-MM-dd HH:mm:ss Z` (`+0000`, `+00:00`).
///   The zone is required: without it a date-time names no instant.
///
/// Ranges: month 1–12, day within its month (leap years), hour 0–23, minute and second 0–59,
/// offset hours 0–23 and minutes 0–59. A leap second (`:60`) is rejected: POSIX-style instants
/// cannot hold it, and RFC 3339 only allows it at announced leap seconds we cannot check.
struct CalendarParser {
    enum Shape: Equatable {
        case date
        case time
        case dateTime(offsetMinutes: Int)
    }

    var shape: Shape = .date
    var year = 0, month = 0, day = 0
    var hour = 0, minute = 0, second = 0, millisecond = 0

    init?(_ text: String) {
        let parsed: CalendarParser?? = text.utf8.withContiguousStorageIfAvailable { CalendarParser(bytes: $0) }
        if let parsed {
            guard let parsed else { return nil }
            self = parsed
        } else {
            guard let parsed = Array(text.utf8).withUnsafeBufferPointer({ CalendarParser(bytes: $0) }) else { return nil }
            self = parsed
        }
    }

    private init?(bytes b: UnsafeBufferPointer<UInt8>) {
        let n = b.count
        // No length limit: every part has a fixed width except the fraction of a second, which
        // is read in one pass and truncated to milliseconds, however long (SEMANTICS §2).
        guard n >= 5 else { return nil }
        if b[2] == UInt8(ascii: ":") {
            // HH:MM or HH:MM:SS
            guard n == 5 || n == 8 else { return nil }
            guard parseTime(b, at: 0, seconds: n == 8) else { return nil }
            shape = .time
            return
        }
        guard n >= 10,
              let y = Self.digits(b, 0, 4), b[4] == UInt8(ascii: "-"),
              let mo = Self.digits(b, 5, 2), b[7] == UInt8(ascii: "-"),
              let d = Self.digits(b, 8, 2),
              (1...12).contains(mo), d >= 1, d <= CivilCalendar.daysInMonth(y, mo)
        else { return nil }
        year = y; month = mo; day = d
        if n == 10 { shape = .date; return }

        let sep = b[10]
        guard sep == UInt8(ascii: "T") || sep == UInt8(ascii: "t") || sep == UInt8(ascii: " "),
              n >= 19, parseTime(b, at: 11, seconds: true)
        else { return nil }
        var i = 19
        if i < n && b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            var ms = 0
            while i < n, let d = asciiDigit(b[i]) {
                if i - start < 3 { ms = ms * 10 + d }
                i += 1
            }
            guard i > start else { return nil }
            for _ in min(i - start, 3)..<3 { ms *= 10 }
            millisecond = ms
        }
        if i < n && b[i] == UInt8(ascii: " ") { i += 1 }
        guard i < n else { return nil }
        let offset: Int
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == n else { return nil }
            offset = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            let rest = n - i - 1
            guard let oh = Self.digits(b, i + 1, 2), oh <= 23 else { return nil }
            let om: Int?
            if rest == 5 && b[i + 3] == UInt8(ascii: ":") {
                om = Self.digits(b, i + 4, 2)
            } else if rest == 4 {
                om = Self.digits(b, i + 3, 2)
            } else {
                om = nil
            }
            guard let om, om <= 59 else { return nil }
            offset = sign * (oh * 60 + om)
        default:
            return nil
        }
        shape = .dateTime(offsetMinutes: offset)
    }

    /// `HH:MM` or `HH:MM:SS` at `at`, ranges checked.
    private mutating func parseTime(_ b: UnsafeBufferPointer<UInt8>, at i: Int, seconds: Bool) -> Bool {
        guard let h = Self.digits(b, i, 2), b[i + 2] == UInt8(ascii: ":"),
              let m = Self.digits(b, i + 3, 2), h <= 23, m <= 59
        else { return false }
        var s = 0
        if seconds {
            guard b[i + 5] == UInt8(ascii: ":"), let sec = Self.digits(b, i + 6, 2), sec <= 59 else { return false }
            s = sec
        }
        hour = h; minute = m; second = s
        return true
    }

    /// `count` ASCII digits at `i` as a number (the caller has checked the length).
    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ count: Int) -> Int? {
        guard i + count <= b.count else { return nil }
        var v = 0
        for k in i..<(i + count) {
            guard let d = asciiDigit(b[k]) else { return nil }
            v = v * 10 + d
        }
        return v
    }
}
