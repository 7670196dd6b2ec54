/// Parses the three HTTP-date forms of RFC 9110 §5.6.7 without Foundation:
/// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 form
/// `Sunday, 06-Nov-94 08:49:37 GMT` and ANSI C's asctime form `Sun Nov  6 08:49:37 1994`.
/// Times are whole seconds since the Unix epoch (UTC); the weekday is not checked.
///
/// ```swift
/// HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")                      // 784111777
/// HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", nowSeconds: 1_700_000_000)  // 784111777
/// HTTPDate.parse("tomorrow")                                           // nil
/// ```
public enum HTTPDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since the Unix epoch, or nil if `text` is not an HTTP-date.
    ///
    /// - Parameter nowSeconds: the current Unix time, used only to give an RFC 850 two-digit year
    ///   its century: a year more than 50 years in the future is taken as the most recent past
    ///   year with those digits (RFC 9110 §5.6.7). The default, 0, reads years as seen from 1970
    ///   (`25` is 1925): pass the real time when RFC 850 dates may occur.
    public static func parse(_ text: String, nowSeconds: Int64 = 0) -> Int64? {
        let t = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = t.first else { return nil }
        if first.hasSuffix(",") && t.count == 6 {
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard t[5] == "GMT", t[1].count == 2, t[3].count == 4, let day = Int(t[1]), let month = month(t[2]),
                let year = Int(t[3]), let time = clock(t[4])
            else { return nil }
            return seconds(year: year, month: month, day: day, time: time)
        }
        if first.hasSuffix(",") && t.count == 4 {
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let date = t[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard t[3] == "GMT", date.count == 3, date[0].count == 2, date[2].count == 2,
                let day = Int(date[0]), let month = month(date[1]), let yy = Int(date[2]), let time = clock(t[2])
            else { return nil }
            let nowYear = civilYear(nowSeconds)
            var year = nowYear - nowYear % 100 + yy
            if year > nowYear + 50 { year -= 100 }
            return seconds(year: year, month: month, day: day, time: time)
        }
        // asctime: Sun Nov  6 08:49:37 1994
        guard !first.hasSuffix(","), t.count == 5, t[2].count <= 2, t[4].count == 4, let month = month(t[1]),
            let day = Int(t[2]), let time = clock(t[3]), let year = Int(t[4])
        else { return nil }
        return seconds(year: year, month: month, day: day, time: time)
    }

    static func month(_ s: String) -> Int? {
        guard s.count == 3 else { return nil }
        return months.firstIndex(of: s.lowercased()).map { $0 + 1 }
    }

    /// `HH:MM:SS` → seconds of the day.
    static func clock(_ s: String) -> Int64? {
        let p = s.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 3, p.allSatisfy({ $0.count == 2 }), let h = Int64(p[0]), let m = Int64(p[1]), let sec = Int64(p[2]),
            (0...23).contains(h), (0...59).contains(m), (0...60).contains(sec)
        else { return nil }
        return h * 3600 + m * 60 + sec
    }

    static func seconds(year: Int, month: Int, day: Int, time: Int64) -> Int64? {
        guard (1...31).contains(day), day <= daysIn(month: month, year: year) else { return nil }
        return daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day)) * 86_400 + time
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The Gregorian year of a Unix time.
    static func civilYear(_ seconds: Int64) -> Int {
        var days = seconds / 86_400
        if seconds % 86_400 < 0 { days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return Int(yoe + era * 400 + (month <= 2 ? 1 : 0))
    }
}
