import Foundation

// MARK: JPEG (sample1.jpg, a Nikon D2H photo)

extension MalformedInputs {
    public static func jpeg() throws -> [MalformedInput] {
        let bytes = try seed(Fixtures.url("sample1.jpg"))
        let segments = JPEGSegments(bytes)
        var out = Variants(fileExtension: "jpg")
        out.add("jpeg-truncated-half", Array(bytes.prefix(bytes.count / 2)), "cut in half", "truncated")
        out.add("jpeg-cut-in-header", Array(bytes.prefix(segments.sos / 2)), "cut inside its header segments", "past the end")
        out.add("jpeg-no-image-data", Array(bytes[..<segments.scanData]) + [0xFF, 0xD9], "the scan header followed at once by EOI",
            "followed by no image data")
        var noDQT = bytes
        for segment in segments.all.reversed() where segment.marker == 0xDB { noDQT.removeSubrange(segment.start ..< segment.end) }
        out.add("jpeg-no-dqt", noDQT, "quantization tables removed", "no quantization table")
        var noSOF = bytes
        let sof = segments.all.first { $0.marker == 0xC0 || $0.marker == 0xC2 }!
        noSOF.removeSubrange(sof.start ..< sof.end)
        out.add("jpeg-no-sof", noSOF, "frame header removed", "no frame header")
        var zeroWidth = bytes
        zeroWidth[sof.start + 7] = 0
        zeroWidth[sof.start + 8] = 0
        out.add("jpeg-sof-zero-width", zeroWidth, "frame header width set to 0", "frame header (SOF) gives 0")
        var badLength = bytes
        let app = segments.all.first { (0xE0 ... 0xEF).contains($0.marker) }!
        badLength[app.start + 2] = 0
        badLength[app.start + 3] = 1
        out.add("jpeg-segment-length-1", badLength, "an APPn segment's length set to 1", "length below 2")
        var flipped = bytes
        let middle = segments.scanData + (bytes.count - segments.scanData) / 2
        for i in stride(from: middle, to: middle + 64, by: 8) where flipped[i] != 0xFF && flipped[i] != 0x7F { flipped[i] ^= 0x10 }
        out.add("jpeg-bitflip-pixels", flipped, "8 bits flipped inside the entropy-coded data", nil)
        try tables(bytes, segments, into: &out)
        return out.inputs
    }

    /// Damaged tables: Huffman tables libjpeg refuses ("Bogus Huffman table definition", "Bogus
    /// marker length"), a quantization table no DQT defines, sampling factors too large for an
    /// interleaved scan. The first two kinds are what libjpeg reads from the header; the others
    /// only stop decoding, so libvips reads such a file's header as sound.
    static func tables(_ bytes: [UInt8], _ segments: JPEGSegments, into out: inout Variants) throws {
        let tables = segments.huffmanTables(bytes)
        guard let dc = tables.first(where: { $0.index == 0x00 }), let last = tables.last,
            let sof = segments.all.first(where: { $0.marker == 0xC0 })
        else { throw MissingSeed(path: "sample1.jpg's DC table 0 and baseline frame header") }
        out.add("jpeg-dht-no-prefix-code", [UInt8](try bogusHuffmanJPEG().data), "three of DC table 0's 3-bit codes counted as 2-bit ones (the total kept)",
            "the Huffman table DC 0 (DHT at offset \(dc.segment)) is bogus: its counts of codes by length (0 3 4 1 1 1 1 1 0 0 0 0 0 0 0 0) make no prefix code")
        var symbol = bytes
        symbol[dc.symbols] = 32
        out.add("jpeg-dht-dc-symbol", symbol, "DC table 0's first symbol set to 32", "its symbol 32 is no DC magnitude category (0–15)")
        var over = bytes
        over[dc.counts + 14] = 255
        over[dc.counts + 15] = 255
        out.add("jpeg-dht-counts-over-256", over, "DC table 0's counts of 15- and 16-bit codes set to 255",
            "a Huffman table in the DHT segment at offset \(dc.segment) counts 522 codes, more than 256")
        var short = bytes
        let longest = (0 ..< 16).last { bytes[last.counts + $0] > 0 }!
        short[last.counts + longest] -= 1
        out.add("jpeg-dht-length-mismatch", short, "the last Huffman table's count of its longest codes one less than its symbols",
            "the DHT segment at offset \(last.segment) has 1 byte after its last table")
        var undefined = bytes
        let components = Int(bytes[sof.start + 9])
        undefined[sof.start + 12 + 3 * (components - 1)] = 2
        out.add("jpeg-dqt-undefined", undefined, "the last component's quantization table set to 2 (never defined)",
            "component \(bytes[sof.start + 10 + 3 * (components - 1)]) takes quantization table 2, which no DQT segment before the scan defines")
        var sampling = bytes
        for component in 0 ..< components { sampling[sof.start + 11 + 3 * component] = 0x22 }
        out.add("jpeg-sof-mcu-too-large", sampling, "every component's sampling factors set to 2 × 2",
            "take \(4 * components) blocks an MCU by their sampling factors, more than the 10 a decoder allows")
    }

    /// A JPEG whose DC Huffman table 0 has three of its 3-bit codes moved to 2 bits, the total
    /// kept: its header reads (libvips opens it), but its codes make no prefix code, and every
    /// decoder stops at the first scan (libjpeg: "Bogus Huffman table definition"). Refused
    /// when probed, so at every import.
    public static func bogusHuffmanJPEG() throws -> MalformedInput {
        var bytes = try seed(Fixtures.url("sample1.jpg"))
        let segments = JPEGSegments(bytes)
        guard let dc = segments.huffmanTables(bytes).first(where: { $0.index == 0x00 }), bytes[dc.counts + 2] >= 3 else {
            throw MissingSeed(path: "sample1.jpg's DC table 0 with three 3-bit codes")
        }
        bytes[dc.counts + 1] += 3
        bytes[dc.counts + 2] -= 3
        return MalformedInput(
            name: "jpeg-bogus-huffman-table", fileExtension: "jpg", data: Data(bytes),
            damage: "three of DC table 0's 3-bit codes counted as 2-bit ones (the total kept)", expectedReason: "is bogus")
    }

    /// A JPEG whose structure passes every check but whose scan names Huffman tables 3, which
    /// it never defines: its header reads, decoding it fails ("Huffman table 0x03 was not
    /// defined"). What the library must mark as unrenderable instead of showing a blank.
    public static func undecodableJPEG() throws -> MalformedInput {
        var bytes = try seed(Fixtures.url("sample1.jpg"))
        let segments = JPEGSegments(bytes)
        let components = Int(bytes[segments.sos + 4])
        for i in 0 ..< components { bytes[segments.sos + 6 + 2 * i] = 0x33 }
        return MalformedInput(
            name: "jpeg-undefined-huffman-table", fileExtension: "jpg", data: Data(bytes),
            damage: "the scan's Huffman table selectors set to 3 (never defined)", expectedReason: nil)
    }
}

/// Just enough of a JPEG's segments to aim the damage: each segment up to the first scan.
struct JPEGSegments {
    struct Segment { var marker: UInt8; var start: Int; var end: Int }
    /// One Huffman table in a DHT segment: where the segment starts, the table's class and
    /// index byte, and where its 16 counts and its symbols are.
    struct HuffmanTable { var segment: Int; var index: UInt8; var counts: Int; var symbols: Int }
    var all: [Segment] = []
    var sos = 0
    var scanData = 0

    init(_ b: [UInt8]) {
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            all.append(Segment(marker: marker, start: i, end: i + 2 + length))
            if marker == 0xDA {
                sos = i
                scanData = i + 2 + length
                return
            }
            i += 2 + length
        }
    }

    /// The Huffman tables of every DHT segment, in order.
    func huffmanTables(_ b: [UInt8]) -> [HuffmanTable] {
        var tables: [HuffmanTable] = []
        for segment in all where segment.marker == 0xC4 {
            var i = segment.start + 4
            while i + 17 <= segment.end {
                let total = b[i + 1 ... i + 16].reduce(0) { $0 + Int($1) }
                tables.append(HuffmanTable(segment: segment.start, index: b[i], counts: i + 1, symbols: i + 17))
                i += 17 + total
            }
        }
        return tables
    }
}
