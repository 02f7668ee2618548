import Foundation

/// The EXIF fields MediaProbe reports, read from a parsed TIFF structure.
struct ExifMetadata: Sendable, Equatable {
    var make: String?
    var model: String?
    var lensModel: String?
    var software: String?
    var userComment: String?
    /// EXIF Orientation, when present and valid (1...8).
    var orientation: Int?
    var captureDate: Date?
    var captureTimeZoneOffset: Int?
    var location: GPSCoordinate?
    /// EXIF CustomRendered: iOS writes 2 or 3 for HDR, 6 for a panorama, 7 or 8 for Portrait.
    var customRendered: Int?
    /// The iPhone maker note, when there is one.
    var apple: AppleMakerNote?
    /// PixelXDimension / PixelYDimension from the Exif IFD.
    var pixelXDimension: Int?
    var pixelYDimension: Int?

    enum Tag {
        static let imageWidth: UInt16 = 0x0100, imageLength: UInt16 = 0x0101
        static let make: UInt16 = 0x010F, model: UInt16 = 0x0110, orientation: UInt16 = 0x0112
        static let software: UInt16 = 0x0131, dateTime: UInt16 = 0x0132
        static let dateTimeOriginal: UInt16 = 0x9003, dateTimeDigitized: UInt16 = 0x9004
        static let offsetTime: UInt16 = 0x9010, offsetTimeOriginal: UInt16 = 0x9011
        static let offsetTimeDigitized: UInt16 = 0x9012
        static let subSecTime: UInt16 = 0x9290, subSecTimeOriginal: UInt16 = 0x9291
        static let subSecTimeDigitized: UInt16 = 0x9292
        static let userComment: UInt16 = 0x9286
        static let pixelXDimension: UInt16 = 0xA002, pixelYDimension: UInt16 = 0xA003
        static let lensModel: UInt16 = 0xA434
        static let customRendered: UInt16 = 0xA401, makerNote: UInt16 = 0x927C
    }

    enum GPSTag {
        static let latitudeRef: UInt16 = 1, latitude: UInt16 = 2, longitudeRef: UInt16 = 3
        static let longitude: UInt16 = 4, altitudeRef: UInt16 = 5, altitude: UInt16 = 6
        static let timeStamp: UInt16 = 7, speedRef: UInt16 = 0x0C, speed: UInt16 = 0x0D
        static let track: UInt16 = 0x0F, dateStamp: UInt16 = 0x1D, hPositioningError: UInt16 = 0x1F
    }

    init() {}

    /// Interprets a parsed TIFF structure. Local times without an offset are read in
    /// `defaultTimeZone`.
    init(_ tiff: TIFFStructure, defaultTimeZone: TimeZone) {
        let ifd0 = tiff.ifd0, exif = tiff.exif
        // Some writers (HTC) put Make/Model in the Exif IFD instead of IFD0.
        make = ifd0[Tag.make]?.string ?? exif[Tag.make]?.string
        model = ifd0[Tag.model]?.string ?? exif[Tag.model]?.string
        software = ifd0[Tag.software]?.string ?? exif[Tag.software]?.string
        lensModel = exif[Tag.lensModel]?.string
        if let o = ifd0[Tag.orientation]?.int, (1 ... 8).contains(o) { orientation = o }
        if let value = exif[Tag.userComment] { userComment = Self.userComment(value, bigEndian: tiff.bigEndian) }
        customRendered = exif[Tag.customRendered]?.int
        apple = exif[Tag.makerNote].flatMap(AppleMakerNote.init)
        pixelXDimension = exif[Tag.pixelXDimension]?.int.flatMap { $0 > 0 ? $0 : nil }
        pixelYDimension = exif[Tag.pixelYDimension]?.int.flatMap { $0 > 0 ? $0 : nil }

        // DateTimeOriginal, then DateTimeDigitized (CreateDate), then IFD0 DateTime, each with its
        // own sub-seconds and offset (falling back to the general OffsetTime).
        let candidates: [(TIFFValue?, TIFFValue?, TIFFValue?)] = [
            (exif[Tag.dateTimeOriginal], exif[Tag.subSecTimeOriginal], exif[Tag.offsetTimeOriginal]),
            (exif[Tag.dateTimeDigitized], exif[Tag.subSecTimeDigitized], exif[Tag.offsetTimeDigitized]),
            (ifd0[Tag.dateTime], exif[Tag.subSecTime], exif[Tag.offsetTime]),
        ]
        location = Self.location(tiff.gps)
        for (date, subSec, offset) in candidates {
            guard let text = date?.string, let local = ExifDate.LocalDateTime(exif: text) else { continue }
            var zone = (offset?.string ?? exif[Tag.offsetTime]?.string).flatMap(ExifDate.offsetSeconds)
            if zone == nil, let gpsTime = location?.timestamp {
                zone = Self.offset(local: local, utc: gpsTime)
            }
            let fraction = subSec?.string.flatMap(ExifDate.subSeconds) ?? 0
            captureDate = local.date(offset: zone, defaultTimeZone: defaultTimeZone)?.addingTimeInterval(fraction)
            captureTimeZoneOffset = zone
            break
        }
        // No date but the GPS clock's: that, in UTC (its zone is unknown).
        if captureDate == nil, let gpsTime = location?.timestamp { captureDate = gpsTime }
    }

    /// The zone a camera clock was in, from its local time and the GPS clock's UTC time taken
    /// with it: their difference rounded to a quarter hour, when it is a plausible offset
    /// (within ±14 h) and the clocks agree to 5 minutes once it is applied. Phones that write
    /// no OffsetTime do write GPS time, so this keeps their zone instead of guessing.
    static func offset(local: ExifDate.LocalDateTime, utc: Date) -> Int? {
        guard let wall = local.date(offset: 0, defaultTimeZone: .gmt) else { return nil }
        let difference = wall.timeIntervalSince(utc)
        let quarters = (difference / 900).rounded()
        let offset = quarters * 900
        guard abs(offset) <= 14 * 3600, abs(difference - offset) <= 300 else { return nil }
        return Int(offset)
    }

    /// UserComment: 8 bytes naming the character code, then the text.
    static func userComment(_ value: TIFFValue, bigEndian: Bool) -> String? {
        guard case .undefined(let bytes) = value else { return value.string }
        guard bytes.count > 8 else { return TIFFParser.text(from: bytes) }
        let header = bytes[0 ..< 8], body = Array(bytes[8...])
        let text: String?
        if header.elementsEqual("UNICODE\0".utf8) {
            var units: [UInt16] = []
            var big = bigEndian
            var i = 0
            if body.count >= 2, body[0] == 0xFE, body[1] == 0xFF { big = true; i = 2 }
            if body.count >= 2, body[0] == 0xFF, body[1] == 0xFE { big = false; i = 2 }
            while i + 1 < body.count {
                units.append(big ? UInt16(body[i]) << 8 | UInt16(body[i + 1]) : UInt16(body[i + 1]) << 8 | UInt16(body[i]))
                i += 2
            }
            if let nul = units.firstIndex(of: 0) { units = Array(units[..<nul]) }
            text = String(decoding: units, as: UTF16.self)
        } else {
            // "ASCII\0\0\0", "JIS\0\0\0\0\0" or undefined (all zero): bytes as text.
            text = TIFFParser.text(from: body)
        }
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        return trimmed?.isEmpty == false ? trimmed : nil
    }

    /// The GPS IFD as a coordinate; `nil` unless latitude and longitude are present and in range.
    static func location(_ gps: TIFFDirectory) -> GPSCoordinate? {
        guard let latitude = degrees(gps[GPSTag.latitude]), let longitude = degrees(gps[GPSTag.longitude]) else {
            return nil
        }
        let latSign: Double = gps[GPSTag.latitudeRef]?.string?.uppercased().hasPrefix("S") == true ? -1 : 1
        let lonSign: Double = gps[GPSTag.longitudeRef]?.string?.uppercased().hasPrefix("W") == true ? -1 : 1
        var coordinate = GPSCoordinate(latitude: latSign * latitude, longitude: lonSign * longitude)
        guard coordinate.isValid else { return nil }

        if let altitude = gps[GPSTag.altitude]?.double, altitude.isFinite {
            let below = gps[GPSTag.altitudeRef].flatMap { ref -> Bool? in
                if case .undefined(let b) = ref { return b.first == 1 }
                return ref.int == 1
            } ?? false
            coordinate.altitude = below ? -altitude : altitude
        }
        if let error = gps[GPSTag.hPositioningError]?.double, error.isFinite, error >= 0 {
            coordinate.horizontalAccuracy = error
        }
        if let speed = gps[GPSTag.speed]?.double, speed.isFinite, speed >= 0 {
            let unit = gps[GPSTag.speedRef]?.string?.uppercased() ?? "K"
            let metresPerSecond: Double = switch unit {
            case "M": speed * 1609.344 / 3600
            case "N": speed * 1852 / 3600
            default: speed * 1000 / 3600
            }
            coordinate.speed = metresPerSecond
        }
        if let track = gps[GPSTag.track]?.double, track.isFinite, (0 ... 360).contains(track) {
            coordinate.course = track
        }
        if let day = gps[GPSTag.dateStamp]?.string, let time = gps[GPSTag.timeStamp]?.doubles,
           time.count == 3, let h = time[0], let m = time[1], let s = time[2],
           let midnight = ExifDate.LocalDateTime(exif: day + " 00:00:00")?.date(offset: 0, defaultTimeZone: .gmt) {
            let seconds = h * 3600 + m * 60 + s
            if seconds.isFinite, seconds >= 0, seconds < 86_401 {
                coordinate.timestamp = midnight.addingTimeInterval(seconds)
            }
        }
        return coordinate
    }

    /// Degrees from 1-3 rationals (deg, min, sec), or from text such as "52,0,50.0" or "52.0139".
    static func degrees(_ value: TIFFValue?) -> Double? {
        guard let value else { return nil }
        var parts: [Double?]
        if case .ascii(let text) = value {
            parts = text.split(whereSeparator: { ",; ".contains($0) }).map { part -> Double? in
                let pieces = part.split(separator: "/")
                if pieces.count == 2, let n = Double(pieces[0]), let d = Double(pieces[1]), d != 0 { return n / d }
                return Double(part)
            }
        } else {
            parts = value.doubles
        }
        if case .ascii = value { parts = Array(parts.prefix(3)) }  // as exiftool reads such text
        guard !parts.isEmpty, parts.count <= 3, let d = parts[0] else { return nil }
        let m = parts.count > 1 ? parts[1] : 0
        let s = parts.count > 2 ? parts[2] : 0
        guard let m, let s else { return nil }
        let result = d + m / 60 + s / 3600
        return result.isFinite ? result : nil
    }
}
