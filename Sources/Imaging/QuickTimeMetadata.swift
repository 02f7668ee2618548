import Foundation

/// What the `moov` box of an MP4/MOV/3GP says: size, rotation, timing, date and place.
struct QuickTimeMetadata: Equatable {
    var width = 0
    var height = 0
    var orientation = 1
    var duration: TimeInterval = 0
    var frameRate: Double?
    var frameCount: Int?
    var creationDate: Date?
    var creationTimeZoneOffset: Int?
    var location: GPSCoordinate?
    var make: String?
    var model: String?
    var software: String?
    /// Apple's Live Photo pairing key (`com.apple.quicktime.content.identifier`).
    var contentIdentifier: String?
    /// How Apple's camera recorded it (`com.apple.photos.captureMode`: "Time-lapse", "Slo-mo",
    /// "Cinematic", "Screen Recording"...).
    var captureMode: String?
    var hasVideoTrack = false

    /// Seconds between 1904-01-01 (the QuickTime epoch) and 1970-01-01.
    static let epochOffset: TimeInterval = 2_082_844_800

    /// Reads the interesting parts of `moov`.
    init(parser: ISOBMFFParser, moov: ISOBox, defaultTimeZone: TimeZone) {
        let children = parser.children(of: moov)
        var movieTimescale: UInt32 = 0
        var movieDuration: UInt64 = 0
        if let mvhd = children.first(where: { $0.type == "mvhd" }), let bytes = parser.payload(mvhd, limit: 4096) {
            var r = PayloadReader(bytes)
            let version = r.u8()
            _ = r.skip(3)
            let created: UInt64?
            if version == 1 {
                created = r.u64()
                _ = r.u64()
                movieTimescale = r.u32() ?? 0
                movieDuration = r.u64() ?? 0
            } else {
                created = r.u32().map(UInt64.init)
                _ = r.u32()
                movieTimescale = r.u32() ?? 0
                movieDuration = r.u32().map(UInt64.init) ?? 0
            }
            // 0 (1904) and 1970-01-01 are what writers put when they have no clock.
            if let created, created > UInt64(Self.epochOffset) + 86_400, created < UInt64(Self.epochOffset) * 4 {
                creationDate = Date(timeIntervalSince1970: TimeInterval(created) - Self.epochOffset)
            }
            if movieTimescale > 0 { duration = TimeInterval(movieDuration) / TimeInterval(movieTimescale) }
        }

        for trak in children where trak.type == "trak" {
            guard let track = Track(parser: parser, trak: trak), track.isVideo, !hasVideoTrack else { continue }
            hasVideoTrack = true
            width = track.width
            height = track.height
            orientation = track.orientation
            frameRate = track.frameRate
            frameCount = track.sampleCount
            if duration == 0, let trackDuration = track.duration { duration = trackDuration }
        }

        // Metadata: QuickTime keys/ilst in moov/meta and moov/udta/meta, classic udta atoms.
        var items: [String: String] = [:]
        for meta in children where meta.type == "meta" {
            items.merge(Self.keyedItems(parser: parser, meta: meta)) { old, _ in old }
        }
        if let udta = children.first(where: { $0.type == "udta" }) {
            for box in parser.children(of: udta) {
                switch box.type {
                case "meta":
                    items.merge(Self.keyedItems(parser: parser, meta: box)) { old, _ in old }
                case "\u{A9}xyz", "\u{A9}day", "\u{A9}mak", "\u{A9}mod", "\u{A9}swr":
                    if let text = Self.userDataText(parser.payload(box, limit: 4096)) {
                        items[Self.classicKeys[box.type] ?? box.type] = items[Self.classicKeys[box.type] ?? box.type] ?? text
                    }
                default:
                    break
                }
            }
        }
        if let text = items["com.apple.quicktime.location.ISO6709"], let place = ISO6709.parse(text) {
            location = place
        }
        if let text = items["com.apple.quicktime.creationdate"],
           let (date, offset) = ExifDate.iso8601(text, defaultTimeZone: defaultTimeZone) {
            creationDate = date
            creationTimeZoneOffset = offset
        }
        make = items["com.apple.quicktime.make"]
        model = items["com.apple.quicktime.model"]
        software = items["com.apple.quicktime.software"]
        contentIdentifier = items["com.apple.quicktime.content.identifier"]?.uppercased()
        captureMode = items["com.apple.photos.captureMode"]
    }

    /// Classic QuickTime user-data atoms, named like their `mdta` key equivalents.
    static let classicKeys: [String: String] = [
        "\u{A9}xyz": "com.apple.quicktime.location.ISO6709",
        "\u{A9}day": "com.apple.quicktime.creationdate",
        "\u{A9}mak": "com.apple.quicktime.make",
        "\u{A9}mod": "com.apple.quicktime.model",
        "\u{A9}swr": "com.apple.quicktime.software",
    ]

    /// A classic user-data text atom: 16-bit length, 16-bit language, then the text. Some
    /// writers store a `data` box instead, as in `ilst`.
    static func userDataText(_ bytes: [UInt8]?) -> String? {
        guard let bytes, bytes.count >= 4 else { return nil }
        if bytes.count >= 16, bytes[4 ..< 8].elementsEqual("data".utf8) {
            return TIFFParser.text(from: Array(bytes[16...]))
        }
        var r = PayloadReader(bytes)
        guard let length = r.u16(), r.skip(2), let text = r.take(Int(length)) else {
            return TIFFParser.text(from: bytes)
        }
        return TIFFParser.text(from: text)
    }

    /// The string items of a `meta` box with `keys` and `ilst` (QuickTime metadata), keyed by
    /// their `mdta` names; iTunes-style `ilst` items are keyed by their atom type.
    static func keyedItems(parser: ISOBMFFParser, meta: ISOBox) -> [String: String] {
        let boxes = parser.metaChildren(meta)
        var keys: [String] = []
        if let keysBox = boxes.first(where: { $0.type == "keys" }), let bytes = parser.payload(keysBox) {
            var r = PayloadReader(bytes)
            _ = r.skip(4)
            let count = min(Int(r.u32() ?? 0), 4096)
            for _ in 0 ..< count {
                guard let size = r.u32(), size >= 8, let _ = r.take(4), let name = r.take(Int(size) - 8) else { break }
                keys.append(String(decoding: name, as: UTF8.self))
            }
        }
        var items: [String: String] = [:]
        guard let ilst = boxes.first(where: { $0.type == "ilst" }) else { return items }
        for item in parser.children(of: ilst) {
            let typeBytes = item.type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
            let index = typeBytes.reduce(0) { $0 << 8 | Int($1) }
            let name: String
            if index >= 1, index <= keys.count {
                name = keys[index - 1]
            } else if let classic = classicKeys[item.type] {
                name = classic
            } else {
                continue
            }
            guard let data = parser.child("data", of: item), let bytes = parser.payload(data, limit: 64 * 1024),
                  bytes.count > 8 else { continue }
            let typeIndicator = Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
            // 1 UTF-8, 2 UTF-16; other types (numbers, images) are not needed here.
            switch typeIndicator {
            case 1: items[name] = TIFFParser.text(from: Array(bytes[8...]))
            case 2:
                let body = Array(bytes[8...])
                let units = stride(from: 0, to: body.count - 1, by: 2).map { UInt16(body[$0]) << 8 | UInt16(body[$0 + 1]) }
                items[name] = String(decoding: units, as: UTF16.self)
            default: break
            }
        }
        return items
    }
}

/// One `trak`: its kind, size, rotation and timing.
struct Track {
    var isVideo = false
    var width = 0
    var height = 0
    var orientation = 1
    var duration: TimeInterval?
    var frameRate: Double?
    var sampleCount: Int?

    init?(parser: ISOBMFFParser, trak: ISOBox) {
        guard let mdia = parser.child("mdia", of: trak) else { return nil }
        if let hdlr = parser.child("hdlr", of: mdia), let bytes = parser.payload(hdlr, limit: 4096), bytes.count >= 12 {
            isVideo = bytes[8 ..< 12].elementsEqual("vide".utf8)
        }
        if let tkhd = parser.child("tkhd", of: trak), let bytes = parser.payload(tkhd, limit: 4096) {
            var r = PayloadReader(bytes)
            let version = r.u8()
            _ = r.skip(3)
            _ = r.skip(version == 1 ? 8 + 8 + 4 + 4 + 8 : 4 + 4 + 4 + 4 + 4)
            _ = r.skip(8 + 2 + 2 + 2 + 2)
            var matrix: [Int32] = []
            for _ in 0 ..< 9 { if let v = r.u32() { matrix.append(Int32(bitPattern: v)) } }
            if let w = r.u32(), let h = r.u32() {
                width = Int(w >> 16)
                height = Int(h >> 16)
            }
            if matrix.count == 9 { orientation = Self.orientation(matrix) }
        }
        var timescale: UInt32 = 0
        var mediaDuration: UInt64 = 0
        if let mdhd = parser.child("mdhd", of: mdia), let bytes = parser.payload(mdhd, limit: 4096) {
            var r = PayloadReader(bytes)
            let version = r.u8()
            _ = r.skip(3)
            if version == 1 {
                _ = r.skip(16)
                timescale = r.u32() ?? 0
                mediaDuration = r.u64() ?? 0
            } else {
                _ = r.skip(8)
                timescale = r.u32() ?? 0
                mediaDuration = r.u32().map(UInt64.init) ?? 0
            }
            if timescale > 0 { duration = TimeInterval(mediaDuration) / TimeInterval(timescale) }
        }
        guard let stbl = parser.descend(mdia, "minf", "stbl") else { return }
        var samples: UInt64 = 0
        var ticks: UInt64 = 0
        if let stts = parser.child("stts", of: stbl), let bytes = parser.payload(stts, limit: 16 << 20) {
            var r = PayloadReader(bytes)
            _ = r.skip(4)
            let entries = Int(r.u32() ?? 0)
            for _ in 0 ..< entries {
                guard let count = r.u32(), let delta = r.u32() else { break }
                samples &+= UInt64(count)
                ticks &+= UInt64(count) &* UInt64(delta)
            }
        } else if let stsz = parser.child("stsz", of: stbl), let bytes = parser.payload(stsz, limit: 64) {
            var r = PayloadReader(bytes)
            _ = r.skip(8)
            samples = UInt64(r.u32() ?? 0)
            ticks = mediaDuration
        }
        if samples > 0 { sampleCount = Int(clamping: samples) }
        if samples > 0, ticks > 0, timescale > 0 {
            frameRate = Double(samples) * Double(timescale) / Double(ticks)
        }
        if (width == 0 || height == 0), let stsd = parser.child("stsd", of: stbl),
           let bytes = parser.payload(stsd, limit: 1 << 16) {
            // Full box (4), entry count (4), then the first sample entry: size, format,
            // 6 reserved, data reference index, 16 bytes of visual pre-defined fields, w, h.
            var r = PayloadReader(bytes)
            if r.skip(8 + 8 + 8 + 16), let w = r.u16(), let h = r.u16() {
                width = Int(w)
                height = Int(h)
            }
        }
    }

    /// A track matrix's rotation/mirroring as the EXIF orientation that shows it upright.
    static func orientation(_ m: [Int32]) -> Int {
        let a = m[0], b = m[1], c = m[3], d = m[4]
        if a == 0, d == 0 {
            if b > 0, c < 0 { return 6 }
            if b < 0, c > 0 { return 8 }
            if b > 0, c > 0 { return 5 }
            if b < 0, c < 0 { return 7 }
        }
        if b == 0, c == 0 {
            if a < 0, d < 0 { return 3 }
            if a < 0, d > 0 { return 2 }
            if a > 0, d < 0 { return 4 }
        }
        return 1
    }
}

/// ISO 6709 positions as QuickTime writes them: "+37.3318-122.0312+010.000/",
/// "+4738.15-12221.62/" (degrees and minutes) or "+473815-1222162/" (degrees, minutes, seconds).
enum ISO6709 {
    static func parse(_ text: String) -> GPSCoordinate? {
        var numbers: [(sign: Double, digits: String)] = []
        var current: (sign: Double, digits: String)?
        for ch in text {
            if ch == "+" || ch == "-" {
                if let c = current { numbers.append(c) }
                current = (ch == "-" ? -1 : 1, "")
            } else if ch.isASCII, ch.isNumber || ch == "." {
                current?.digits.append(ch)
            } else {
                break
            }
        }
        if let c = current { numbers.append(c) }
        guard numbers.count >= 2,
              let lat = degrees(numbers[0].digits, degreeDigits: 2),
              let lon = degrees(numbers[1].digits, degreeDigits: 3)
        else { return nil }
        var coordinate = GPSCoordinate(latitude: numbers[0].sign * lat, longitude: numbers[1].sign * lon)
        if numbers.count >= 3, let altitude = Double(numbers[2].digits) {
            coordinate.altitude = numbers[2].sign * altitude
        }
        return coordinate.isValid ? coordinate : nil
    }

    /// ±DD.D, ±DDMM.M or ±DDMMSS.S (latitude; longitude has three degree digits).
    private static func degrees(_ digits: String, degreeDigits: Int) -> Double? {
        let integer = digits.prefix { $0 != "." }
        let fraction = digits.dropFirst(integer.count)
        guard !integer.isEmpty, let value = Double(digits) else { return nil }
        switch integer.count {
        case ...degreeDigits:
            return value
        case degreeDigits + 2:
            guard let d = Double(integer.prefix(degreeDigits)), let m = Double(integer.dropFirst(degreeDigits) + fraction) else { return nil }
            return d + m / 60
        case degreeDigits + 4:
            guard let d = Double(integer.prefix(degreeDigits)),
                  let m = Double(integer.dropFirst(degreeDigits).prefix(2)),
                  let s = Double(integer.dropFirst(degreeDigits + 2) + fraction) else { return nil }
            return d + m / 60 + s / 3600
        default:
            return nil
        }
    }
}
