public import Foundation

/// Writes minimal, structurally valid MP4/MOV/3GP files: `ftyp`, `moov` (`mvhd`, one video
/// `trak` with `tkhd`/`mdia`/`mdhd`/`hdlr`/`minf`/`stbl`/`stsd`/`stts`/`stsz`, optional
/// `udta/©xyz` and QuickTime `meta` keys) and an `mdat` with no real frames. Enough for
/// container parsers; no decoder will play it.
public struct TestMovie: Sendable {
    /// The container flavour, which sets the ftyp brands.
    public enum Brand: Sendable { case mp4, mov, m4v, threeGP }

    /// The ftyp brands to write.
    public var brand: Brand = .mp4
    /// Track width in pixels (tkhd and the sample entry).
    public var width = 1920
    /// Track height in pixels.
    public var height = 1080
    /// Clockwise display rotation written into the track matrix: 0, 90, 180 or 270.
    public var rotation = 0
    /// Movie and track length in seconds.
    public var duration: TimeInterval = 2
    /// Frames per second (sample count = duration x frame rate).
    public var frameRate: Double = 30
    /// mvhd/tkhd/mdhd creation time (UTC); `nil` writes 0.
    public var creationDate: Date?
    /// Write 64-bit (version 1) mvhd, tkhd and mdhd.
    public var version1Headers = false
    /// ISO 6709 text for `udta/©xyz` (Android style), e.g. "+37.3318-122.0312+010.000/".
    public var userDataLocation: String?
    /// ISO 6709 text for the `com.apple.quicktime.location.ISO6709` key.
    public var appleLocation: String?
    /// ISO 8601 text for the `com.apple.quicktime.creationdate` key.
    public var appleCreationDate: String?
    /// Other `mdta` string keys (make, model, software...).
    public var appleKeys: [String: String] = [:]
    /// Bytes of dummy media data in `mdat`.
    public var mediaDataSize = 1024
    /// Write `mdat` with a 64-bit size (size field 1 + largesize).
    public var largeMediaDataBox = false
    /// Write `mdat` last with size 0 ("to the end of the file").
    public var mediaDataSizeZero = false
    /// Put `moov` after `mdat` (as cameras do) instead of before it (as "fast start" files do).
    public var moovAtEnd = true
    /// Leave out `moov` entirely (a broken file).
    public var omitMoov = false

    /// A 2-second 1920x1080 30 fps MP4 with no metadata; change the fields for more.
    public init() {}

    /// The file's bytes.
    public func data() -> Data {
        var boxes: [[UInt8]] = [ftyp()]
        let mdat = mediaData()
        let moovBox = omitMoov ? [] : moov()
        if moovAtEnd && !mediaDataSizeZero {
            boxes += [mdat, moovBox]
        } else {
            boxes += [moovBox, mdat]
        }
        return Data(boxes.joined())
    }

    // MARK: - Boxes

    static let timescale: UInt32 = 600
    static let epochOffset: TimeInterval = 2_082_844_800

    func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }) + payload
    }

    func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }

    func ftyp() -> [UInt8] {
        let brands: [String] = switch brand {
        case .mp4: ["isom", "isom", "iso2", "avc1", "mp41"]
        case .mov: ["qt  ", "qt  "]
        case .m4v: ["M4V ", "M4V ", "M4A ", "mp42", "isom"]
        case .threeGP: ["3gp4", "isom", "3gp4"]
        }
        let bytes = brands.flatMap { Array($0.utf8) }
        return box("ftyp", Array(bytes[0 ..< 4]) + be32(0x200) + Array(bytes[4...]))
    }

    func mediaData() -> [UInt8] {
        let payload = [UInt8](repeating: 0xAB, count: mediaDataSize)
        if mediaDataSizeZero {
            return be32(0) + Array("mdat".utf8) + payload
        }
        if largeMediaDataBox {
            return be32(1) + Array("mdat".utf8) + be64(UInt64(16 + payload.count)) + payload
        }
        return box("mdat", payload)
    }

    var creationSeconds: UInt64 {
        creationDate.map { UInt64(max(0, $0.timeIntervalSince1970 + Self.epochOffset)) } ?? 0
    }

    var frameCount: UInt32 { UInt32(max(1, (duration * frameRate).rounded())) }

    func times(duration ticks: UInt64, timescale: UInt32?) -> [UInt8] {
        if version1Headers {
            return be64(creationSeconds) + be64(creationSeconds) + (timescale.map(be32) ?? []) + be64(ticks)
        }
        return be32(UInt32(creationSeconds)) + be32(UInt32(creationSeconds)) + (timescale.map(be32) ?? []) + be32(UInt32(ticks))
    }

    func matrix() -> [UInt8] {
        let one: Int32 = 0x10000, w: Int32 = 0x4000_0000
        let (a, b, c, d): (Int32, Int32, Int32, Int32) = switch rotation {
        case 90: (0, one, -one, 0)
        case 180: (-one, 0, 0, -one)
        case 270: (0, -one, one, 0)
        default: (one, 0, 0, one)
        }
        return [a, b, 0, c, d, 0, 0, 0, w].flatMap { be32(UInt32(bitPattern: $0)) }
    }

    func moov() -> [UInt8] {
        let ticks = UInt64((duration * Double(Self.timescale)).rounded())
        let mvhd = fullBox("mvhd", version: version1Headers ? 1 : 0,
            times(duration: ticks, timescale: Self.timescale)
                + be32(0x0001_0000) + be16(0x0100) + [UInt8](repeating: 0, count: 10) + matrixIdentity()
                + [UInt8](repeating: 0, count: 24) + be32(2))
        var children = mvhd + trak(ticks: ticks)
        if let userDataLocation {
            let text = Array(userDataLocation.utf8)
            children += box("udta", box("\u{A9}xyz", be16(UInt16(text.count)) + be16(0x15C7) + text))
        }
        var keys = appleKeys
        if let appleLocation { keys["com.apple.quicktime.location.ISO6709"] = appleLocation }
        if let appleCreationDate { keys["com.apple.quicktime.creationdate"] = appleCreationDate }
        if !keys.isEmpty { children += meta(keys.sorted { $0.key < $1.key }) }
        return box("moov", children)
    }

    func matrixIdentity() -> [UInt8] {
        [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000].flatMap { be32(UInt32($0)) }
    }

    func trak(ticks: UInt64) -> [UInt8] {
        let tkhd = fullBox("tkhd", version: version1Headers ? 1 : 0, flags: 3,
            (version1Headers ? be64(creationSeconds) + be64(creationSeconds) : be32(UInt32(creationSeconds)) + be32(UInt32(creationSeconds)))
                + be32(1) + be32(0) + (version1Headers ? be64(ticks) : be32(UInt32(ticks)))
                + [UInt8](repeating: 0, count: 8) + be16(0) + be16(0) + be16(0) + be16(0)
                + matrix() + be32(UInt32(width) << 16) + be32(UInt32(height) << 16))
        let mediaTimescale: UInt32 = UInt32((frameRate * 1000).rounded())
        let delta: UInt32 = 1000
        let mediaTicks = UInt64(frameCount) * UInt64(delta)
        let mdhd = fullBox("mdhd", version: version1Headers ? 1 : 0,
            times(duration: mediaTicks, timescale: mediaTimescale) + be16(0x55C4) + be16(0))
        let hdlr = fullBox("hdlr", be32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 12) + Array("VideoHandler\0".utf8))
        let visualEntry = box("avc1",
            [UInt8](repeating: 0, count: 6) + be16(1) + [UInt8](repeating: 0, count: 16)
                + be16(UInt16(width)) + be16(UInt16(height)) + be32(0x0048_0000) + be32(0x0048_0000) + be32(0)
                + be16(1) + [UInt8](repeating: 0, count: 32) + be16(0x18) + be16(0xFFFF))
        let stsd = fullBox("stsd", be32(1) + visualEntry)
        let stts = fullBox("stts", be32(1) + be32(frameCount) + be32(delta))
        let stsz = fullBox("stsz", be32(1) + be32(frameCount))
        let stbl = box("stbl", stsd + stts + stsz)
        let minf = box("minf", fullBox("vmhd", flags: 1, [UInt8](repeating: 0, count: 8)) + stbl)
        let mdia = box("mdia", mdhd + hdlr + minf)
        return box("trak", tkhd + mdia)
    }

    func meta(_ items: [(key: String, value: String)]) -> [UInt8] {
        let hdlr = fullBox("hdlr", be32(0) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        var keyEntries: [UInt8] = []
        for item in items {
            let name = Array(item.key.utf8)
            keyEntries += be32(UInt32(8 + name.count)) + Array("mdta".utf8) + name
        }
        let keys = fullBox("keys", be32(UInt32(items.count)) + keyEntries)
        var ilst: [UInt8] = []
        for (index, item) in items.enumerated() {
            let data = box("data", be32(1) + be32(0) + Array(item.value.utf8))
            ilst += be32(UInt32(8 + data.count)) + be32(UInt32(index + 1)) + data
        }
        // QuickTime's meta is a plain container (no version/flags).
        return box("meta", hdlr + keys + box("ilst", ilst))
    }
}
