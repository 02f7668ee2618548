public import Foundation

/// One damaged file, made from a real one.
public struct MalformedInput: Sendable, CustomStringConvertible {
    /// A short name ("png-idat-crc"), also the file's name without its extension.
    public let name: String
    public let fileExtension: String
    public let data: Data
    /// What was done to the real file.
    public let damage: String
    /// Words the refusal must contain; `nil` for damage inside compressed pixel data, which no
    /// structural check can see (such a file may import, and then fail to render).
    public let expectedReason: String?

    public var fileName: String { "\(name).\(fileExtension)" }
    public var description: String { name }

    /// Writes the file into `folder`.
    @discardableResult
    public func write(into folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(fileName)
        try data.write(to: url)
        return url
    }
}

/// The variants of one real file, collected as they are made.
struct Variants {
    let fileExtension: String
    private(set) var inputs: [MalformedInput] = []

    init(fileExtension: String) {
        self.fileExtension = fileExtension
    }

    mutating func add(_ name: String, _ data: [UInt8], _ damage: String, _ reason: String?) {
        inputs.append(MalformedInput(name: name, fileExtension: fileExtension, data: Data(data), damage: damage, expectedReason: reason))
    }
}

/// The malformed-input set of issue 18: real files from `.fixtures/` and `.corpus/` (made by
/// `make fixtures`), truncated, bit-flipped, with wrong CRCs, looping or missing IFDs, chunks,
/// boxes and sample tables pointing past the end, and absurd dimensions. Each variant is small
/// and made in memory; `scripts/malformed-corpus.py` makes a larger set from the whole corpus.
public enum MalformedInputs {
    /// The real-photo corpus (`PHOTOKIT_CORPUS`, else `<package root>/.corpus`).
    public static let corpus: URL = {
        if let path = ProcessInfo.processInfo.environment["PHOTOKIT_CORPUS"] { return URL(fileURLWithPath: path) }
        return Fixtures.packageRoot.appendingPathComponent(".corpus", isDirectory: true)
    }()

    public struct MissingSeed: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) is missing: run `make fixtures` (scripts/fetch-fixtures.sh, scripts/fetch-corpus.sh .corpus --minimal)" }
    }

    static func seed(_ url: URL) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw MissingSeed(path: url.path) }
        return [UInt8](data)
    }

    /// Every variant (about 50).
    public static func all() throws -> [MalformedInput] {
        try jpeg() + png() + tiff() + cr2() + heic() + mp4() + webp() + gif()
    }

    /// Only the variants a structural check must refuse.
    public static func refusable() throws -> [MalformedInput] {
        try all().filter { $0.expectedReason != nil }
    }

    // MARK: PNG (imageio's chelsea.png)

    public static func png() throws -> [MalformedInput] {
        let bytes = try seed(corpus.appendingPathComponent("imageio__chelsea.png"))
        let chunks = PNGChunks(bytes)
        var out = Variants(fileExtension: "png")
        let idat = chunks.all.first { $0.type == "IDAT" }!
        var idatCRC = bytes
        idatCRC[idat.start + 8 + idat.length / 2] ^= 0x01
        out.add("png-idat-crc", idatCRC, "one bit flipped inside IDAT (CRC mismatch)", "chunk IDAT at offset \(idat.start): CRC mismatch")
        var ihdrCRC = bytes
        ihdrCRC[8 + 8 + 13] ^= 0xFF
        out.add("png-ihdr-crc", ihdrCRC, "IHDR's stored CRC changed", "chunk IHDR at offset 8: CRC mismatch")
        out.add("png-1x2000000", PNGChunks.withIHDRSize(bytes, width: 1, height: 2_000_000), "IHDR claims 1 × 2,000,000 (CRC fixed)",
            "aspect ratio of 2000000 : 1")
        out.add("png-100000x1", PNGChunks.withIHDRSize(bytes, width: 100_000, height: 1), "IHDR claims 100,000 × 1 (CRC fixed)",
            "aspect ratio of 100000 : 1")
        var noIDAT = bytes
        for chunk in chunks.all.reversed() where chunk.type == "IDAT" { noIDAT.removeSubrange(chunk.start ..< chunk.end) }
        out.add("png-no-idat", noIDAT, "every IDAT chunk removed", "no IDAT chunk")
        let text = PNGChunks.chunk("tEXt", Array("Comment\u{0}moved".utf8))
        out.add("png-ihdr-not-first", Array(bytes[0 ..< 8]) + text + Array(bytes[8...]), "a tEXt chunk put before IHDR",
            "the first chunk is tEXt, not IHDR")
        var longIDAT = bytes
        longIDAT.replaceSubrange(idat.start ..< idat.start + 4, with: [0x00, 0xFF, 0xFF, 0xFF])
        out.add("png-idat-length-past-end", longIDAT, "IDAT's length set to 16 MB", "past the end of the file")
        out.add("png-no-iend", Array(bytes.dropLast(12)), "IEND cut off", "before IEND")
        return out.inputs
    }

    // MARK: TIFF (goexif's tiff_sample1.tif)

    public static func tiff() throws -> [MalformedInput] {
        let bytes = try seed(corpus.appendingPathComponent("_fixtures/goexif__tiff_sample1.tif"))
        let tiff = TIFFLayout(bytes)
        var out = Variants(fileExtension: "tif")
        var loop = bytes
        tiff.write32(&loop, at: tiff.nextPointer(ofIFDAt: tiff.ifd0), UInt32(tiff.ifd0))
        out.add("tiff-ifd-loop", loop, "IFD0's next-IFD link pointed back at IFD0", "the IFD chain loops")
        var missing = bytes
        tiff.write32(&missing, at: 4, UInt32(bytes.count + 4096))
        out.add("tiff-ifd0-missing", missing, "IFD0's offset pointed past the end of the file", "IFD0 is at offset \(bytes.count + 4096), outside the file")
        var missingNext = bytes
        tiff.write32(&missingNext, at: tiff.nextPointer(ofIFDAt: tiff.ifd0), UInt32(bytes.count + 4096))
        out.add("tiff-next-ifd-missing", missingNext, "IFD0's next-IFD link pointed past the end of the file", "outside the file")
        var entries = bytes
        tiff.write16(&entries, at: tiff.ifd0, 0x0FFF)
        out.add("tiff-ifd0-entries-past-end", entries, "IFD0's entry count set to 4095", "IFD0 at offset \(tiff.ifd0) has 4095 entries")
        if let entry = tiff.entry(tag: 284, inIFDAt: tiff.ifd0) {
            var count = bytes
            tiff.write32(&count, at: entry + 4, 0x0080_0001)
            out.add("tiff-tag-count", count, "PlanarConfiguration's count set to 8,388,609 (a flipped bit)",
                "PlanarConfiguration (tag 284) has 8388609 values, not 1")
        }
        if let strip = tiff.entryValueOffset(tag: 0x0111, inIFDAt: tiff.ifd0) {
            var stripPastEnd = bytes
            tiff.write32(&stripPastEnd, at: strip, UInt32(bytes.count + 100))
            out.add("tiff-strip-past-end", stripPastEnd, "the first strip's offset pointed past the end of the file", "image data runs to byte")
        }
        return out.inputs
    }

    // MARK: CR2 (rawtran's IMG_5952.CR2, Canon EOS 30D)

    public static func cr2() throws -> [MalformedInput] {
        let bytes = try seed(corpus.appendingPathComponent("rawtran__IMG_5952.CR2"))
        let tiff = TIFFLayout(bytes)
        var out = Variants(fileExtension: "CR2")
        out.add("cr2-64-bytes", Array(bytes.prefix(64)), "cut to its first 64 bytes", "IFD0 at offset \(tiff.ifd0) has")
        var loop = bytes
        tiff.write32(&loop, at: tiff.nextPointer(ofIFDAt: tiff.ifd0), UInt32(tiff.ifd0))
        out.add("cr2-ifd-loop", loop, "IFD0's next-IFD link pointed back at IFD0", "the IFD chain loops")
        out.add("cr2-truncated-half", Array(bytes.prefix(bytes.count / 2)), "cut in half", "truncated")
        return out.inputs
    }

    // MARK: HEIC (pillow-heif's pug.heic, a real iPhone photo)

    public static func heic() throws -> [MalformedInput] {
        let bytes = try seed(corpus.appendingPathComponent("pillowheif__heif_other_pug.heic"))
        let boxes = BoxLayout(bytes)
        var out = Variants(fileExtension: "heic")
        let meta = boxes.find(["meta"])!
        func renamed(_ type: String, to newType: String) -> [UInt8] {
            var copy = bytes
            let box = boxes.find(["meta", type], in: meta)!
            copy.replaceSubrange(box.start + 4 ..< box.start + 8, with: Array(newType.utf8))
            return copy
        }
        out.add("heic-no-iloc", renamed("iloc", to: "xloc"), "'iloc' renamed 'xloc'", "no item locations")
        out.add("heic-no-iinf", renamed("iinf", to: "xinf"), "'iinf' renamed 'xinf'", "no item information")
        out.add("heic-no-pitm", renamed("pitm", to: "xitm"), "'pitm' renamed 'xitm'", "no primary item")
        let extent = boxes.largestExtentFields(meta: meta)!
        var pastEnd = bytes
        BoxLayout.write(&pastEnd, at: extent.offset, size: extent.offsetSize, value: UInt64(bytes.count + 1000))
        out.add("heic-extent-past-end", pastEnd, "the primary item's (or first tile's) extent offset pointed past the end",
            "past the end of the file")
        var flipped = bytes
        flipped[extent.length + extent.lengthSize - 4] ^= 0x80  // the top bit of the low 32 bits of the length
        out.add("heic-bitflip-iloc", flipped, "one bit flipped in an 'iloc' extent length", "past the end of the file")
        var pixels = bytes
        let mdat = boxes.find(["mdat"])!
        let middle = mdat.payload + (mdat.end - mdat.payload) / 2
        for i in stride(from: middle, to: middle + 256, by: 16) { pixels[i] ^= 0x20 }
        out.add("heic-bitflip-pixels", pixels, "16 bits flipped inside the coded image data", nil)
        out.add("heic-truncated", Array(bytes.prefix(bytes.count * 9 / 10)), "the last 10 % cut off", "truncated")
        return out.inputs
    }

    // MARK: Sony HIF (pillow-heif's cat.hif, ILCE-7SM3, and guitar_cw90.hif, shot upright)

    /// Sound Sony HIF files libvips 8.14 (with libheif 1.15) can't render ("heifload: bad image
    /// dimensions on decode"), which the library renders through libheif: `cat.hif` (its
    /// 1616 × 1080 HEVC thumbnail is coded 1664 × 1088), the same with 16 bits flipped in the
    /// coded data of its tiles and thumbnail, as `scripts/malformed-corpus.py` flips them (the
    /// decoder rides over them), and `guitar_cw90.hif` (a grid whose `irot` comes before its
    /// `ispe`: libheif 1.15 reports 7008 × 4672 and decodes 4672 × 7008).
    public static func sonyHIF() throws -> [MalformedInput] {
        let cat = try seed(corpus.appendingPathComponent("pillowheif__heif_other_cat.hif"))
        let guitar = try seed(corpus.appendingPathComponent("pillowheif__heif_special_guitar_cw90.hif"))
        var out = Variants(fileExtension: "hif")
        out.add("hif-sony-thumbnail", cat, "none: a real Sony file whose HEVC thumbnail is coded larger than its 'ispe'", nil)
        var flipped = cat
        let mdat = BoxLayout(cat).find(["mdat"])!
        // The offsets malformed-corpus.py's seeded flips hit: the slice data of the four tiles
        // (items 1–4) and of the 1616 × 1080 thumbnail (item 6), no header.
        let flips: [(Int, UInt8)] = [
            (775925, 32), (805577, 2), (1486901, 8), (1533425, 64), (1547738, 16), (1954310, 16), (2071419, 32), (2141897, 64),
            (2244961, 64), (2249795, 8), (2271101, 128), (2297970, 32), (2403368, 64), (2434101, 2), (2497917, 32), (2532530, 8),
        ]
        for (offset, mask) in flips where offset > mdat.payload && offset < mdat.end { flipped[offset] ^= mask }
        out.add("hif-bitflip-mdat", flipped, "16 bits flipped inside 'mdat' (HEVC slice data)", nil)
        out.add("hif-sony-rotated-grid", guitar, "none: a real Sony portrait file ('irot' before 'ispe' in its grid's properties)", nil)
        return out.inputs
    }

    // MARK: MP4 (imageio's realshort.mp4)

    public static func mp4() throws -> [MalformedInput] {
        let bytes = try seed(corpus.appendingPathComponent("imageio__realshort.mp4"))
        let boxes = BoxLayout(bytes)
        var out = Variants(fileExtension: "mp4")
        var noMoov = bytes
        let moov = boxes.find(["moov"])!
        noMoov.replaceSubrange(moov.start + 4 ..< moov.start + 8, with: Array("free".utf8))
        out.add("mp4-no-moov", noMoov, "'moov' renamed 'free'", "no 'moov' box")
        let stco = boxes.find(["moov", "trak", "mdia", "minf", "stbl", "stco"])!
        var pastEnd = bytes
        BoxLayout.write(&pastEnd, at: stco.payload + 8, size: 4, value: UInt64(bytes.count + 1000))
        out.add("mp4-stco-past-end", pastEnd, "the first chunk offset pointed past the end", "past the end of the file")
        let stsz = boxes.find(["moov", "trak", "mdia", "minf", "stbl", "stsz"])!
        var flipped = bytes
        if BoxLayout.read(bytes, at: stsz.payload + 4, size: 4) == 0 {
            flipped[stsz.payload + 12] ^= 0x40  // the first sample's size gains 1 GB
        } else {
            flipped[stsz.payload + 4] ^= 0x40
        }
        out.add("mp4-bitflip-stsz", flipped, "one bit flipped in the first sample size", "past the end of the file")
        var pixels = bytes
        let mdat = boxes.find(["mdat"])!
        let middle = mdat.payload + (mdat.end - mdat.payload) / 2
        for i in stride(from: middle, to: middle + 256, by: 16) { pixels[i] ^= 0x20 }
        out.add("mp4-bitflip-pixels", pixels, "16 bits flipped inside the media data", nil)
        out.add("mp4-truncated", Array(bytes.prefix(bytes.count * 9 / 10)), "the last 10 % cut off", "truncated")
        return out.inputs
    }

    // MARK: WebP (made by libvips: the minimal corpus has none)

    public static func webp() throws -> [MalformedInput] {
        let bytes = [UInt8](try TestImages.webp(width: 64, height: 48))
        var out = Variants(fileExtension: "webp")
        var long = bytes
        long.replaceSubrange(16 ..< 20, with: [0xFF, 0xFF, 0xFF, 0x00])
        out.add("webp-chunk-past-end", long, "the first chunk's size set to 16 MB", "past the end of the RIFF data")
        if Array(bytes[12 ..< 16]) == Array("VP8 ".utf8) {
            var noStart = bytes
            noStart[23] ^= 0xFF
            out.add("webp-no-start-code", noStart, "the VP8 start code changed", "no start code")
        }
        return out.inputs
    }

    // MARK: GIF (imageio's newtonscradle.gif)

    public static func gif() throws -> [MalformedInput] {
        let bytes = try seed(corpus.appendingPathComponent("imageio__newtonscradle.gif"))
        var out = Variants(fileExtension: "gif")
        out.add("gif-truncated", Array(bytes.prefix(bytes.count / 2)) + [0x3B], "cut in half, a trailer byte appended", "past the end")
        var zero = bytes
        if let descriptor = GIFLayout.firstImageDescriptor(bytes) {
            zero[descriptor + 5] = 0
            zero[descriptor + 6] = 0
            out.add("gif-zero-width-image", zero, "the first image's width set to 0", "0 × ")
        }
        return out.inputs
    }
}

// MARK: - Layout helpers (just enough of each format to aim the damage)

struct PNGChunks {
    struct Chunk { var type: String; var start: Int; var length: Int; var end: Int }
    var all: [Chunk] = []

    init(_ b: [UInt8]) {
        var i = 8
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[i + 4 ..< i + 8], as: UTF8.self)
            all.append(Chunk(type: type, start: i, length: length, end: i + 12 + length))
            i += 12 + length
        }
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(TestImages.crc32(body[...]))
    }

    static func be32(_ v: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }

    static func withIHDRSize(_ bytes: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(16 ..< 24, with: be32(width) + be32(height))
        copy.replaceSubrange(29 ..< 33, with: be32(TestImages.crc32(copy[12 ..< 29])))
        return copy
    }
}

struct TIFFLayout {
    let bigEndian: Bool
    let ifd0: Int
    let bytes: [UInt8]

    init(_ b: [UInt8]) {
        bytes = b
        let big = b[0] == 0x4D
        bigEndian = big
        let head = b[4 ..< 8].map(UInt32.init)
        ifd0 = Int(big ? head[0] << 24 | head[1] << 16 | head[2] << 8 | head[3] : head[3] << 24 | head[2] << 16 | head[1] << 8 | head[0])
    }

    func read16(_ at: Int) -> Int {
        bigEndian ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at + 1]) << 8 | Int(bytes[at])
    }

    func read32(_ at: Int) -> UInt32 {
        let b = bytes[at ..< at + 4].map(UInt32.init)
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }

    func write16(_ data: inout [UInt8], at: Int, _ value: UInt16) {
        let b = [UInt8(value >> 8), UInt8(value & 0xFF)]
        data.replaceSubrange(at ..< at + 2, with: bigEndian ? b : b.reversed())
    }

    func write32(_ data: inout [UInt8], at: Int, _ value: UInt32) {
        let b = (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
        data.replaceSubrange(at ..< at + 4, with: bigEndian ? b : b.reversed())
    }

    func nextPointer(ofIFDAt offset: Int) -> Int { offset + 2 + read16(offset) * 12 }

    /// Where a tag's 12-byte entry is.
    func entry(tag: Int, inIFDAt offset: Int) -> Int? {
        (0 ..< read16(offset)).map { offset + 2 + $0 * 12 }.first { read16($0) == tag }
    }

    /// Where the (first) value of a tag is: in the entry, or where its pointer says.
    func entryValueOffset(tag: Int, inIFDAt offset: Int) -> Int? {
        for i in 0 ..< read16(offset) {
            let entry = offset + 2 + i * 12
            guard read16(entry) == tag else { continue }
            let type = read16(entry + 2), count = Int(read32(entry + 4))
            let unit = type == 3 ? 2 : 4
            return count * unit <= 4 ? entry + 8 : Int(read32(entry + 8))
        }
        return nil
    }
}

struct BoxLayout {
    struct Box { var type: String; var start: Int; var payload: Int; var end: Int }
    let bytes: [UInt8]

    init(_ b: [UInt8]) { bytes = b }

    static let fullBoxes: Set<String> = ["meta"]

    func children(from start: Int, to end: Int) -> [Box] {
        var boxes: [Box] = []
        var i = start
        while i + 8 <= end {
            var size = Int(BoxLayout.read(bytes, at: i, size: 4))
            var header = 8
            if size == 1 {
                size = Int(BoxLayout.read(bytes, at: i + 8, size: 8))
                header = 16
            } else if size == 0 {
                size = end - i
            }
            guard size >= header, i + size <= end else { break }
            let type = String(decoding: bytes[i + 4 ..< i + 8], as: UTF8.self)
            boxes.append(Box(type: type, start: i, payload: i + header, end: i + size))
            i += size
        }
        return boxes
    }

    func children(of box: Box) -> [Box] {
        children(from: box.payload + (Self.fullBoxes.contains(box.type) ? 4 : 0), to: box.end)
    }

    /// The first box along a path of types, from the top level or below `box`.
    func find(_ path: [String], in box: Box? = nil) -> Box? {
        var level = box.map { children(of: $0) } ?? children(from: 0, to: bytes.count)
        var found: Box?
        var remaining = path[...]
        if let box, path.first == box.type { remaining = remaining.dropFirst() }
        for type in remaining {
            guard let next = level.first(where: { $0.type == type }) else { return nil }
            found = next
            level = children(of: next)
        }
        return found
    }

    /// Where the offset and length fields of the longest extent in the file that `iloc` lists
    /// are (the primary image's, or for a grid one of its tiles), and their sizes.
    func largestExtentFields(meta: Box) -> (offset: Int, offsetSize: Int, length: Int, lengthSize: Int)? {
        var best: (offset: Int, offsetSize: Int, length: Int, lengthSize: Int)?
        var bestLength: UInt64 = 0
        guard let iloc = find(["iloc"], in: meta) else { return nil }
        var i = iloc.payload
        let version = Int(bytes[i])
        i += 4
        let offsetSize = Int(bytes[i] >> 4), lengthSize = Int(bytes[i] & 0xF)
        let baseSize = Int(bytes[i + 1] >> 4), indexSize = version >= 1 ? Int(bytes[i + 1] & 0xF) : 0
        i += 2
        let idSize = version < 2 ? 2 : 4
        let count = Int(BoxLayout.read(bytes, at: i, size: idSize))
        i += idSize
        for _ in 0 ..< count {
            i += idSize
            var method = 0
            if version >= 1 {
                method = Int(bytes[i + 1] & 0xF)
                i += 2
            }
            i += 2 + baseSize
            let extents = Int(BoxLayout.read(bytes, at: i, size: 2))
            i += 2
            for _ in 0 ..< extents {
                i += indexSize
                let length = BoxLayout.read(bytes, at: i + offsetSize, size: lengthSize)
                if method == 0, offsetSize > 0, lengthSize >= 4, length > bestLength {
                    best = (i, offsetSize, i + offsetSize, lengthSize)
                    bestLength = length
                }
                i += offsetSize + lengthSize
            }
        }
        return best
    }

    static func read(_ b: [UInt8], at: Int, size: Int) -> UInt64 {
        (0 ..< size).reduce(0) { $0 << 8 | UInt64(b[at + $1]) }
    }

    static func write(_ b: inout [UInt8], at: Int, size: Int, value: UInt64) {
        for k in 0 ..< size { b[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - k))) }
    }
}

enum GIFLayout {
    /// The offset of the first image descriptor (0x2C).
    static func firstImageDescriptor(_ b: [UInt8]) -> Int? {
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
        while i < b.count {
            switch b[i] {
            case 0x2C: return i
            case 0x21:
                i += 2
                while i < b.count, b[i] != 0 { i += 1 + Int(b[i]) }
                i += 1
            default: return nil
            }
        }
        return nil
    }
}
