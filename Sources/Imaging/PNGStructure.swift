import Foundation

/// The chunks of a PNG file, walked without decoding: EXIF, animation and completeness.
struct PNGStructure {
    /// The eXIf chunk's payload (a bare TIFF structure), if any.
    var exif: [UInt8]?
    /// The tIME chunk: when the image was last modified, in UTC.
    var modificationTime: Date?
    /// acTL's frame count for an APNG; `nil` for a still PNG.
    var animationFrames: Int?
    /// True when the IEND chunk was reached with every chunk inside the file.
    var complete = false

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Walks every chunk header (seeking over the chunk data): eXIf may come after the image
    /// data, and only reaching IEND proves the file complete.
    init(source: any ByteSource) {
        guard source.bytes(at: 0, count: 8) == Self.signature else { return }
        walk(source)
    }

    private mutating func walk(_ source: any ByteSource) {
        var offset: Int64 = 8
        while offset + 12 <= source.size {
            guard let length = source.u32be(offset), let type = source.bytes(at: offset + 4, count: 4) else { return }
            let end = offset + 12 + Int64(length)
            guard length <= 0x7FFF_FFFF, end <= source.size else { return }
            switch String(decoding: type, as: UTF8.self) {
            case "IEND":
                complete = true
                return
            case "eXIf" where exif == nil && length <= 1 << 20:
                exif = source.bytes(at: offset + 8, count: Int(length))
            case "zTXt" where exif == nil && length <= 4 << 20, "tEXt" where exif == nil && length <= 4 << 20,
                 "iTXt" where exif == nil && length <= 4 << 20:
                if let body = source.bytes(at: offset + 8, count: Int(length)) {
                    exif = Self.rawProfileEXIF(chunk: String(decoding: type, as: UTF8.self), body)
                }
            case "tIME" where length == 7:
                if let b = source.bytes(at: offset + 8, count: 7) {
                    let text = String(format: "%04d:%02d:%02d %02d:%02d:%02d", Int(b[0]) << 8 | Int(b[1]), b[2], b[3], b[4], b[5], b[6])
                    modificationTime = ExifDate.LocalDateTime(exif: text)?.date(offset: 0, defaultTimeZone: .gmt)
                }
            case "acTL" where length >= 8:
                animationFrames = source.u32be(offset + 8).map { Int($0) }
            default:
                break
            }
            offset = end
        }
    }

    /// EXIF kept by ImageMagick/GIMP as a "Raw profile type exif" (or "APP1") text chunk:
    /// "\nexif\n    LENGTH\nHEX..." (zlib-compressed in zTXt and compressed iTXt).
    static func rawProfileEXIF(chunk: String, _ body: [UInt8]) -> [UInt8]? {
        guard let nul = body.firstIndex(of: 0) else { return nil }
        let keyword = String(decoding: body[..<nul], as: UTF8.self)
        guard keyword == "Raw profile type exif" || keyword == "Raw profile type APP1" else { return nil }
        var text: [UInt8]
        switch chunk {
        case "zTXt":
            guard body.count > nul + 2 else { return nil }
            guard let inflated = Zlib.inflate(Array(body[(nul + 2)...])) else { return nil }
            text = inflated
        case "iTXt":
            // keyword NUL, compression flag, method, language NUL, translated keyword NUL, text.
            guard body.count > nul + 3 else { return nil }
            let compressed = body[nul + 1] == 1
            var i = nul + 3
            for _ in 0 ..< 2 {
                guard let end = body[i...].firstIndex(of: 0) else { return nil }
                i = end + 1
            }
            let rest = Array(body[i...])
            guard let decoded = compressed ? Zlib.inflate(rest) : rest else { return nil }
            text = decoded
        default:
            text = Array(body[(nul + 1)...])
        }
        // Skip "\nexif\n", the length line, then decode hex digits.
        var lines = 0, i = 0
        while i < text.count, lines < 3 {
            if text[i] == 0x0A { lines += 1 }
            i += 1
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - i) / 2)
        var high: UInt8?
        while i < text.count {
            let c = text[i]
            i += 1
            let v: UInt8
            switch c {
            case 0x30 ... 0x39: v = c - 0x30
            case 0x61 ... 0x66: v = c - 0x61 + 10
            case 0x41 ... 0x46: v = c - 0x41 + 10
            default: continue
            }
            if let h = high {
                bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return bytes.isEmpty ? nil : bytes
    }
}

extension PNGStructure {
    /// What is structurally wrong with a PNG, or `nil`: the signature, IHDR first (13 bytes, a
    /// size of at least 1 × 1, a valid bit depth and colour type), every chunk inside the file
    /// with a matching CRC, a PLTE for a palette image, one run of IDAT chunks, IEND. Reads every
    /// byte once (CRCs), decodes nothing.
    static func structureProblem(in source: any ByteSource) -> String? {
        guard source.bytes(at: 0, count: 8) == signature else { return "no PNG signature" }
        var offset: Int64 = 8
        var chunkIndex = 0
        var colourType: UInt8 = 0
        var sawPalette = false, sawIDAT = false, idatRunEnded = false
        while true {
            guard offset + 12 <= source.size,
                let length = source.u32be(offset), let typeBytes = source.bytes(at: offset + 4, count: 4)
            else {
                return "the chunk at offset \(offset) runs past the end of the file (\(source.size) bytes) before IEND"
            }
            let type = String(decoding: typeBytes.map { (0x20 ... 0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
            let end = offset + 12 + Int64(length)
            guard length <= 0x7FFF_FFFF, end <= source.size else {
                return "chunk \(type) at offset \(offset) claims \(length) bytes, past the end of the file (\(source.size) bytes)"
            }
            guard typeBytes.allSatisfy({ (0x41 ... 0x5A).contains($0) || (0x61 ... 0x7A).contains($0) }) else {
                return "the chunk at offset \(offset) has an invalid type (bytes \(ByteReading.hex(typeBytes)))"
            }
            // The CRC covers the type and the data, read in 1 MiB pieces.
            var crc = CRC32.begin
            var position = offset + 4
            let dataEnd = offset + 8 + Int64(length)
            while position < dataEnd {
                let count = Int(min(Int64(1 << 20), dataEnd - position))
                guard let piece = source.bytes(at: position, count: count) else { return "chunk \(type) at offset \(offset) cannot be read" }
                crc = piece.withUnsafeBufferPointer { CRC32.update(crc, $0) }
                position += Int64(count)
            }
            guard let stored = source.u32be(dataEnd) else { return "chunk \(type) at offset \(offset) has no CRC" }
            let computed = CRC32.end(crc)
            guard stored == computed else {
                return "chunk \(type) at offset \(offset): CRC mismatch (stored \(hex32(stored)), computed \(hex32(computed)))"
            }
            if chunkIndex == 0 {
                guard type == "IHDR" else { return "the first chunk is \(type), not IHDR" }
                guard length == 13, let ihdr = source.bytes(at: offset + 8, count: 13) else {
                    return "IHDR at offset \(offset) has \(length) bytes, not 13"
                }
                let width = UInt32(ihdr[0]) << 24 | UInt32(ihdr[1]) << 16 | UInt32(ihdr[2]) << 8 | UInt32(ihdr[3])
                let height = UInt32(ihdr[4]) << 24 | UInt32(ihdr[5]) << 16 | UInt32(ihdr[6]) << 8 | UInt32(ihdr[7])
                guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
                    return "IHDR claims \(width) × \(height) pixels"
                }
                if let problem = MediaDimensions.problem(width: Int(width), height: Int(height)) {
                    return "IHDR claims \(width) × \(height) pixels: \(problem)"
                }
                let depth = ihdr[8]
                colourType = ihdr[9]
                let depths: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
                guard let allowed = depths[colourType], allowed.contains(depth) else {
                    return "IHDR has colour type \(colourType) with bit depth \(depth), which PNG does not define"
                }
                guard ihdr[10] == 0, ihdr[11] == 0, ihdr[12] <= 1 else {
                    return "IHDR has an unknown compression, filter or interlace method (\(ihdr[10]), \(ihdr[11]), \(ihdr[12]))"
                }
            } else if type == "IHDR" {
                return "a second IHDR chunk at offset \(offset)"
            }
            switch type {
            case "PLTE":
                sawPalette = true
            case "IDAT":
                if idatRunEnded { return "IDAT chunk at offset \(offset) after other chunks followed the image data" }
                sawIDAT = true
            case "IEND":
                if colourType == 3 && !sawPalette { return "a palette image without a PLTE chunk" }
                if !sawIDAT { return "no IDAT chunk (no image data) before IEND" }
                return nil
            default:
                if sawIDAT { idatRunEnded = true }
            }
            chunkIndex += 1
            offset = end
        }
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
