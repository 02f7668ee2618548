public import Foundation

/// Writes a valid EXIF block (a TIFF structure with IFD0, the Exif IFD and the GPS IFD) with
/// chosen fields, for tests that need photos carrying known metadata.
///
/// `exifData()` gives the form libvips keeps in `exif-data` and writes into a JPEG APP1
/// segment: "Exif\0\0" then the TIFF structure. `tiffData()` gives the bare TIFF structure (the
/// form of a PNG eXIf chunk). Both byte orders can be written.
public struct ExifBuilder: Sendable, Equatable {
    /// TIFF byte order.
    public enum ByteOrder: Sendable, Equatable {
        /// "II": Intel, little-endian (most cameras and phones).
        case littleEndian
        /// "MM": Motorola, big-endian (Nikon, Apple's HEIC).
        case bigEndian
    }

    /// Byte order of the TIFF structure.
    public var byteOrder: ByteOrder = .littleEndian
    /// IFD0 Make.
    public var make: String?
    /// IFD0 Model.
    public var model: String?
    /// EXIF orientation 1...8.
    public var orientation: Int?
    /// IFD0 Software.
    public var software: String?
    /// IFD0 DateTime (modification date), "YYYY:MM:DD HH:MM:SS".
    public var dateTime: String?
    /// Exif DateTimeOriginal, "YYYY:MM:DD HH:MM:SS".
    public var dateTimeOriginal: String?
    /// Exif SubSecTimeOriginal, e.g. "123".
    public var subSecTimeOriginal: String?
    /// Exif OffsetTimeOriginal, e.g. "+02:00".
    public var offsetTimeOriginal: String?
    /// Exif DateTimeDigitized (exiftool's CreateDate), "YYYY:MM:DD HH:MM:SS".
    public var dateTimeDigitized: String?
    /// Exif OffsetTime (the offset of `dateTime`).
    public var offsetTime: String?
    /// Exif LensModel.
    public var lensModel: String?
    /// Exif UserComment, written with the ASCII character code (UNICODE if not ASCII).
    public var userComment: String?
    /// Exif PixelXDimension.
    public var pixelXDimension: Int?
    /// Exif PixelYDimension.
    public var pixelYDimension: Int?
    /// Signed decimal degrees north; written as an N/S ref with unsigned DMS rationals.
    public var latitude: Double?
    /// Signed decimal degrees east (negative is west).
    public var longitude: Double?
    /// Metres; negative values are written with GPSAltitudeRef 1 (below sea level).
    public var altitude: Double?
    /// Written as GPSDateStamp + GPSTimeStamp (UTC).
    public var gpsTimestamp: Date?
    /// GPSHPositioningError, metres.
    public var gpsHorizontalError: Double?
    /// GPSSpeed in km/h (GPSSpeedRef "K").
    public var gpsSpeedKilometresPerHour: Double?
    /// GPSTrack in degrees (GPSTrackRef "T").
    public var gpsTrack: Double?
    /// IFD0 ImageWidth, as a TIFF or RAW file's main image has.
    public var imageWidth: Int?
    /// IFD0 ImageLength.
    public var imageLength: Int?
    /// Writes IFD0 DNGVersion 1.4.0.0, which marks a TIFF as a DNG.
    public var dngVersion = false
    /// EXIF CustomRendered (0xA401): iOS writes 2/3 for HDR, 6 for a panorama, 8 for Portrait.
    public var customRendered: Int?
    /// An Apple ("Apple iOS") maker note with these fields.
    public var appleMakerNote: AppleMakerNote?

    /// The Apple maker note fields the library reads (tag numbers as exiftool names them).
    public struct AppleMakerNote: Sendable, Equatable {
        /// 0x000A HDRImageType: 3 = HDR image, 4 = the original kept beside it.
        public var hdrImageType: Int?
        /// 0x000B BurstUUID.
        public var burstUUID: String?
        /// 0x0011 ContentIdentifier: the Live Photo pairing key.
        public var contentIdentifier: String?
        /// 0x0014 ImageCaptureType: 2 = Portrait.
        public var imageCaptureType: Int?
        /// 0x0045 FrontFacingCamera.
        public var frontFacingCamera: Bool?

        public init(
            hdrImageType: Int? = nil, burstUUID: String? = nil, contentIdentifier: String? = nil,
            imageCaptureType: Int? = nil, frontFacingCamera: Bool? = nil
        ) {
            self.hdrImageType = hdrImageType
            self.burstUUID = burstUUID
            self.contentIdentifier = contentIdentifier
            self.imageCaptureType = imageCaptureType
            self.frontFacingCamera = frontFacingCamera
        }

        /// "Apple iOS\0", version 1, "MM", then a big-endian IFD at offset 14 whose value
        /// offsets count from the start of the note.
        func bytes() -> [UInt8] {
            func int32(_ tag: UInt16, _ value: Int) -> Entry {
                Entry(tag: tag, type: 9, count: 1, payload: Entry.littleEndian(UInt32(bitPattern: Int32(value))), unitSize: 4)
            }
            var entries: [Entry] = [int32(0x0001, 14)]
            if let hdrImageType { entries.append(int32(0x000A, hdrImageType)) }
            if let burstUUID { entries.append(.ascii(0x000B, burstUUID)) }
            if let contentIdentifier { entries.append(.ascii(0x0011, contentIdentifier)) }
            if let imageCaptureType { entries.append(int32(0x0014, imageCaptureType)) }
            if let frontFacingCamera { entries.append(int32(0x0045, frontFacingCamera ? 1 : 0)) }
            let header = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
            return header + ExifBuilder(byteOrder: .bigEndian).directory(entries, at: header.count)
        }
    }
    /// A JPEG stored after the directories and pointed at by IFD0's JPEGInterchangeFormat and
    /// JPEGInterchangeFormatLength, as camera RAW files embed their previews. With this,
    /// `tiffData()` is a minimal TIFF-based RAW file.
    public var previewJPEG: Data?

    /// Creates a builder; set the fields wanted.
    public init(
        byteOrder: ByteOrder = .littleEndian, make: String? = nil, model: String? = nil, orientation: Int? = nil,
        software: String? = nil, dateTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil,
        offsetTimeOriginal: String? = nil, lensModel: String? = nil, userComment: String? = nil,
        latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil
    ) {
        self.byteOrder = byteOrder
        self.make = make
        self.model = model
        self.orientation = orientation
        self.software = software
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.lensModel = lensModel
        self.userComment = userComment
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// "Exif\0\0" followed by the TIFF structure: what libvips stores in `exif-data`.
    public func exifData() -> Data { Data("Exif\0\0".utf8) + tiffData() }

    /// The bare TIFF structure.
    public func tiffData() -> Data {
        var ifd0: [Entry] = []
        var exif: [Entry] = []
        var gps: [Entry] = []
        if let make { ifd0.append(.ascii(0x010F, make)) }
        if let model { ifd0.append(.ascii(0x0110, model)) }
        if let orientation { ifd0.append(.short(0x0112, [UInt16(clamping: orientation)])) }
        if let software { ifd0.append(.ascii(0x0131, software)) }
        if let dateTime { ifd0.append(.ascii(0x0132, dateTime)) }
        if let imageWidth { ifd0.append(.long(0x0100, UInt32(clamping: imageWidth))) }
        if let imageLength { ifd0.append(.long(0x0101, UInt32(clamping: imageLength))) }
        if dngVersion { ifd0.append(Entry(tag: 0xC612, type: 1, count: 4, payload: [1, 4, 0, 0])) }

        exif.append(Entry(tag: 0x9000, type: 7, count: 4, payload: Array("0232".utf8)))
        if let dateTimeOriginal { exif.append(.ascii(0x9003, dateTimeOriginal)) }
        if let dateTimeDigitized { exif.append(.ascii(0x9004, dateTimeDigitized)) }
        if let offsetTime { exif.append(.ascii(0x9010, offsetTime)) }
        if let offsetTimeOriginal { exif.append(.ascii(0x9011, offsetTimeOriginal)) }
        if let userComment {
            let payload: [UInt8] = userComment.allSatisfy(\.isASCII)
                ? Array("ASCII\0\0\0".utf8) + Array(userComment.utf8)
                : Array("UNICODE\0".utf8) + userComment.utf16.flatMap { unit -> [UInt8] in
                    byteOrder == .bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                }
            exif.append(Entry(tag: 0x9286, type: 7, count: UInt32(payload.count), payload: payload))
        }
        if let subSecTimeOriginal { exif.append(.ascii(0x9291, subSecTimeOriginal)) }
        if let pixelXDimension { exif.append(.long(0xA002, UInt32(clamping: pixelXDimension))) }
        if let pixelYDimension { exif.append(.long(0xA003, UInt32(clamping: pixelYDimension))) }
        if let lensModel { exif.append(.ascii(0xA434, lensModel)) }
        if let customRendered { exif.append(.short(0xA401, [UInt16(clamping: customRendered)])) }
        if let appleMakerNote {
            let note = appleMakerNote.bytes()
            exif.append(Entry(tag: 0x927C, type: 7, count: UInt32(note.count), payload: note))
        }

        if latitude != nil || longitude != nil || altitude != nil || gpsTimestamp != nil {
            gps.append(Entry(tag: 0x0000, type: 1, count: 4, payload: [2, 3, 0, 0]))
        }
        if let latitude {
            gps.append(.ascii(0x0001, latitude < 0 ? "S" : "N"))
            gps.append(.rationals(0x0002, Self.dms(abs(latitude))))
        }
        if let longitude {
            gps.append(.ascii(0x0003, longitude < 0 ? "W" : "E"))
            gps.append(.rationals(0x0004, Self.dms(abs(longitude))))
        }
        if let altitude {
            gps.append(Entry(tag: 0x0005, type: 1, count: 1, payload: [altitude < 0 ? 1 : 0]))
            gps.append(.rationals(0x0006, [Self.rational(abs(altitude), denominator: 1000)]))
        }
        if let gpsTimestamp {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: gpsTimestamp)
            let seconds = Double(c.second ?? 0) + Double(c.nanosecond ?? 0) / 1e9
            gps.append(.rationals(0x0007, [
                (UInt32(c.hour ?? 0), 1), (UInt32(c.minute ?? 0), 1), Self.rational(seconds, denominator: 1000),
            ]))
            gps.append(.ascii(0x001D, String(format: "%04d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)))
        }
        if let gpsSpeedKilometresPerHour {
            gps.append(.ascii(0x000C, "K"))
            gps.append(.rationals(0x000D, [Self.rational(gpsSpeedKilometresPerHour, denominator: 1000)]))
        }
        if let gpsTrack {
            gps.append(.ascii(0x000E, "T"))
            gps.append(.rationals(0x000F, [Self.rational(gpsTrack, denominator: 1000)]))
        }
        if let gpsHorizontalError {
            gps.append(.rationals(0x001F, [Self.rational(gpsHorizontalError, denominator: 1000)]))
        }

        // Layout: header, IFD0 (+ values), Exif IFD (+ values), GPS IFD (+ values).
        let hasGPS = !gps.isEmpty
        let pointerCount = 1 + (hasGPS ? 1 : 0) + (previewJPEG != nil ? 2 : 0)
        let ifd0Size = Self.directorySize(entries: ifd0.count + pointerCount, values: ifd0)
        let exifOffset = 8 + ifd0Size
        let exifSize = Self.directorySize(entries: exif.count, values: exif)
        let gpsOffset = exifOffset + exifSize
        let gpsSize = hasGPS ? Self.directorySize(entries: gps.count, values: gps) : 0
        ifd0.append(.long(0x8769, UInt32(exifOffset)))
        if hasGPS { ifd0.append(.long(0x8825, UInt32(gpsOffset))) }
        if let previewJPEG {
            ifd0.append(.long(0x0201, UInt32(gpsOffset + gpsSize)))
            ifd0.append(.long(0x0202, UInt32(previewJPEG.count)))
        }

        var out: [UInt8] = byteOrder == .littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        out += u32(8)
        out += directory(ifd0, at: 8)
        out += directory(exif, at: exifOffset)
        if hasGPS { out += directory(gps, at: gpsOffset) }
        return Data(out) + (previewJPEG ?? Data())
    }

    // MARK: - Encoding

    struct Entry: Sendable {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// Payload in little-endian for numbers; converted on write.
        var payload: [UInt8]
        var unitSize: Int = 1

        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: UInt32(bytes.count), payload: bytes)
        }

        static func short(_ tag: UInt16, _ values: [UInt16]) -> Entry {
            Entry(tag: tag, type: 3, count: UInt32(values.count),
                  payload: values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, unitSize: 2)
        }

        static func long(_ tag: UInt16, _ value: UInt32) -> Entry {
            Entry(tag: tag, type: 4, count: 1, payload: littleEndian(value), unitSize: 4)
        }

        static func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
            Entry(tag: tag, type: 5, count: UInt32(values.count),
                  payload: values.flatMap { littleEndian($0.0) + littleEndian($0.1) }, unitSize: 4)
        }

        static func littleEndian(_ v: UInt32) -> [UInt8] {
            [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        }
    }

    static func directorySize(entries: Int, values: [Entry]) -> Int {
        2 + 12 * entries + 4 + values.reduce(0) { $0 + ($1.payload.count > 4 ? ($1.payload.count + 1) & ~1 : 0) }
    }

    func u16(_ v: UInt16) -> [UInt8] {
        byteOrder == .littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }

    func u32(_ v: UInt32) -> [UInt8] {
        let le = Entry.littleEndian(v)
        return byteOrder == .littleEndian ? le : le.reversed()
    }

    /// Payload bytes in the file's byte order (numbers are swapped unit by unit).
    func ordered(_ entry: Entry) -> [UInt8] {
        guard byteOrder == .bigEndian, entry.unitSize > 1 else { return entry.payload }
        var out: [UInt8] = []
        var i = 0
        while i + entry.unitSize <= entry.payload.count {
            out += entry.payload[i ..< i + entry.unitSize].reversed()
            i += entry.unitSize
        }
        return out
    }

    func directory(_ unsorted: [Entry], at offset: Int) -> [UInt8] {
        let entries = unsorted.sorted { $0.tag < $1.tag }
        var valueOffset = offset + 2 + 12 * entries.count + 4
        var head: [UInt8] = u16(UInt16(entries.count))
        var values: [UInt8] = []
        for entry in entries {
            head += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            let bytes = ordered(entry)
            if bytes.count <= 4 {
                head += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                head += u32(UInt32(valueOffset))
                values += bytes
                if bytes.count % 2 == 1 { values.append(0) }
                valueOffset += (bytes.count + 1) & ~1
            }
        }
        head += u32(0)
        return head + values
    }

    static func rational(_ value: Double, denominator: UInt32) -> (UInt32, UInt32) {
        (UInt32(clamping: Int((value * Double(denominator)).rounded())), denominator)
    }

    /// Degrees as (degrees, minutes, seconds) rationals, seconds to a millionth.
    static func dms(_ degrees: Double) -> [(UInt32, UInt32)] {
        let d = degrees.rounded(.down)
        let minutesTotal = (degrees - d) * 60
        let m = minutesTotal.rounded(.down)
        let s = (minutesTotal - m) * 60
        return [(UInt32(d), 1), (UInt32(m), 1), rational(s, denominator: 1_000_000)]
    }

    /// An EXIF date string ("YYYY:MM:DD HH:MM:SS") for `date` as seen in `timeZone`.
    public static func exifDate(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d:%02d:%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }
}
