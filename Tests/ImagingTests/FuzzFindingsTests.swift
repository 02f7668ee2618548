import Foundation
@testable import Imaging
import Testing

/// What fuzzing the parsers found stopping the process (a trap or a hang), rebuilt small here so
/// each stays fixed. docs/reliability.md lists them with the fuzz target that found each.
@Suite("Fuzzing finds: parsers")
struct FuzzFindingsTests {
    typealias T = ExifParserTests

    static func le64(_ v: UInt64) -> [UInt8] { T.le32(UInt32(v & 0xFFFF_FFFF)) + T.le32(UInt32(v >> 32)) }
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// The probe's error for `bytes`, or an issue recorded when it doesn't throw.
    func probeError(_ bytes: [UInt8], filenameExtension: String, sourceLocation: SourceLocation = #_sourceLocation) -> ImagingError? {
        do {
            let metadata = try MediaProbe.probe(data: Data(bytes), filenameExtension: filenameExtension)
            Issue.record("probed as \(metadata.format) \(metadata.pixelWidth)×\(metadata.pixelHeight)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test("a FLOAT too large for an Int is no value, not a trap: an Orientation, an IFD pointer, a maker note field")
    func hugeFloat() throws {
        let bytes = T.tiff(entries: [
            T.entry(0x0112, 11, 1, T.le32(Float(1e30).bitPattern)),  // Orientation as a FLOAT
            T.entry(0x8769, 11, 1, T.le32(Float(-1e30).bitPattern)),  // Exif IFD pointer
            T.entry(0x8825, 11, 1, T.le32(Float.nan.bitPattern)),  // GPS IFD pointer
        ])
        let tiff = try #require(TIFFParser.exifBlob(bytes))
        #expect(tiff.ifd0[0x0112] == .float([Double(Float(1e30))]))
        #expect(tiff.ifd0[0x0112]?.int == nil)
        #expect(ExifMetadata(tiff, defaultTimeZone: utcZone).orientation == nil)
        #expect(TIFFValue.float([Double(Int.max)]).int == nil)
        #expect(TIFFValue.float([-Double.infinity]).int == nil)
        #expect(TIFFValue.float([6.9]).int == 6)
        #expect(TIFFValue.rational([-2.5]).int == -2)

        // An iPhone maker note whose ImageCaptureType (0x0014) is the FLOAT -1e30.
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
        note += [0, 1] + [0x00, 0x14, 0x00, 11, 0, 0, 0, 1] + Self.be32(Float(-1e30).bitPattern) + [0, 0, 0, 0]
        let apple = try #require(AppleMakerNote(.undefined(note)))
        #expect(apple.imageCaptureType == nil)
        #expect(!apple.isPortrait)
    }

    @Test("a strip offset near Int64.max is damage, not an overflow trap")
    func stripOffsetOverflow() throws {
        let values: UInt32 = 8 + 2 + 4 * 12 + 4
        let bytes = T.tiff(entries: [
            T.entry(0x0100, 3, 1, T.le16(10)),
            T.entry(0x0101, 3, 1, T.le16(10)),
            T.entry(0x0111, 17, 1, T.le32(values)),  // StripOffsets as an SLONG8, stored after the IFD
            T.entry(0x0117, 3, 1, T.le16(1)),
        ], extra: Self.le64(UInt64(Int64.max)))
        let error = try #require(probeError(bytes, filenameExtension: "tif"))
        #expect(error.code == .corrupt)
        // Refused as damage by whichever check meets it first (the structural check of the
        // strip offsets' type, or the offset's range), never an overflow trap.
        #expect(error.message.contains("damaged TIFF"), "\(error.message)")
    }

    @Test("a RAW whose image size overflows an Int area is damage, not an overflow trap (LONG 2^32-1, LONG8 2^40 a side)",
          arguments: [(UInt16(4), UInt64(UInt32.max)), (16, 1 << 40)])
    func hugeImageSize(type: UInt16, side: UInt64) throws {
        let values: UInt32 = 8 + 2 + 2 * 12 + 4
        let inline = type == 4
        let bytes = T.tiff(entries: [
            T.entry(0x0100, type, 1, inline ? T.le32(UInt32(side)) : T.le32(values)),  // ImageWidth
            T.entry(0x0101, type, 1, inline ? T.le32(UInt32(side)) : T.le32(values + 8)),  // ImageLength
        ], extra: inline ? [] : Self.le64(side) + Self.le64(side))
        let error = try #require(probeError(bytes, filenameExtension: "nef"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("damaged NEF"), "\(error.message)")
    }

    @Test("a RAW preview offset near Int64.max is no preview, not an overflow trap")
    func previewOffsetOverflow() throws {
        let values: UInt32 = 8 + 2 + 2 * 12 + 4
        let bytes = T.tiff(entries: [
            T.entry(0x0201, 17, 1, T.le32(values)),  // JPEGInterchangeFormat as an SLONG8
            T.entry(0x0202, 4, 1, T.le32(100)),  // JPEGInterchangeFormatLength
        ], extra: Self.le64(UInt64(Int64.max)))
        #expect(RawPreview.largestJPEG(in: DataSource(bytes), format: .nef) == nil)
    }

    /// 31 chained IFDs, each listing 20,000 SubIFDs (BYTE offsets of 8, IFD0 again): 620,000
    /// queued offsets, each shifting the rest of the queue when read; minutes for a 20 KB blob.
    @Test("SubIFDs listed tens of thousands of times are read once each, without a queue that hangs",
          .timeLimit(.minutes(1)))
    func subIFDFlood() throws {
        let directories = 31, directorySize = 2 + 12 + 4
        let subIFDs = UInt32(8 + directories * directorySize)
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]
        for k in 0 ..< directories {
            let next = k < directories - 1 ? UInt32(8 + (k + 1) * directorySize) : 0
            bytes += T.le16(1) + T.entry(0x014A, 1, 20_000, T.le32(subIFDs)) + T.le32(next)
        }
        bytes += [UInt8](repeating: 8, count: 20_000)
        let tiff = try #require(TIFFParser.exifBlob(bytes))
        #expect(tiff.imageDirectories.count == directories)
        #expect(tiff.imageDirectories.allSatisfy { $0[0x014A]?.ints.count == 20_000 })
    }

    /// 512 entries all pointing at the same 256 KiB of BYTEs: 128 MiB of values from a 262 KB
    /// blob, 1 GiB once each byte is a UInt64 (32 such directories asked for 32 GiB).
    @Test("entries pointing at the same large value are read up to 4 MiB of values a parse, not once each")
    func valueFlood() throws {
        let entries = TIFFParser.maxEntriesPerDirectory, size = TIFFParser.maxValueBytes
        let values = UInt32(8 + 2 + entries * 12 + 4)
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0] + T.le16(UInt16(entries))
        for i in 0 ..< entries { bytes += T.entry(UInt16(0x1000 + i), 1, UInt32(size), T.le32(values)) }
        bytes += T.le32(0) + [UInt8](repeating: 7, count: size)
        let tiff = try #require(TIFFParser.exifBlob(bytes))
        #expect(tiff.ifd0.entries.count == TIFFParser.maxTotalValueBytes / size)
        #expect(tiff.ifd0.entries.values.allSatisfy { value in
            if case .unsigned(let numbers) = value { numbers.count == size } else { false }
        })
    }

    /// 32 chained directories of 512 entries, every value inline: 16,384 entries a parse, as
    /// FuzzTIFF's corpus made them from 7 KB files whose directories overlap. Each 2- and 4-byte
    /// read (an entry's tag, type, count) copied its bytes into a new array, 3 or 4 a entry: most
    /// of the time of such a parse, and FuzzTIFF ran at ~400 executions a second.
    @Test("a directory's entries are read in place, not copied out 2 and 4 bytes at a time, from memory and from a file")
    func entryCopies() throws {
        let entries = TIFFParser.maxEntriesPerDirectory, directories = TIFFParser.maxDirectories
        let directorySize = 2 + entries * 12 + 4
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]
        for k in 0 ..< directories {
            let next = k < directories - 1 ? UInt32(8 + (k + 1) * directorySize) : 0
            bytes += T.le16(UInt16(entries))
            for i in 0 ..< entries { bytes += T.entry(UInt16(0x1000 + i), 3, 1, T.le16(UInt16(k * entries + i))) }
            bytes += T.le32(next)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entry-copies-\(UUID().uuidString).tif")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        var parsed: [TIFFStructure] = []
        for source in [ReadCountingSource(DataSource(bytes)), ReadCountingSource(try FileSource(url: url))] {
            let tiff = try #require(TIFFParser(source: source, base: 0)).parse()
            #expect(tiff.imageDirectories.count == directories)
            #expect(tiff.imageDirectories.last?.entries.count == entries)
            #expect(tiff.imageDirectories.last?[UInt16(0x1000 + entries - 1)] == .unsigned([UInt64(directories * entries - 1)]))
            #expect(source.copies < directories, "\(source.copies) copies for \(directories * entries) entries")
            parsed.append(tiff)
        }
        #expect(parsed[0] == parsed[1])
    }

    /// 32 chained directories of 512 BYTE entries, each pointing at one 256 KiB run (finding 6's
    /// file, 459 KB). The structural check read every value of every directory, 4 MiB a
    /// directory: 128 MiB of values, 37 s a FuzzTIFF execution. It reads 5 tags' values.
    @Test("the TIFF structure check reads the values of the tags it checks, not 4 MiB of every directory's")
    func structureValueFlood() throws {
        let directories = TIFFParser.maxDirectories, entries = TIFFParser.maxEntriesPerDirectory
        let size = TIFFParser.maxValueBytes, directorySize = 2 + entries * 12 + 4
        let values = UInt32(8 + directories * directorySize)
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]
        for k in 0 ..< directories {
            let next = k < directories - 1 ? UInt32(8 + (k + 1) * directorySize) : 0
            bytes += T.le16(UInt16(entries))
            for i in 0 ..< entries { bytes += T.entry(UInt16(0x1000 + i), 1, UInt32(size), T.le32(values)) }
            bytes += T.le32(next)
        }
        bytes += [UInt8](repeating: 7, count: size)
        let source = ReadCountingSource(DataSource(bytes))
        #expect(try #require(TIFFParser(source: source, base: 0)).structureProblem(checkingImageTags: true) == nil)
        #expect(source.bytesRead < 1 << 20, "\(source.bytesRead) bytes read")
    }

    /// 31 chained directories each listing 65,535 SubIFDs (BYTE offsets of 8: IFD0 again), as in
    /// `subIFDFlood`. The structural check queued every one with its name ("SubIFD 4711 of
    /// IFD12") and put each next directory in front of them all: 2 million entries (2.2 s under
    /// FuzzTIFF for 20,000 a directory, 0.4 s now). It queues only what it can still visit, which
    /// changes no answer: the loop is found as before.
    @Test("the TIFF structure check queues only the directories it can still visit, and finds the same loop", .timeLimit(.minutes(1)))
    func structureSubIFDFlood() throws {
        let directories = 31, directorySize = 2 + 12 + 4, subIFDs = 65_535
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]
        for k in 0 ..< directories {
            let next = k < directories - 1 ? UInt32(8 + (k + 1) * directorySize) : 0
            bytes += T.le16(1) + T.entry(0x014A, 1, UInt32(subIFDs), T.le32(UInt32(8 + directories * directorySize))) + T.le32(next)
        }
        bytes += [UInt8](repeating: 8, count: subIFDs)
        let parser = try #require(TIFFParser(source: DataSource(bytes), base: 0))
        #expect(parser.structureProblem() == "the IFD chain loops: IFD0 links back to IFD0 at offset 8")
    }

    // ISO-BMFF boxes, big-endian.
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
    static func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }

    /// A HEIF whose `meta` holds `children`, and its structure problem.
    static func heifProblem(_ children: [UInt8]) throws -> String? {
        let bytes = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + fullBox("meta", children)
            + box("mdat", [UInt8](repeating: 0, count: 16))
        let parser = ISOBMFFParser(source: DataSource(bytes))
        let meta = try #require(parser.topLevel().boxes.first { $0.type == "meta" })
        return HEIFStructure.structureProblem(parser: parser, meta: meta)
    }

    static func infe(_ id: Int, _ type: String) -> [UInt8] { fullBox("infe", version: 2, be16(id) + [0, 0] + Array(type.utf8) + [0]) }

    /// An `iloc` (version 2: 32-bit ids) of items with `extents` extents each, of `extentBytes`
    /// (a 4-byte offset, or nothing).
    static func iloc(_ ids: some Sequence<Int>, extents: Int = 1, extentBytes: [UInt8] = []) -> [UInt8] {
        let sizes: UInt8 = extentBytes.isEmpty ? 0x00 : 0x40
        var payload: [UInt8] = [sizes, 0]
        var count = 0, items: [UInt8] = []
        for id in ids {
            items += be32(UInt32(id)) + [0, 0] + [0, 0] + be16(extents)
            if !extentBytes.isEmpty { items += repeatElement(extentBytes, count: extents).joined() }
            count += 1
        }
        payload += be32(UInt32(count)) + items
        return fullBox("iloc", version: 2, payload)
    }

    /// An `iref` (version 1: 32-bit ids) with `dimg` references from item 1 to `tiles`, 65,535
    /// to a box.
    static func dimg(_ tiles: [Int]) -> [UInt8] {
        var references: [UInt8] = []
        var start = 0
        while start < tiles.count {
            let part = tiles[start ..< min(start + 65_535, tiles.count)]
            references += box("dimg", be32(1) + be16(part.count) + part.flatMap { be32(UInt32($0)) })
            start += part.count
        }
        return fullBox("iref", version: 1, references)
    }

    /// 65,535 extents of no bytes each (index, offset and length sizes 0) cost an `iloc` 2 bytes
    /// an item: 7,000 such items in a 56 KB file made 460 million extents, out of memory (2 GB)
    /// in 13 s under FuzzISOBMFF. They are all the same extent, kept once.
    @Test("an iloc item's extents of no bytes are kept as one, not 65,535 times")
    func heifExtentFlood() throws {
        let payload = Array(Self.iloc(1 ... 50, extents: 65_535).dropFirst(8))  // the box's payload
        var structure = HEIFStructure()
        let read = structure.readLocations(payload)
        #expect(read)
        #expect(structure.locations.count == 50)
        #expect(structure.locations.values.allSatisfy { $0.extents.count == 1 && $0.extents[0].offset == 0 && $0.extents[0].length == 0 })
        // Still an item with data (at the file's start, "to the end"), and still checked.
        #expect(try Self.heifProblem(Self.fullBox("pitm", Self.be16(1)) + Self.fullBox("iinf", Self.be16(1) + Self.infe(1, "hvc1"))
            + Self.iloc(1 ... 20, extents: 65_535)) == nil)
        #expect(try Self.heifProblem(Self.fullBox("pitm", Self.be16(1)) + Self.fullBox("iinf", Self.be16(1) + Self.infe(1, "hvc1"))
            + Self.iloc(1 ... 20, extents: 0)) == "the primary item 1 ('hvc1') has no extents in 'iloc' (no data)")
    }

    /// A grid of 200,000 tiles, each with a location: every location was looked up in the list
    /// of tiles (20 billion comparisons); and one tile listed 262,140 times with 65,535 extents,
    /// its extents checked once per listing (17 billion). A 50 KB file of the first kind took
    /// 0.6 s under FuzzISOBMFF, one of the second 3 s.
    @Test("a grid's tiles are checked once each, however often listed, and not looked up in a list",
          .timeLimit(.minutes(1)), arguments: [false, true])
    func heifManyTiles(repeated: Bool) throws {
        let pitm = Self.fullBox("pitm", Self.be16(1))
        if repeated {
            let problem = try Self.heifProblem(pitm + Self.fullBox("iinf", Self.be16(2) + Self.infe(1, "grid") + Self.infe(2, "hvc1"))
                + Self.iloc([1]) + Self.iloc([2], extents: 65_535, extentBytes: [0, 0, 0, 0])
                + Self.dimg([Int](repeating: 2, count: 4 * 65_535)))
            #expect(problem == nil)
        } else {
            let problem = try Self.heifProblem(pitm + Self.fullBox("iinf", Self.be16(1) + Self.infe(1, "grid"))
                + Self.iloc(1 ... 200_001) + Self.dimg(Array(2 ... 200_001)))
            #expect(problem == "item 2 of the primary 'grid' is not in 'iinf'")
        }
    }

    /// 4,000 chunks and one `stsc` run of 2^32-1 samples a chunk (read as 2^24), with no sample
    /// sizes: the check counted through each chunk's 2^24 samples past the end of the (empty)
    /// size table, 67 billion steps for a 16 KB movie (a hang under FuzzQuickTime).
    @Test("a movie's chunk check stops at the end of the sample size table", .timeLimit(.minutes(1)))
    func movieSampleRun() throws {
        let stco = Self.fullBox("stco", Self.be32(4_000) + (0 ..< 4_000).flatMap { _ in Self.be32(8) })
        let stsc = Self.fullBox("stsc", Self.be32(1) + Self.be32(1) + Self.be32(UInt32.max) + Self.be32(1))
        let stsz = Self.fullBox("stsz", Self.be32(0) + Self.be32(0))
        let hdlr = Self.fullBox("hdlr", [0, 0, 0, 0] + Array("vide".utf8) + [UInt8](repeating: 0, count: 13))
        let trak = Self.box("trak", Self.box("mdia", hdlr + Self.box("minf", Self.box("stbl", stco + stsc + stsz))))
        let bytes = Self.box("ftyp", Array("isom".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8))
            + Self.box("moov", Self.fullBox("mvhd", [UInt8](repeating: 0, count: 96)) + trak)
        let parser = ISOBMFFParser(source: DataSource(bytes))
        let moov = try #require(parser.topLevel().boxes.first { $0.type == "moov" })
        #expect(MovieStructure.structureProblem(parser: parser, moov: moov) == nil)
    }

    /// A source counting the bytes read, and the reads that copy them out (`bytes(at:count:)`)
    /// apart from those read in place.
    final class ReadCountingSource: ByteSource {
        let base: any ByteSource
        private(set) var copies = 0, bytesRead = 0
        init(_ base: any ByteSource) { self.base = base }
        var size: Int64 { base.size }
        func bytes(at offset: Int64, count: Int) -> [UInt8]? {
            copies += 1
            bytesRead += count
            return base.bytes(at: offset, count: count)
        }
        func visitBytes(at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
            bytesRead += count
            return base.visitBytes(at: offset, count: count, body)
        }
    }
}
