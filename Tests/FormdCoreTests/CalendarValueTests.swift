import Foundation
import FormdTestSupport
import Testing
@testable import FormdCore

@Suite struct CalendarValueTests {
    @Test(arguments: [
        // date
        ("2014-10-31", "2014-10-31"),
        ("2014-10-31T23:00:00Z", "2014-10-31"),
        ("2014-10-31T23:00:00-02:00", "2014-10-31"),      // as written, not converted
        ("2014-11-01T01:00:00+02:00", "2014-11-01"),
        ("2014-10-31 23:00:00 +00:00", "2014-10-31"),
        ("2014-10-31 10:00:00 +0000", "2014-10-31"),
        ("2014-10-31 10:00:00 -0130", "2014-10-31"),
        ("2014-10-31 10:00:00 Z", "2014-10-31"),
        ("2014-10-31t10:00:00.123456z", "2014-10-31"),
        ("2016-02-29", "2016-02-29"),
        ("2000-02-29", "2000-02-29"),
        ("0000-01-01", "0000-01-01"),
        ("9999-12-31", "9999-12-31"),
    ])
    func date(_ input: String, _ canonical: String) {
        #expect(CalendarValue(input, as: .date)?.canonical == canonical, "\(input)")
    }

    @Test(arguments: [
        ("2014-10-31T23:00:00Z", "2014-10-31T23:00:00Z"),
        ("2014-10-31T23:00:00+02:00", "2014-10-31T21:00:00Z"),
        ("2014-10-31T22:30:00-01:30", "2014-11-01T00:00:00Z"),   // crosses midnight and month
        ("2014-10-31 23:00:00 +0000", "2014-10-31T23:00:00Z"),
        ("2014-10-31 23:00:00 +00:00", "2014-10-31T23:00:00Z"),
        ("2014-10-31 23:00:00 -0130", "2014-11-01T00:30:00Z"),
        ("2014-10-31 23:00:00Z", "2014-10-31T23:00:00Z"),
        ("2014-01-01T00:00:00.002Z", "2014-01-01T00:00:00.002Z"),
        ("2014-10-31T23:00:00.250+01:00", "2014-10-31T22:00:00.250Z"),
        ("2014-10-31T23:00:00.000Z", "2014-10-31T23:00:00Z"),      // .000 omitted
        ("2014-10-31T23:00:00.5Z", "2014-10-31T23:00:00.500Z"),
        ("2014-10-31T23:00:00.123456Z", "2014-10-31T23:00:00.123Z"), // truncated
        ("2014-10-31T23:00:00.999999999Z", "2014-10-31T23:00:00.999Z"),
        ("2014-10-31T23:00:00.0001Z", "2014-10-31T23:00:00Z"),
        ("2014-12-31T23:30:00-01:00", "2015-01-01T00:30:00Z"),     // crosses the year
        ("2015-01-01T00:30:00+01:00", "2014-12-31T23:30:00Z"),     // back across the year
        ("2016-02-28T23:00:00-02:00", "2016-02-29T01:00:00Z"),     // into a leap day
        ("2016-03-01T00:00:00+00:01", "2016-02-29T23:59:00Z"),     // back onto a leap day
        ("2015-03-01T00:00:00+01:00", "2015-02-28T23:00:00Z"),     // no leap day in 2015
        ("2000-02-29T12:00:00Z", "2000-02-29T12:00:00Z"),
        ("2014-10-31t23:00:00z", "2014-10-31T23:00:00Z"),
        ("2014-10-31T23:00:00-00:00", "2014-10-31T23:00:00Z"),
        ("2014-10-31T00:00:00+23:59", "2014-10-30T00:01:00Z"),
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("1900-03-01T00:00:00+01:00", "1900-02-28T23:00:00Z"),     // 1900 is not a leap year
        ("9999-12-31T23:59:59-00:00", "9999-12-31T23:59:59Z"),
    ])
    func dateTime(_ input: String, _ canonical: String) {
        #expect(CalendarValue(input, as: .dateTime)?.canonical == canonical, "\(input)")
    }

    @Test(arguments: [
        ("09:30", "09:30:00"),
        ("09:30:15", "09:30:15"),
        ("23:59", "23:59:00"),
        ("00:00", "00:00:00"),
        ("23:59:59", "23:59:59"),
        ("2014-01-01T00:00:00.002Z", "00:00:00"),
        ("2014-10-31T23:15:30+02:00", "23:15:30"),               // as written
        ("2014-10-31 23:15:30 -0130", "23:15:30"),
    ])
    func time(_ input: String, _ canonical: String) {
        #expect(CalendarValue(input, as: .time)?.canonical == canonical, "\(input)")
    }

    @Test(arguments: [
        ("31/10/2014", CalendarKind.date),
        ("2014-02-30", .date),
        ("2014-02-29", .date),             // not a leap year
        ("1900-02-29", .date),
        ("2014-13-01", .date),
        ("2014-00-10", .date),
        ("2014-04-31", .date),
        ("2014-10-00", .date),
        ("2014-1-31", .date),
        ("14-10-31", .date),
        ("2014-10-31 ", .date),
        (" 2014-10-31", .date),
        ("2014-10-31T", .date),
        ("2014-10-31T23:00:00", .date),    // no zone
        ("09:30", .date),
        ("yesterday", .dateTime),
        ("2014-10-31", .dateTime),         // a date is not a date-time
        ("2014-10-31T23:00:00", .dateTime),
        ("2014-10-31T23:00Z", .dateTime),  // seconds required
        ("2014-10-31T24:00:00Z", .dateTime),
        ("2014-10-31T23:60:00Z", .dateTime),
        ("2014-10-31T23:59:60Z", .dateTime),   // leap second rejected
        ("2014-10-31T23:00:00.Z", .dateTime),
        ("2014-10-31T23:00:00,5Z", .dateTime),
        ("2014-10-31T23:00:00+2:00", .dateTime),
        ("2014-10-31T23:00:00+02", .dateTime),
        ("2014-10-31T23:00:00+24:00", .dateTime),
        ("2014-10-31T23:00:00+02:60", .dateTime),
        ("2014-10-31T23:00:00+02:00 ", .dateTime),
        ("2014-10-31T23:00:00ZZ", .dateTime),
        ("2014-10-31T23:00:00  Z", .dateTime),
        ("2014-10-31X23:00:00Z", .dateTime),
        ("0000-01-01T00:00:00+01:00", .dateTime),  // before year 0000 in UTC
        ("9999-12-31T23:00:00-01:00", .dateTime),  // after year 9999 in UTC
        ("２０１４-10-31T23:00:00Z", .dateTime),
        ("25:00", .time),
        ("noon", .time),
        ("9:30", .time),
        ("09:60", .time),
        ("09:30:60", .time),
        ("09:30:15.5", .time),
        ("0930", .time),
        ("09:30:1", .time),
        ("2014-10-31", .time),
        ("", .date),
        ("", .time),
    ])
    func rejected(_ input: String, _ kind: CalendarKind) {
        #expect(CalendarValue(input, as: kind) == nil, "\(input) as \(kind)")
    }

    @Test func hostileInput() {
        #expect(CalendarValue(String(repeating: "9", count: 100_000), as: .dateTime) == nil)
        // A fraction of any length is read in one pass and truncated (docs: SEMANTICS §2).
        #expect(CalendarValue("2014-10-31T23:00:00." + String(repeating: "1", count: 100_000) + "Z", as: .dateTime)?.canonical
            == "2014-10-31T23:00:00.111Z")
        #expect(CalendarValue("2014-10-31T23:00:00." + String(repeating: "1", count: 1000) + "Zx", as: .dateTime) == nil)
        #expect(CalendarValue(String(repeating: ":", count: 5), as: .time) == nil)
        #expect(CalendarValue("\u{0}\u{0}:\u{0}\u{0}", as: .time) == nil)
    }

    @Test func json() {
        #expect(CalendarValue(JSONValue.string("2014-10-31"), as: .date)?.canonical == "2014-10-31")
        #expect(CalendarValue(JSONValue.number(JSONNumber(literal: "20141031")), as: .date) == nil)
        #expect(CalendarValue(JSONValue.null, as: .time) == nil)
    }

    @Test func componentsAndInstants() throws {
        let dt = try #require(CalendarValue("2014-10-31T22:30:00.25-01:30", as: .dateTime))
        let parts: [Int] = [dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.millisecond]
        #expect(parts == [2014, 11, 1, 0, 0, 0, 250])
        #expect(dt.instant == 1_414_800_000_250)
        #expect(CalendarValue("1970-01-02", as: .date)?.instant == 86_400_000)
        #expect(CalendarValue("1969-12-31", as: .date)?.instant == -86_400_000)
        #expect(CalendarValue("01:00:01", as: .time)?.instant == 3_601_000)
        // Agrees with Foundation over a sweep of days.
        for days in stride(from: -800_000, through: 2_900_000, by: 997) {
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let c = utc.dateComponents([.year, .month, .day], from: date)
            let text = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
            guard c.year! >= 1583 else { continue }  // Foundation switches to Julian before 1582
            #expect(CalendarValue(text, as: .date)?.instant == Int64(days) * 86_400_000, "\(text)")
        }
    }

    @Test func comparison() throws {
        // The conformance compare cases.
        #expect(CalendarValue.order("2014-10-31T22:00:00Z", "2014-10-31T23:00:00+02:00", as: .dateTime) == 1)
        #expect(CalendarValue.order("2014-10-31T20:00:00Z", "2014-10-31T23:00:00+02:00", as: .dateTime) == -1)
        #expect(CalendarValue.order("2014-10-31T21:00:00Z", "2014-10-31T21:00:00.500Z", as: .dateTime) == -1)
        #expect(CalendarValue.order("2014-10-31T22:00:00.500+01:00", "2014-10-31T21:00:00Z", as: .dateTime) == 1)
        #expect(CalendarValue.order("2015-01-01", "2015-01-01", as: .date) == 0)
        #expect(CalendarValue.order("2014-01-01", "2015-01-01", as: .date) == -1)
        #expect(CalendarValue.order("09:30", "09:30:00", as: .time) == 0)
        #expect(CalendarValue.order("23:59:59", "00:00:00", as: .time) == 1)
        #expect(CalendarValue.order("x", "09:30", as: .time) == nil)

        let a = try #require(CalendarValue("2014-10-31T21:00:00Z", as: .dateTime))
        let b = try #require(CalendarValue("2014-10-31T21:00:00.500Z", as: .dateTime))
        #expect(a < b && !(b < a))
        #expect(a == CalendarValue("2014-10-31T23:00:00+02:00", as: .dateTime))
        #expect(CalendarValue("2014-10-31", as: .date)! < CalendarValue("2000-01-01T00:00:00Z", as: .dateTime)!)
    }

    /// Every canonical value reads back to itself.
    @Test func canonicalRoundTrip() {
        for text in ["2014-10-31", "0000-01-01", "2016-02-29"] {
            #expect(CalendarValue(text, as: .date)?.canonical == text)
        }
        for text in ["2014-10-31T21:00:00Z", "2014-10-31T21:00:00.500Z", "2014-10-31T21:00:00.001Z"] {
            #expect(CalendarValue(text, as: .dateTime)?.canonical == text)
        }
        for text in ["00:00:00", "23:59:59"] {
            #expect(CalendarValue(text, as: .time)?.canonical == text)
        }
    }

    /// The shortcut for canonical dates (coercion keeps them as sent; two of them compare as
    /// text) against building the values: the same verdicts, the same order.
    @Test func canonicalDateShortcutAgreesWithTheParser() {
        var rng = SplitMix64(state: 2026)
        let digits = Array("0123456789")
        func date() -> String {
            switch rng.below(6) {
            case 4:  // a valid date with one byte replaced by any printable ASCII byte
                let y = rng.below(10_000), m = 1 + rng.below(12), d = 1 + rng.below(CivilCalendar.daysInMonth(y, m))
                var bytes = Array(String(format: "%04d-%02d-%02d", y, m, d).utf8)
                bytes[rng.below(10)] = UInt8(0x20 + rng.below(0x5F))
                return String(decoding: bytes, as: UTF8.self)
            case 5:  // a valid date with one byte replaced by a digit's neighbours in the nibble
                // checks (`/`, `:`, `?`, NUL, control bytes) or a byte of a two-byte character
                let y = rng.below(10_000), m = 1 + rng.below(12), d = 1 + rng.below(CivilCalendar.daysInMonth(y, m))
                var bytes = Array(String(format: "%04d-%02d-%02d", y, m, d).utf8)
                let k = rng.below(10)
                bytes[k] = rng.pick([0x00, 0x09, 0x1D, 0x2F, 0x3A, 0x3F, 0x2D, 0x20, 0x7F, 0x40, 0x70, 0x39, 0x30])
                if rng.below(4) == 0 { bytes.replaceSubrange(k..<k + 1, with: [0xC3, 0xA9]); bytes.remove(at: k == 9 ? 0 : 9) }
                return String(decoding: bytes, as: UTF8.self)
            case 0:  // any digits in the shape: many invalid months and days
                var text = ""
                for i in 0..<10 { text.append(i == 4 || i == 7 ? "-" : digits[rng.below(10)]) }
                return text
            case 1:  // near the shape: other lengths and separators
                var text = ""
                for _ in 0..<(8 + rng.below(5)) { text.append(rng.pick(Array("0123456789-/T "))) }
                return text
            default:  // valid dates, leap days included
                let y = rng.below(10_000), m = 1 + rng.below(12), d = 1 + rng.below(CivilCalendar.daysInMonth(y, m) + 1)
                return String(format: "%04d-%02d-%02d", y, m, d)
            }
        }
        var canonical = 0
        for _ in 0..<20_000 {
            let a = date(), b = date()
            let x = CalendarValue(a, as: .date), y = CalendarValue(b, as: .date)
            #expect(CalendarValue.isCanonicalDate(a) == (x?.canonical == a), "\(a)")
            if CalendarValue.isCanonicalDate(a) { canonical += 1 }
            let want: Int? = if let x, let y { x.instant < y.instant ? -1 : x.instant > y.instant ? 1 : 0 } else { nil }
            #expect(CalendarValue.order(a, b, as: .date) == want, "\(a) \(b)")
        }
        #expect(canonical > 5_000)
    }
}
