import Foundation

/// A value read from a TIFF/EXIF directory entry.
enum TIFFValue: Equatable, Sendable {
    case ascii(String)
    /// BYTE, SHORT, LONG, LONG8 values.
    case unsigned([UInt64])
    /// SBYTE, SSHORT, SLONG, SLONG8 values.
    case signed([Int64])
    /// RATIONAL and SRATIONAL values as doubles; `nil` where the denominator is 0.
    case rational([Double?])
    case float([Double])
    /// UNDEFINED bytes.
    case undefined([UInt8])

    /// The first value as an integer, whatever the numeric type; fractions are cut toward zero,
    /// and a value no `Int` can hold (a FLOAT of 1e30, NaN) is no value.
    var int: Int? {
        switch self {
        case .unsigned(let v): v.first.flatMap { Int(exactly: $0) }
        case .signed(let v): v.first.map { Int($0) }
        case .rational(let v): v.first.flatMap { $0 }.flatMap(Self.integer)
        case .float(let v): v.first.flatMap(Self.integer)
        default: nil
        }
    }

    private static func integer(_ value: Double) -> Int? {
        Int(exactly: value.rounded(.towardZero))
    }

    /// All values as doubles (`nil` entries for x/0 rationals).
    var doubles: [Double?] {
        switch self {
        case .unsigned(let v): v.map { Double($0) }
        case .signed(let v): v.map { Double($0) }
        case .rational(let v): v
        case .float(let v): v
        default: []
        }
    }

    /// The first value as a double.
    var double: Double? { doubles.first.flatMap { $0 } }

    /// All values as integers (offsets, counts).
    var ints: [Int] {
        switch self {
        case .unsigned(let v): v.compactMap { Int(exactly: $0) }
        case .signed(let v): v.map { Int($0) }
        default: []
        }
    }

    /// The value as text: ASCII as is; UNDEFINED/BYTE bytes decoded as UTF-8.
    var string: String? {
        switch self {
        case .ascii(let s): s.isEmpty ? nil : s
        case .undefined(let b): TIFFParser.text(from: b)
        default: nil
        }
    }
}

/// One image file directory: tag number to value.
struct TIFFDirectory: Sendable, Equatable {
    var entries: [UInt16: TIFFValue] = [:]
    subscript(tag: UInt16) -> TIFFValue? { entries[tag] }
}

/// The directories of a TIFF structure (a whole TIFF/RAW file, or the blob in an EXIF segment).
struct TIFFStructure: Sendable, Equatable {
    /// IFD0, IFD1, ... in chain order, then SubIFDs (tag 0x14A), each at most once.
    var imageDirectories: [TIFFDirectory] = []
    var exif = TIFFDirectory()
    var gps = TIFFDirectory()
    var bigEndian = false

    var ifd0: TIFFDirectory { imageDirectories.first ?? TIFFDirectory() }
}

/// A bounds-checked reader of TIFF structures (both byte orders), for EXIF blobs and TIFF-based
/// RAW files alike. It never traps on bad input: reads past the end yield nothing, each IFD
/// offset is visited at most once (so cycles end), entry counts and value sizes are capped, and
/// the MakerNote is skipped.
struct TIFFParser {
    static let maxEntriesPerDirectory = 512
    static let maxDirectories = 32
    static let maxValueBytes = 256 * 1024
    /// Value bytes one parse reads in all, over all its directories. Each entry may point at the
    /// same 256 KiB, and a BYTE value becomes 8 bytes a number: 32 directories of 512 such
    /// entries (a 460 KB file) asked for 32 GiB. Real files' values (ICC profiles, XMP, DNG
    /// tables, strip tables) come to a few hundred KiB.
    static let maxTotalValueBytes = 4 << 20
    static let makerNoteTag: UInt16 = 0x927C

    let source: any ByteSource
    /// Where the TIFF header ("II*\0" / "MM\0*") starts; IFD offsets count from here.
    let base: Int64
    let bigEndian: Bool

    /// Finds the TIFF header in an EXIF blob: "Exif\0\0" + TIFF (what libvips stores for JPEG and
    /// WebP), a bare TIFF header (PNG eXIf), or HEIF's 4-byte offset before either.
    static func exifBlob(_ bytes: [UInt8]) -> TIFFStructure? {
        let limit = min(bytes.count - 4, 16)
        guard limit >= 0 else { return nil }
        for start in 0 ... limit where isTIFFHeader(bytes, at: start) {
            return TIFFParser(source: DataSource(bytes), base: Int64(start))?.parse()
        }
        return nil
    }

    static func isTIFFHeader(_ b: [UInt8], at i: Int) -> Bool {
        guard i >= 0, i + 4 <= b.count else { return false }
        // Standard magic 42, and the Olympus ORF / Panasonic RW2 variants.
        return (b[i] == 0x49 && b[i + 1] == 0x49 && [0x2A, 0x52, 0x55].contains(b[i + 2]) && b[i + 3] == 0)
            || (b[i] == 0x4D && b[i + 1] == 0x4D && b[i + 2] == 0 && b[i + 3] == 0x2A)
            || (b[i] == 0x49 && b[i + 1] == 0x49 && b[i + 2] == 0x52 && b[i + 3] == 0x4F)  // "IIRO"
            || (b[i] == 0x49 && b[i + 1] == 0x49 && b[i + 2] == 0x52 && b[i + 3] == 0x53)  // "IIRS"
            || (b[i] == 0x4D && b[i + 1] == 0x4D && b[i + 2] == 0x4F && b[i + 3] == 0x52)  // "MMOR"
    }

    init?(source: any ByteSource, base: Int64) {
        guard let head = source.bytes(at: base, count: 4), Self.isTIFFHeader(head, at: 0) else { return nil }
        self.source = source
        self.base = base
        self.bigEndian = head[0] == 0x4D
    }

    /// Reads IFD0's chain, the SubIFDs, the Exif IFD and the GPS IFD.
    ///
    /// A directory's next directory is read right after it; SubIFDs wait in order found, each
    /// offset once. (A SubIFDs entry may list tens of thousands of offsets: a queue holding each
    /// copy, shifted on every read, took minutes over a 60 KB blob.)
    func parse() -> TIFFStructure {
        var result = TIFFStructure()
        result.bigEndian = bigEndian
        var visited = Set<Int64>()
        var next = u32(base + 4).map(Int64.init)
        var subIFDs: [Int64] = [], waiting = Set<Int64>(), read = 0
        var budget = Self.maxTotalValueBytes

        while result.imageDirectories.count < Self.maxDirectories {
            let offset: Int64
            if let chained = next {
                offset = chained
                next = nil
            } else if read < subIFDs.count {
                offset = subIFDs[read]
                read += 1
            } else {
                break
            }
            guard offset > 0, visited.insert(offset).inserted,
                  let (directory, following) = readDirectory(at: offset, budget: &budget) else { continue }
            result.imageDirectories.append(directory)
            if let following, following != 0 { next = Int64(following) }
            for sub in directory[0x014A]?.ints ?? [] where sub > 0 && waiting.insert(Int64(sub)).inserted {
                subIFDs.append(Int64(sub))
            }
        }
        if let offset = result.ifd0[0x8769]?.int, visited.insert(Int64(offset)).inserted,
           let (directory, _) = readDirectory(at: Int64(offset), budget: &budget) {
            result.exif = directory
        }
        if let offset = result.ifd0[0x8825]?.int, visited.insert(Int64(offset)).inserted,
           let (directory, _) = readDirectory(at: Int64(offset), budget: &budget) {
            result.gps = directory
        }
        return result
    }

    /// One IFD and the offset of the next one in its chain; only the `only` tags when given.
    func readDirectory(at offset: Int64, only: Set<UInt16>? = nil) -> (TIFFDirectory, UInt32?)? {
        var budget = Self.maxTotalValueBytes
        return readDirectory(at: offset, budget: &budget, only: only)
    }

    /// One IFD, its values read while `budget` (value bytes) lasts; only the `only` tags when given.
    func readDirectory(at offset: Int64, budget: inout Int, only: Set<UInt16>? = nil) -> (TIFFDirectory, UInt32?)? {
        let position = base + offset
        guard let count = u16(position), count > 0 else { return nil }
        let usable = min(Int(count), Self.maxEntriesPerDirectory)
        var directory = TIFFDirectory()
        for i in 0 ..< usable {
            let entry = position + 2 + Int64(i) * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let n = u32(entry + 4) else { break }
            if let only, !only.contains(tag) { continue }
            // Maker notes are skipped (large, proprietary), except Apple's (see AppleMakerNote).
            if tag == Self.makerNoteTag {
                guard type == 7, n > 16, n <= 64 * 1024, let pointer = u32(entry + 8),
                    source.bytes(at: base + Int64(pointer), count: 10).map({ Array($0) }) == AppleMakerNote.signature
                else { continue }
            }
            if let value = readValue(type: type, count: Int(n), entry: entry, budget: &budget) {
                directory.entries[tag] = value
            }
        }
        let next = Int(count) <= Self.maxEntriesPerDirectory ? u32(position + 2 + Int64(count) * 12) : nil
        return (directory, next)
    }

    private func readValue(type: UInt16, count: Int, entry: Int64, budget: inout Int) -> TIFFValue? {
        let unit: Int
        switch type {
        case 1, 2, 6, 7: unit = 1
        case 3, 8: unit = 2
        case 4, 9, 11, 13: unit = 4
        case 5, 10, 12, 16, 17, 18: unit = 8
        default: return nil
        }
        guard count > 0, count <= Self.maxValueBytes / unit else { return nil }
        let length = count * unit
        guard length <= budget else { return nil }
        let valueOffset: Int64
        if length <= 4 {
            valueOffset = entry + 8
        } else {
            guard let pointer = u32(entry + 8) else { return nil }
            valueOffset = base + Int64(pointer)
        }
        var value: TIFFValue?
        let bigEndian = bigEndian
        guard source.visitBytes(at: valueOffset, count: length, { raw in
            value = Self.decode(raw, type: type, count: count, unit: unit, bigEndian: bigEndian)
        }) else { return nil }
        budget -= length
        return value
    }

    /// `count` values of `type` (`unit` bytes each) from `raw`.
    private static func decode(_ raw: UnsafeBufferPointer<UInt8>, type: UInt16, count: Int, unit: Int, bigEndian: Bool) -> TIFFValue? {
        func uint(_ i: Int, _ size: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0 ..< size {
                let byte = UInt64(raw[i + (bigEndian ? k : size - 1 - k)])
                v = v << 8 | byte
            }
            return v
        }
        switch type {
        case 2:
            return .ascii(Self.text(from: Array(raw)) ?? "")
        case 7:
            return .undefined(Array(raw))
        case 1, 3, 4, 13, 16, 18:
            return .unsigned((0 ..< count).map { uint($0 * unit, unit) })
        case 6:
            return .signed((0 ..< count).map { Int64(Int8(truncatingIfNeeded: uint($0, 1))) })
        case 8:
            return .signed((0 ..< count).map { Int64(Int16(truncatingIfNeeded: uint($0 * 2, 2))) })
        case 9:
            return .signed((0 ..< count).map { Int64(Int32(truncatingIfNeeded: uint($0 * 4, 4))) })
        case 17:
            return .signed((0 ..< count).map { Int64(bitPattern: uint($0 * 8, 8)) })
        case 5:
            return .rational((0 ..< count).map { i -> Double? in
                let num = uint(i * 8, 4), den = uint(i * 8 + 4, 4)
                return den == 0 ? nil : Double(num) / Double(den)
            })
        case 10:
            return .rational((0 ..< count).map { i -> Double? in
                let num = Int32(truncatingIfNeeded: uint(i * 8, 4))
                let den = Int32(truncatingIfNeeded: uint(i * 8 + 4, 4))
                return den == 0 ? nil : Double(num) / Double(den)
            })
        case 11:
            return .float((0 ..< count).map { Double(Float(bitPattern: UInt32(uint($0 * 4, 4)))) })
        case 12:
            return .float((0 ..< count).map { Double(bitPattern: uint($0 * 8, 8)) })
        default:
            return nil
        }
    }

    // Read in place (`visitBytes`): an array copied for every 2- or 4-byte read was most of the
    // time of a parse that reads its 16,384 entries (32 directories of 512).
    func u16(_ offset: Int64) -> UInt16? {
        var value: UInt16 = 0
        let bigEndian = bigEndian
        return source.visitBytes(at: offset, count: 2) { b in
            value = bigEndian ? UInt16(b[0]) << 8 | UInt16(b[1]) : UInt16(b[1]) << 8 | UInt16(b[0])
        } ? value : nil
    }

    func u32(_ offset: Int64) -> UInt32? {
        var value: UInt32 = 0
        let bigEndian = bigEndian
        return source.visitBytes(at: offset, count: 4) { b in
            value = bigEndian
                ? UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
                : UInt32(b[3]) << 24 | UInt32(b[2]) << 16 | UInt32(b[1]) << 8 | UInt32(b[0])
        } ? value : nil
    }

    /// Text from bytes: up to the first NUL, UTF-8 (Latin-1 if not valid UTF-8), trimmed.
    static func text(from bytes: [UInt8]) -> String? {
        let cut = bytes.firstIndex(of: 0).map { Array(bytes[..<$0]) } ?? bytes
        let decoded = String(validating: cut, as: UTF8.self)
            ?? String(cut.map { Character(Unicode.Scalar($0)) })
        let trimmed = decoded.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension TIFFParser {
    /// Baseline tags libtiff needs to read an image, by number: those that hold one value.
    static let singleValuedImageTags: [UInt16: String] = [
        256: "ImageWidth", 257: "ImageLength", 259: "Compression", 262: "PhotometricInterpretation",
        277: "SamplesPerPixel", 278: "RowsPerStrip", 284: "PlanarConfiguration", 322: "TileWidth", 323: "TileLength",
    ]
    /// Baseline tags whose values must all be inside the file.
    static let imageDataTags: [UInt16: String] = [
        258: "BitsPerSample", 273: "StripOffsets", 279: "StripByteCounts", 324: "TileOffsets", 325: "TileByteCounts",
    ]

    /// The image tags of one directory (read raw, so a count the parser would drop is seen):
    /// single-valued ones with one value, value lists inside the file.
    private func imageTagProblem(directoryAt offset: Int64, count: Int, name: String, size: Int64) -> String? {
        for i in 0 ..< min(count, Self.maxEntriesPerDirectory) {
            let entry = base + offset + 2 + Int64(i) * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let values = u32(entry + 4) else { break }
            if let tagName = Self.singleValuedImageTags[tag], values != 1 {
                return "\(name)'s \(tagName) (tag \(tag)) has \(values) values, not 1"
            }
            if let tagName = Self.imageDataTags[tag] {
                let unit: Int64 = [3: 2, 4: 4, 16: 8][type] ?? 0
                guard unit > 0 else { return "\(name)'s \(tagName) (tag \(tag)) has type \(type), not an integer" }
                let length = unit * Int64(values)
                if length > 4, let pointer = u32(entry + 8), Int64(pointer) + length > size {
                    return "\(name)'s \(tagName) (tag \(tag)) lists \(values) values at offset \(pointer), past the end of the file (\(size) bytes)"
                }
            }
        }
        return nil
    }

    /// The tags `structureProblem` reads values of: strip and tile offsets and byte counts, SubIFDs.
    static let structureTags: Set<UInt16> = [0x0111, 0x0117, 0x0144, 0x0145, 0x014A]

    /// What is structurally wrong with a whole TIFF or TIFF-based RAW file, or `nil`: IFD0 inside
    /// the file, every image directory's entry table inside the file, no directory linked twice
    /// (an IFD chain that loops), no link to a directory outside the file, and strip/tile
    /// offset and byte-count lists of one length. Reads directory tables and `structureTags`.
    ///
    /// At most `maxDirectories` are visited, so only that many offsets are ever queued: queueing
    /// every SubIFD (with its name) took seconds for 31 directories of 20,000 SubIFDs, and
    /// decoding every value of every directory, 4 MiB a directory, took 30 s for 32 directories
    /// of 512 entries pointing at one 256 KiB run (the inputs of FuzzFindingsTests' floods).
    func structureProblem(checkingImageTags: Bool = false) -> String? {
        let size = source.size - base
        guard let first = u32(base + 4) else { return "the header has no IFD0 offset" }
        guard first >= 8, Int64(first) + 2 <= size else {
            return "IFD0 is at offset \(first), outside the file (\(size) bytes)"
        }
        var visited: [Int64: String] = [:]
        // (offset, name, linked from)
        var queue: [(Int64, String, String?)] = [(Int64(first), "IFD0", nil)]
        var chainIndex = 0
        while !queue.isEmpty, visited.count < Self.maxDirectories {
            let (offset, name, from) = queue.removeFirst()
            if let earlier = visited[offset] {
                return "the IFD chain loops: \(from ?? "the header") links back to \(earlier) at offset \(offset)"
            }
            visited[offset] = name
            guard offset >= 8, offset + 2 <= size, let count = u16(base + offset) else {
                return "\(name) is at offset \(offset), outside the file (\(size) bytes)"
            }
            let tableEnd = offset + 2 + Int64(count) * 12 + 4
            guard count > 0 || name != "IFD0" else { return "IFD0 at offset \(offset) has no entries" }
            guard tableEnd <= size else {
                return "\(name) at offset \(offset) has \(count) entries, running to byte \(tableEnd), past the end of the file (\(size) bytes)"
            }
            if checkingImageTags, let problem = imageTagProblem(directoryAt: offset, count: Int(count), name: name, size: size) {
                return problem
            }
            guard let (directory, next) = readDirectory(at: offset, only: Self.structureTags) else { continue }
            for (offsetsTag, countsTag, what) in [(UInt16(0x0111), UInt16(0x0117), "strip"), (0x0144, 0x0145, "tile")] {
                let offsets = directory[offsetsTag]?.ints, counts = directory[countsTag]?.ints
                if let offsets, let counts, offsets.count != counts.count {
                    return "\(name) lists \(offsets.count) \(what) offsets but \(counts.count) \(what) byte counts"
                }
                if (offsets == nil) != (counts == nil) {
                    return "\(name) has \(what) \(offsets == nil ? "byte counts without offsets" : "offsets without byte counts")"
                }
            }
            if let next, next != 0 {
                if name.hasPrefix("IFD") { chainIndex += 1 }
                let nextName = name.hasPrefix("IFD") ? "IFD\(chainIndex)" : "the IFD after \(name)"
                guard Int64(next) + 2 <= size else {
                    return "\(name) links to \(nextName) at offset \(next), outside the file (\(size) bytes)"
                }
                queue.insert((Int64(next), nextName, name), at: 0)
            }
            // Each pass visits a directory or returns: offsets queued past what can still be
            // visited would never be read.
            for (i, sub) in (directory[0x014A]?.ints ?? []).enumerated() {
                guard queue.count < Self.maxDirectories - visited.count else { break }
                queue.append((Int64(sub), "SubIFD \(i) of \(name)", name))
            }
        }
        return nil
    }
}
