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

    /// "YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]", as QuickTime's creation dates are read.
    static func parse(_ text: String, defaultTimeZone: TimeZone) -> (date: Date, offset: Int?)? {
        ExifDate.iso8601(text, defaultTimeZone: defaultTimeZone).map { (date: $0.0, offset: $0.1) }
    }
}
