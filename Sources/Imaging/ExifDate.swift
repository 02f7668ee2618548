import Foundation

/// Parsing of EXIF and ISO 8601 date fields.
enum ExifDate {
    /// A wall-clock date and time as written in the file, not yet placed in a time zone.
    struct LocalDateTime: Equatable, Sendable {
        var year, month, day, hour, minute, second: Int

        /// "YYYY:MM:DD HH:MM:SS" (also with '-' in the date or 'T' between), anything after the
        /// seconds ignored. `nil` for blank ("    :  :  ") or all-zero dates and invalid fields.
        init?(exif text: String) {
            let c = Array(text.utf8)
            guard c.count >= 19 else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var v = 0
                for i in range {
                    guard (0x30 ... 0x39).contains(c[i]) else { return nil }
                    v = v * 10 + Int(c[i] - 0x30)
                }
                return v
            }
            let separatorsOK = [4, 7].allSatisfy { c[$0] == UInt8(ascii: ":") || c[$0] == UInt8(ascii: "-") }
                && (c[10] == UInt8(ascii: " ") || c[10] == UInt8(ascii: "T"))
                && [13, 16].allSatisfy { c[$0] == UInt8(ascii: ":") }
            guard separatorsOK,
                  let y = number(0 ..< 4), let mo = number(5 ..< 7), let d = number(8 ..< 10),
                  let h = number(11 ..< 13), let mi = number(14 ..< 16), let s = number(17 ..< 19),
                  y >= 1, (1 ... 12).contains(mo), (1 ... 31).contains(d), (0 ... 24).contains(h),
                  (0 ... 59).contains(mi), (0 ... 60).contains(s)
            else { return nil }
            (year, month, day, hour, minute, second) = (y, mo, d, h, mi, s)
        }

        /// The instant, using `offset` (seconds east of UTC) when known, else `defaultTimeZone`.
        func date(offset: Int?, defaultTimeZone: TimeZone) -> Date? {
            if let offset {
                let days = Self.daysFromCivil(year, month, day)
                let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
                return Date(timeIntervalSince1970: TimeInterval(seconds))
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = defaultTimeZone
            let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            return calendar.date(from: components)
        }

        /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
        static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
            let y = m <= 2 ? y0 - 1 : y0
            let era = (y >= 0 ? y : y - 399) / 400
            let yoe = y - era * 400
            let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            return era * 146_097 + doe - 719_468
        }
    }

    /// "+02:00", "-0530", "+09", "Z" → seconds east of UTC.
    static func offsetSeconds(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t == "Z" { return 0 }
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let digits = t.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count == 2 || digits.count == 4,
              let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
              hours <= 18, minutes < 60
        else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == "-" ? -seconds : seconds
    }

    /// "123" → 0.123 (leading digits only).
    static func subSeconds(_ text: String) -> TimeInterval? {
        let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
        return value
    }

    /// ISO 8601 as QuickTime writes it: "2019-12-20T17:08:34-0300", "2024-04-22T14:38:09+02:00",
    /// "2021-12-06T15:52:31Z", or without offset. Returns the instant and the offset if given.
    static func iso8601(_ text: String, defaultTimeZone: TimeZone) -> (Date, Int?)? {
        var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // "YYYY-MM-DDThh:mm" without seconds (XMP allows it): seconds 00.
        let utf8 = Array(t.utf8)
        if utf8.count >= 16, utf8.count == 16 || utf8[16] != UInt8(ascii: ":") {
            t = String(decoding: utf8[..<16], as: UTF8.self) + ":00" + String(decoding: utf8[16...], as: UTF8.self)
        }
        guard let local = LocalDateTime(exif: t) else { return nil }
        var rest = Substring(String(decoding: Array(t.utf8).dropFirst(19), as: UTF8.self))
        var fraction: TimeInterval = 0
        if rest.first == "." || rest.first == "," {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            fraction = Double("0." + digits) ?? 0
            rest = rest.dropFirst(1 + digits.count)
        }
        let offset = rest.isEmpty ? nil : offsetSeconds(String(rest))
        guard let date = local.date(offset: offset, defaultTimeZone: defaultTimeZone) else { return nil }
        return (date.addingTimeInterval(fraction), offset)
    }
}
