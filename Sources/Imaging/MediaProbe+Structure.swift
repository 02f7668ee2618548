import Foundation

extension MediaProbe.Context {
    /// Refuses files whose structure is damaged, cheaply (headers, offsets, lengths and chunk
    /// CRCs; no pixel is decoded): see `MediaProbe` for the rule per format. The reason names
    /// what was wrong and where.
    func checkStructure(format: MediaFormat) throws(ImagingError) {
        let kind = format.rawValue.uppercased()
        func refuse(_ problem: String) -> ImagingError {
            let truncated = problem.contains("past the end") || problem.contains("outside the file") || problem.contains("runs to byte")
            return corrupt("is a \(truncated ? "truncated" : "damaged") \(kind): \(problem)")
        }
        switch format {
        case .jpeg:
            if let problem = Self.jpegProblem(source) { throw refuse(problem) }
        case .png:
            if let problem = PNGStructure.structureProblem(in: source) { throw refuse(problem) }
        case .webp:
            if let problem = Self.webpProblem(source) { throw refuse(problem) }
        case .gif:
            if let problem = Self.gifProblem(source) { throw refuse(problem) }
        case .heic, .heif, .avif:
            let parser = ISOBMFFParser(source: source)
            let (boxes, overrun) = parser.topLevel()
            if overrun {
                let last = boxes.last.map { "the '\($0.type)' box at offset \($0.start)" } ?? "a box"
                throw corrupt("is a truncated \(kind) file: \(last) runs past the end of the file (\(source.size) bytes)")
            }
            guard let meta = boxes.first(where: { $0.type == "meta" }) else {
                throw corrupt("is a damaged \(kind) file: it has no 'meta' box")
            }
            if let problem = HEIFStructure.structureProblem(parser: parser, meta: meta) { throw refuse(problem) }
        default:
            break
        }
    }

    /// SOI, segments inside the file, a frame header (SOF) with a size and 1 to 4 components,
    /// quantization tables (unless lossless), a scan (SOS) followed by image data, an
    /// end-of-image marker after it, and the tables the first scan decodes with
    /// (``JPEGDecodingTables``).
    static func jpegProblem(_ source: any ByteSource) -> String? {
        let jpeg = JPEGStructure(source: source)
        if jpeg.truncatedHeader { return jpeg.problem ?? "its header segments end before the image data" }
        guard let scan = jpeg.scanDataOffset else { return "no scan (SOS)" }
        guard let frame = jpeg.frame else { return "no frame header (SOF) before the scan" }
        guard frame.width > 0, frame.height > 0 else { return "the frame header (SOF) gives \(frame.width) × \(frame.height) pixels" }
        guard (1 ... 4).contains(frame.components) else { return "the frame header (SOF) gives \(frame.components) colour components" }
        if !jpeg.isLossless && !jpeg.hasQuantizationTables { return "no quantization table (DQT) before the scan" }
        guard let first = source.bytes(at: scan, count: 2), first != [0xFF, 0xD9] else {
            return "the scan (SOS) ending at offset \(scan) is followed by no image data"
        }
        guard JPEGStructure.hasEndOfImage(source: source, scanDataOffset: scan) else {
            return "no end-of-image marker (FF D9) after the image data: the file ends at byte \(source.size), past the end of what it holds"
        }
        if !jpeg.isLossless, let header = jpeg.scan { return jpeg.tables.problem(frame: frame, scan: header) }
        return nil
    }

    /// The RIFF size inside the file, chunks inside the RIFF, and a first image chunk (VP8,
    /// VP8L or VP8X) whose header gives a size.
    static func webpProblem(_ source: any ByteSource) -> String? {
        func le32(_ offset: Int64) -> Int64? {
            source.bytes(at: offset, count: 4).map { Int64($0[0]) | Int64($0[1]) << 8 | Int64($0[2]) << 16 | Int64($0[3]) << 24 }
        }
        guard let announced = le32(4) else { return "no RIFF header" }
        let riffEnd = announced + 8
        guard riffEnd <= source.size else {
            return "its RIFF header announces \(riffEnd) bytes, past the end of the file (\(source.size) bytes)"
        }
        var offset: Int64 = 12
        var sawImage = false
        var index = 0
        while offset + 8 <= riffEnd {
            guard let typeBytes = source.bytes(at: offset, count: 4), let size = le32(offset + 4) else { break }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let end = offset + 8 + size + (size & 1)
            guard offset + 8 + size <= riffEnd else {
                return "chunk '\(type)' at offset \(offset) claims \(size) bytes, past the end of the RIFF data (\(riffEnd) bytes)"
            }
            if index == 0 {
                guard let payload = source.bytes(at: offset + 8, count: Int(min(size, 10))) else { return "chunk '\(type)' is empty" }
                switch type {
                case "VP8 ":
                    guard payload.count >= 10, payload[3] == 0x9D, payload[4] == 0x01, payload[5] == 0x2A else {
                        return "the VP8 frame header at offset \(offset + 8) has no start code"
                    }
                    let width = Int(payload[6]) | Int(payload[7] & 0x3F) << 8, height = Int(payload[8]) | Int(payload[9] & 0x3F) << 8
                    guard width > 0, height > 0 else { return "the VP8 frame header gives \(width) × \(height) pixels" }
                    sawImage = true
                case "VP8L":
                    guard payload.count >= 5, payload[0] == 0x2F else { return "the VP8L header at offset \(offset + 8) has no signature" }
                    sawImage = true
                case "VP8X":
                    guard payload.count >= 10 else { return "the VP8X header at offset \(offset + 8) is too short" }
                default:
                    return "the first chunk is '\(type)', not VP8, VP8L or VP8X"
                }
            } else if ["VP8 ", "VP8L", "ANMF"].contains(type) {
                sawImage = true
            }
            index += 1
            offset = end
        }
        return sawImage ? nil : "no image data (VP8, VP8L or ANMF chunk)"
    }

    /// The header, the colour tables and every block inside the file, at least one image, and
    /// the trailer byte (3B) after the last block.
    static func gifProblem(_ source: any ByteSource) -> String? {
        guard let screen = source.bytes(at: 6, count: 7) else { return "the header ends before its screen descriptor" }
        var offset: Int64 = 13
        if screen[4] & 0x80 != 0 { offset += 3 << (Int64(screen[4] & 7) + 1) }
        var images = 0
        /// Skips data sub-blocks (a length byte, that many bytes, until a 0 length).
        func skipSubBlocks() -> Bool {
            while true {
                guard let length = source.u8(offset) else { return false }
                offset += 1 + Int64(length)
                if length == 0 { return offset <= source.size }
                if offset > source.size { return false }
            }
        }
        while true {
            guard let introducer = source.u8(offset) else {
                return "the blocks run past the end of the file (\(source.size) bytes) before the trailer byte (3B)"
            }
            switch introducer {
            case 0x3B:
                return images > 0 ? nil : "no image in the file"
            case 0x21:
                offset += 2
                guard skipSubBlocks() else { return "an extension block runs past the end of the file (\(source.size) bytes)" }
            case 0x2C:
                guard let descriptor = source.bytes(at: offset + 1, count: 9) else {
                    return "the image descriptor at offset \(offset) runs past the end of the file (\(source.size) bytes)"
                }
                let width = Int(descriptor[4]) | Int(descriptor[5]) << 8, height = Int(descriptor[6]) | Int(descriptor[7]) << 8
                guard width > 0, height > 0 else { return "image \(images + 1) at offset \(offset) is \(width) × \(height) pixels" }
                offset += 10
                if descriptor[8] & 0x80 != 0 { offset += 3 << (Int64(descriptor[8] & 7) + 1) }
                offset += 1  // LZW minimum code size
                guard skipSubBlocks() else {
                    return "the image data of image \(images + 1) runs past the end of the file (\(source.size) bytes)"
                }
                images += 1
            default:
                // Bytes after the last image that are not a block: a trailer may follow padding.
                if images > 0, let tail = source.bytes(at: offset, count: Int(min(source.size - offset, 16))),
                    tail.contains(0x3B) || tail.allSatisfy({ $0 == 0 })
                {
                    return nil
                }
                return "an unknown block (byte \(String(format: "%02X", introducer))) at offset \(offset)"
            }
        }
    }
}
