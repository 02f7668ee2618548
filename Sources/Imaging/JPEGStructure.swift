import Foundation

/// The marker segments of a JPEG file, walked without decoding anything.
struct JPEGStructure {
    /// Where the entropy-coded data of the first scan starts (just after the SOS header).
    var scanDataOffset: Int64?
    /// The APP1 "Exif\0\0" segment payload (starting with "Exif\0\0"), if any.
    var exifSegment: [UInt8]?
    /// True when a frame header is lossless (SOF3/7/11/15), which libjpeg cannot decode: the
    /// "JPEG" inside a CR2 raw IFD is such a stream.
    var isLossless = false
    /// True when the segments run past the end of the file before the first scan.
    var truncatedHeader = false

    /// The first frame header (SOFn).
    var frame: Frame?
    /// Whether a quantization table (DQT) came before the first scan.
    var hasQuantizationTables = false
    /// The first scan's header (SOS).
    var scan: Scan?
    /// The Huffman (DHT) and quantization (DQT) tables the segments before the first scan
    /// define, for ``JPEGDecodingTables/problem(frame:scan:)``.
    var tables = JPEGDecodingTables()
    /// What is wrong with the segments before the first scan, naming the segment and offset,
    /// when `truncatedHeader` is set.
    var problem: String?

    /// Walks segments from the SOI at `start` to the first SOS.
    init(source: any ByteSource, start: Int64 = 0, end: Int64? = nil) {
        let limit = min(end ?? source.size, source.size)
        func fail(_ why: String) {
            truncatedHeader = true
            problem = why
        }
        guard source.u16be(start) == 0xFFD8 else { fail("no start-of-image marker (FF D8)"); return }
        var offset = start + 2
        var steps = 0
        while steps < 4096 {
            steps += 1
            guard offset + 4 <= limit else { fail("the segments end at offset \(offset - start) before any image data (SOS)"); return }
            guard let prefix = source.u8(offset), prefix == 0xFF, var marker = source.u8(offset + 1) else {
                fail("no segment marker at offset \(offset - start) (bytes \(ByteReading.hex(source.prefix(at: offset, maxCount: 4))))")
                return
            }
            // Fill bytes: any number of 0xFF before the marker code.
            while marker == 0xFF {
                offset += 1
                guard offset + 4 <= limit, let next = source.u8(offset + 1) else {
                    fail("the segments end at offset \(offset - start) before any image data (SOS)")
                    return
                }
                marker = next
            }
            if (0xD0 ... 0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            var name: String { String(format: "FF%02X", marker) }  // for messages only
            guard let length = source.u16be(offset + 2), length >= 2 else {
                fail("segment \(name) at offset \(offset - start) has a length below 2")
                return
            }
            let segmentEnd = offset + 2 + Int64(length)
            guard segmentEnd <= limit else {
                fail("segment \(name) at offset \(offset - start) claims \(length) bytes, past the end of the file (\(limit - start) bytes)")
                return
            }
            if [0xC3, 0xC7, 0xCB, 0xCF].contains(marker) { isLossless = true }
            if marker == 0xDB { hasQuantizationTables = true }
            if marker == 0xDB || marker == 0xC4, let payload = source.bytes(at: offset + 4, count: Int(length) - 2) {
                tables.read(segment: marker, payload, at: offset - start)
            }
            // SOF0-15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0 ... 0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), frame == nil,
               length >= 8, let payload = source.bytes(at: offset + 4, count: Int(length) - 2)
            {
                let parsed = Frame(marker: marker, offset: offset - start, payload)
                frame = parsed
                if parsed.componentSpecs.count < parsed.components {
                    fail("frame header \(name) at offset \(offset - start) is \(length) bytes, too short for its \(parsed.components) components")
                    return
                }
            }
            if exifSegment == nil, marker == 0xE1, length > 8,
               let payload = source.bytes(at: offset + 4, count: Int(length) - 2),
               payload.starts(with: Array("Exif\0\0".utf8)) {
                exifSegment = payload
            }
            if marker == 0xDA {
                scan = source.bytes(at: offset + 4, count: Int(length) - 2).map { Scan(offset: offset - start, $0) }
                scanDataOffset = segmentEnd
                return
            }
            if marker == 0xD9 { fail("an end-of-image marker at offset \(offset - start) before any image data (SOS)"); return }
            offset = segmentEnd
        }
        fail("more than 4096 segments before the image data")
    }

    /// A frame header (SOFn): the image's size and its colour components.
    struct Frame {
        /// One colour component: its identifier, sampling factors and quantization table.
        struct Component {
            var id: UInt8
            var horizontalSampling: Int
            var verticalSampling: Int
            var quantizationTable: Int
        }

        /// The SOF marker's second byte (C0 baseline, C1 extended, C2 progressive, C9–CB
        /// arithmetic coding, ...).
        var marker: UInt8
        /// Where the segment starts (its FF, from the SOI), and its length field: 8 + 3 bytes
        /// a component in a sound one.
        var offset: Int64, length: Int
        var width: Int, height: Int
        /// How many colour components the header says it has, and those it holds.
        var components: Int, componentSpecs: [Component]

        /// Whether its scans are entropy-coded with Huffman tables: baseline, extended and
        /// progressive (SOF0–2); not arithmetic coding (SOF9–11) or the lossless and
        /// hierarchical processes libjpeg refuses.
        var isHuffmanCoded: Bool { (0xC0 ... 0xC2).contains(marker) }
        var isProgressive: Bool { marker == 0xC2 || marker == 0xCA }

        /// `payload`: the segment after its length field (at least 6 bytes).
        init(marker: UInt8, offset: Int64, _ payload: [UInt8]) {
            self.marker = marker
            self.offset = offset
            length = payload.count + 2
            height = Int(payload[1]) << 8 | Int(payload[2])
            width = Int(payload[3]) << 8 | Int(payload[4])
            components = Int(payload[5])
            componentSpecs = stride(from: 6, to: payload.count - 2, by: 3).prefix(components).map { (at: Int) -> Component in
                let sampling = payload[at + 1]
                return Component(
                    id: payload[at], horizontalSampling: Int(sampling >> 4), verticalSampling: Int(sampling & 0x0F),
                    quantizationTable: Int(payload[at + 2]))
            }
        }
    }

    /// A scan header (SOS): which components the scan codes, with which Huffman tables, and
    /// which part of the coefficients (a progressive scan's band and bit).
    struct Scan {
        /// One component of the scan and its DC and AC Huffman table selectors.
        struct Component {
            var id: UInt8
            var dcTable: Int
            var acTable: Int
        }

        /// Where the segment starts (its FF, from the SOI), and its length field: 6 + 2 bytes
        /// a component in a sound one.
        var offset: Int64, length: Int
        /// How many components the header says the scan has, and those it holds.
        var count: Int, components: [Component]
        /// The spectral selection's start (Ss: 0 for a DC scan of a progressive file) and the
        /// successive approximation's high bit (Ah: 0 for a first pass).
        var spectralStart = 0, approximationHigh = 0

        /// `payload`: the segment after its length field.
        init(offset: Int64, _ payload: [UInt8]) {
            self.offset = offset
            length = payload.count + 2
            count = Int(payload.first ?? 0)
            components = stride(from: 1, to: payload.count - 1, by: 2).prefix(count).map { (at: Int) -> Component in
                let tables = payload[at + 1]
                return Component(id: payload[at], dcTable: Int(tables >> 4), acTable: Int(tables & 0x0F))
            }
            let tail = 1 + 2 * count
            if payload.count >= tail + 3 {
                spectralStart = Int(payload[tail])
                approximationHigh = Int(payload[tail + 2] >> 4)
            }
        }
    }

    /// True when an EOI marker (FF D9) follows the scan data. In entropy-coded data 0xFF is
    /// always followed by 0x00 or a marker, so the first FF D9 after the scan start is the EOI.
    /// Checks the last 4 KiB first (the usual case: EOI at the end, perhaps with a little
    /// padding); only a file with more appended after the EOI (a motion photo's video, a vendor
    /// trailer) is scanned from the start of the image data.
    static func hasEndOfImage(source: any ByteSource, scanDataOffset: Int64, end: Int64? = nil) -> Bool {
        let limit = min(end ?? source.size, source.size)
        let tailStart = max(scanDataOffset, limit - 4096)
        if containsEOI(source.prefix(at: tailStart, maxCount: Int(limit - tailStart))) { return true }
        var offset = scanDataOffset
        let chunk = 1 << 20
        while offset < tailStart {
            let bytes = source.prefix(at: offset, maxCount: Int(min(Int64(chunk) + 1, limit - offset)))
            if bytes.isEmpty { return false }
            if containsEOI(bytes) { return true }
            offset += Int64(chunk)
        }
        return false
    }

    private static func containsEOI(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        return bytes.withUnsafeBufferPointer { b in
            var i = 0
            while i < b.count - 1 {
                if b[i] == 0xFF, b[i + 1] == 0xD9 { return true }
                i += 1
            }
            return false
        }
    }
}
