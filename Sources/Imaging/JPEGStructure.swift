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

    /// The first frame header (SOFn): its size and number of components.
    var frame: (width: Int, height: Int, components: Int)?
    /// Whether a quantization table (DQT) came before the first scan.
    var hasQuantizationTables = false
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
            // SOF0-15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0 ... 0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), frame == nil,
               length >= 8, let header = source.bytes(at: offset + 4, count: 6)
            {
                let height = Int(header[1]) << 8 | Int(header[2])
                let width = Int(header[3]) << 8 | Int(header[4])
                frame = (width, height, Int(header[5]))
                if Int(length) < 8 + 3 * Int(header[5]) {
                    fail("frame header \(name) at offset \(offset - start) is \(length) bytes, too short for its \(header[5]) components")
                    return
                }
            }
            if exifSegment == nil, marker == 0xE1, length > 8,
               let payload = source.bytes(at: offset + 4, count: Int(length) - 2),
               payload.starts(with: Array("Exif\0\0".utf8)) {
                exifSegment = payload
            }
            if marker == 0xDA {
                scanDataOffset = segmentEnd
                return
            }
            if marker == 0xD9 { fail("an end-of-image marker at offset \(offset - start) before any image data (SOS)"); return }
            offset = segmentEnd
        }
        fail("more than 4096 segments before the image data")
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
