/// One box (atom) of an ISO base media / QuickTime file.
struct ISOBox: Equatable {
    /// Four-character type ("moov", "©xyz"); bytes that are not ASCII are kept as Latin-1.
    var type: String
    /// Offset of the box header.
    var start: Int64
    /// Offset of the payload (after size, type, largesize and uuid).
    var payloadStart: Int64
    /// Offset just past the box.
    var end: Int64
    /// The 16-byte extended type of a "uuid" box.
    var uuid: [UInt8]?

    var payloadSize: Int64 { end - payloadStart }
}

/// Walks the boxes of an ISO-BMFF/QuickTime file through a `ByteSource`: only headers and the
/// small boxes asked for are read, so a video's `mdat` is seeked over, never loaded.
struct ISOBMFFParser {
    let source: any ByteSource
    static let maxBoxesPerLevel = 10_000

    /// The boxes between `start` and `end`, and whether one claimed to run past `end` (a
    /// truncated file when `end` is the file's end). A 32-bit size of 1 means a 64-bit size
    /// follows; 0 means "to the end of the enclosing space".
    func children(from start: Int64, to end: Int64) -> (boxes: [ISOBox], overrun: Bool) {
        var boxes: [ISOBox] = []
        var offset = start
        while offset + 8 <= end, boxes.count < Self.maxBoxesPerLevel {
            guard let size32 = source.u32be(offset), let typeBytes = source.bytes(at: offset + 4, count: 4) else {
                return (boxes, true)
            }
            var header: Int64 = 8
            var size = Int64(size32)
            if size32 == 1 {
                guard let large = source.u64be(offset + 8), large <= UInt64(Int64.max) else { return (boxes, true) }
                size = Int64(large)
                header = 16
            } else if size32 == 0 {
                size = end - offset
            }
            let type = String(typeBytes.map { Character(Unicode.Scalar($0)) })
            var uuid: [UInt8]?
            if type == "uuid" {
                uuid = source.bytes(at: offset + header, count: 16)
                header += 16
            }
            guard size >= header else { return (boxes, true) }
            guard size <= end - offset else {
                boxes.append(ISOBox(type: type, start: offset, payloadStart: offset + header, end: end, uuid: uuid))
                return (boxes, true)
            }
            boxes.append(ISOBox(type: type, start: offset, payloadStart: offset + header, end: offset + size, uuid: uuid))
            offset += size
        }
        return (boxes, false)
    }

    /// The top-level boxes of the whole source.
    func topLevel() -> (boxes: [ISOBox], overrun: Bool) {
        children(from: 0, to: source.size)
    }

    /// The children of a container box; `skipping` bytes first (4 for a full box's version and
    /// flags, e.g. `meta` in MP4).
    func children(of box: ISOBox, skipping: Int64 = 0) -> [ISOBox] {
        children(from: box.payloadStart + skipping, to: box.end).boxes
    }

    /// The first child of `box` with this type.
    func child(_ type: String, of box: ISOBox) -> ISOBox? {
        children(of: box).first { $0.type == type }
    }

    /// The box at a path of types below `box` ("mdia", "minf", "stbl").
    func descend(_ box: ISOBox, _ path: String...) -> ISOBox? {
        var current = box
        for type in path {
            guard let next = child(type, of: current) else { return nil }
            current = next
        }
        return current
    }

    /// The payload of a small box (nil beyond `limit` bytes).
    func payload(_ box: ISOBox, limit: Int = 1 << 20) -> [UInt8]? {
        guard box.payloadSize >= 0, box.payloadSize <= Int64(limit) else { return nil }
        return source.bytes(at: box.payloadStart, count: Int(box.payloadSize))
    }

    /// A `meta` box's children: a full box in ISO files, a plain container in QuickTime.
    func metaChildren(_ meta: ISOBox) -> [ISOBox] {
        if let probe = source.bytes(at: meta.payloadStart + 4, count: 4),
           String(decoding: probe, as: UTF8.self) == "hdlr" {
            return children(of: meta)
        }
        return children(of: meta, skipping: 4)
    }

    /// The major and compatible brands of an `ftyp` box.
    func brands(_ ftyp: ISOBox) -> [String] {
        guard let bytes = payload(ftyp, limit: 4096), bytes.count >= 8 else { return [] }
        var brands = [String(decoding: bytes[0 ..< 4], as: UTF8.self)]
        var i = 8
        while i + 4 <= bytes.count {
            brands.append(String(decoding: bytes[i ..< i + 4], as: UTF8.self))
            i += 4
        }
        return brands
    }
}

/// Big-endian reads from a box payload, bounds-checked.
struct PayloadReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, n <= remaining else { return false }
        offset += n
        return true
    }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    mutating func u64() -> UInt64? {
        guard let hi = u32(), let lo = u32() else { return nil }
        return UInt64(hi) << 32 | UInt64(lo)
    }

    mutating func take(_ n: Int) -> [UInt8]? {
        guard n >= 0, n <= remaining else { return nil }
        defer { offset += n }
        return Array(bytes[offset ..< offset + n])
    }
}
