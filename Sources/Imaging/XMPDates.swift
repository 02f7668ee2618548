import Foundation

/// Capture dates from an XMP packet, for files whose EXIF has none (images exported by
/// editors keep only XMP): `exif:DateTimeOriginal`, then `photoshop:DateCreated`, then
/// `xmp:CreateDate`, as attributes (`xmp:CreateDate="…"`) or elements. Values are ISO 8601,
/// with or without seconds and offset.
enum XMPDates {
    static let properties = ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"]

    /// The first date found, with its offset from UTC when the value has one.
    static func captureDate(_ packet: String, defaultTimeZone: TimeZone) -> (date: Date, offset: Int?)? {
        for property in properties {
            guard let value = value(of: property, in: packet) else { continue }
            if let parsed = parse(value, defaultTimeZone: defaultTimeZone) { return parsed }
        }
        return nil
    }

    /// Google's photo-sphere tags, which panorama apps and cameras write.
    static func isPanorama(_ packet: String) -> Bool {
        if let projection = value(of: "GPano:ProjectionType", in: packet), projection.lowercased() == "equirectangular" { return true }
        return value(of: "GPano:UsePanoramaViewer", in: packet)?.lowercased() == "true"
    }

    static func value(of property: String, in packet: String) -> String? {
        if let range = packet.range(of: property + "=\"") {
            let rest = packet[range.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        if let open = packet.range(of: "<" + property + ">"), let close = packet.range(of: "</" + property + ">", range: open.upperBound..<packet.endIndex) {
            return String(packet[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }

    /// "YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]".
    static func parse(_ text: String, defaultTimeZone: TimeZone) -> (date: Date, offset: Int?)? {
        let characters = Array(text.trimmingCharacters(in: .whitespaces))
        guard characters.count >= 16 else { return nil }
        let date = String(characters[0..<10])
        var time = Array(characters[11...])
        var offset: Int?
        if let zone = time.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) {
            guard let seconds = ExifDate.offsetSeconds(String(time[zone...])) else { return nil }
            offset = seconds
            time = Array(time[..<zone])
        }
        var fraction: TimeInterval = 0
        if let dot = time.firstIndex(of: ".") {
            fraction = ExifDate.subSeconds(String(time[(dot + 1)...])) ?? 0
            time = Array(time[..<dot])
        }
        if time.count == 5 { time += Array(":00") }
        guard let local = ExifDate.LocalDateTime(exif: date + " " + String(time)),
            let instant = local.date(offset: offset, defaultTimeZone: defaultTimeZone)
        else { return nil }
        return (instant.addingTimeInterval(fraction), offset)
    }
}
