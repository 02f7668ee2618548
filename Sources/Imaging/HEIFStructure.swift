/// The item structure of a HEIF/HEIC/AVIF file's `meta` box, read without decoding: which item
/// is the primary image, what type each item is, where its bytes are, and which items a grid
/// is made of.
struct HEIFStructure {
    struct Extent {
        var offset: Int64
        /// 0: to the end of the file (or of `idat`).
        var length: Int64
    }

    struct Location {
        /// 0: file offsets; 1: offsets in the `idat` box; 2: offsets into another item.
        var constructionMethod: Int
        var dataReferenceIndex: Int
        var extents: [Extent]
    }

    var primaryItem: UInt32?
    var itemTypes: [UInt32: String] = [:]
    var locations: [UInt32: Location] = [:]
    /// `dimg` references: a derived image (grid, overlay, identity) to the items it is made of.
    var derivedFrom: [UInt32: [UInt32]] = [:]
    var idat: ISOBox?
    var hasItemInfo = false
    var hasItemLocations = false

    /// Item types that are images: coded (HEVC, AV1, JPEG, H.264, VVC, JPEG 2000, uncompressed)
    /// or derived (grid, overlay, identity). Types before version 2 of `infe` are "unknown".
    static let imageTypes: Set<String> = [
        "hvc1", "hev1", "av01", "jpeg", "avc1", "vvc1", "j2k1", "unci", "grid", "iovl", "iden", "unknown",
    ]

    /// What is structurally wrong, or `nil`: `pitm`, `iinf` and `iloc` present and readable, the
    /// primary item an image listed in both (a grid's or overlay's tiles too), with data, and
    /// every item's extents inside the file (or inside `idat`).
    static func structureProblem(parser: ISOBMFFParser, meta: ISOBox) -> String? {
        let (children, overrun) = parser.children(from: meta.payloadStart + 4, to: meta.end)
        if overrun { return "a box inside 'meta' runs past the end of 'meta'" }
        var structure = HEIFStructure()
        for box in children {
            switch box.type {
            case "pitm":
                guard let bytes = parser.payload(box, limit: 64) else { return "the 'pitm' box is damaged" }
                var r = PayloadReader(bytes)
                guard let version = r.u8(), r.skip(3), let id = version == 0 ? r.u16().map(UInt32.init) : r.u32() else {
                    return "the 'pitm' box is damaged"
                }
                structure.primaryItem = id
            case "iinf":
                structure.hasItemInfo = true
                if let problem = structure.readItemInfo(parser: parser, box: box) { return problem }
            case "iloc":
                structure.hasItemLocations = true
                guard let bytes = parser.payload(box, limit: 4 << 20), structure.readLocations(bytes) else {
                    return "the 'iloc' box (item locations) at offset \(box.start) is damaged"
                }
            case "iref":
                if let bytes = parser.payload(box, limit: 4 << 20) { structure.readReferences(parser: parser, box: box, bytes: bytes) }
            case "idat":
                structure.idat = box
            default:
                break
            }
        }
        guard let primary = structure.primaryItem else { return "no primary item ('pitm' box)" }
        guard structure.hasItemInfo else { return "no item information ('iinf' box)" }
        guard structure.hasItemLocations else { return "no item locations ('iloc' box)" }
        guard let type = structure.itemTypes[primary] else { return "the primary item \(primary) is not in 'iinf'" }
        // The items shown, each once: a grid may list a tile any number of times, and checking
        // each listing (or looking each item up in the list) took seconds for a 50 KB file.
        var items = [primary], shown: Set<UInt32> = [primary]
        if ["grid", "iovl", "iden"].contains(type) {
            let parts = structure.derivedFrom[primary] ?? []
            guard !parts.isEmpty else { return "the primary item \(primary) is a '\(type)' of no images (no 'dimg' references)" }
            for part in parts where shown.insert(part).inserted { items.append(part) }
        }
        // libheif refuses a file in which any item's data lies outside it, so every item is
        // checked, not only the ones shown.
        for (id, location) in structure.locations.sorted(by: { $0.key < $1.key }) where !shown.contains(id) {
            if let problem = structure.check(location, of: "item \(id) ('\(structure.itemTypes[id] ?? "?")')", fileSize: parser.source.size, requireData: false) {
                return problem
            }
        }
        for id in items {
            let name = id == primary ? "the primary item \(primary) ('\(type)')" : "item \(id) of the primary '\(type)'"
            guard let itemType = structure.itemTypes[id] else { return "\(name) is not in 'iinf'" }
            guard imageTypes.contains(itemType) else { return "\(name) is of type '\(itemType)', not an image" }
            if itemType == "iden" { continue }  // no data of its own
            guard let location = structure.locations[id] else { return "\(name) has no location in 'iloc'" }
            if let problem = structure.check(location, of: name, fileSize: parser.source.size) { return problem }
        }
        return nil
    }

    private func check(_ location: Location, of name: String, fileSize: Int64, requireData: Bool = true) -> String? {
        guard !location.extents.isEmpty || !requireData else { return "\(name) has no extents in 'iloc' (no data)" }
        switch location.constructionMethod {
        case 0:
            guard location.dataReferenceIndex == 0 else { return nil }  // in another file: not ours to check
            for extent in location.extents {
                let end = extent.length == 0 ? extent.offset : extent.offset + extent.length
                guard extent.offset >= 0, extent.offset < fileSize, end <= fileSize else {
                    return "\(name)'s data at offset \(extent.offset) (\(extent.length) bytes) runs past the end of the file (\(fileSize) bytes)"
                }
            }
        case 1:
            guard let idat else { return "\(name) is stored in an 'idat' box the file does not have" }
            for extent in location.extents where extent.offset < 0 || extent.offset + extent.length > idat.payloadSize {
                return "\(name)'s data at offset \(extent.offset) of 'idat' (\(extent.length) bytes) runs past the end of 'idat' (\(idat.payloadSize) bytes)"
            }
        default:
            break
        }
        return nil
    }

    /// The primary item's size as shown: its `ispe` (image spatial extents) turned by its `irot`
    /// (a multiple of 90° anticlockwise), read from `iprp` (`ipco` properties, `ipma`
    /// associations); `nil` when the file doesn't say.
    struct PrimaryGeometry: Equatable {
        var width: Int
        var height: Int
        /// An odd number of quarter turns associated before the `ispe`: libheif 1.15 then
        /// reports the size unturned but decodes the image turned, and libvips, comparing the
        /// two, refuses it ("bad image dimensions on decode"). Sony's portrait HIF files.
        var turnedBeforeSized: Bool
    }

    static func primaryGeometry(parser: ISOBMFFParser, meta: ISOBox) -> PrimaryGeometry? {
        let children = parser.children(from: meta.payloadStart + 4, to: meta.end).boxes
        guard let pitm = children.first(where: { $0.type == "pitm" }), let pitmBytes = parser.payload(pitm, limit: 64),
            let iprp = children.first(where: { $0.type == "iprp" })
        else { return nil }
        var r = PayloadReader(pitmBytes)
        guard let pitmVersion = r.u8(), r.skip(3), let primary = pitmVersion == 0 ? r.u16().map(UInt32.init) : r.u32() else { return nil }
        let boxes = parser.children(of: iprp)
        guard let ipco = boxes.first(where: { $0.type == "ipco" }) else { return nil }
        let properties = parser.children(of: ipco)
        var indexes: [Int] = []
        for ipma in boxes where ipma.type == "ipma" {
            guard let bytes = parser.payload(ipma, limit: 4 << 20) else { return nil }
            var r = PayloadReader(bytes)
            guard let version = r.u8(), let flags = r.take(3), let count = r.u32() else { return nil }
            for _ in 0 ..< count {
                guard let id = version < 1 ? r.u16().map(UInt32.init) : r.u32(), let associations = r.u8() else { return nil }
                for _ in 0 ..< associations {
                    guard let index = flags[2] & 1 != 0 ? r.u16().map({ Int($0 & 0x7FFF) }) : r.u8().map({ Int($0 & 0x7F) }) else { return nil }
                    if id == primary, index > 0 { indexes.append(index) }
                }
            }
        }
        var size: (width: Int, height: Int)?
        var quarterTurns = 0, turnsBeforeSize = 0
        for index in indexes where index <= properties.count {
            let property = properties[index - 1]
            switch property.type {
            case "ispe":
                guard size == nil, let bytes = parser.payload(property, limit: 64) else { continue }
                var r = PayloadReader(bytes)
                guard r.skip(4), let width = r.u32(), let height = r.u32() else { continue }
                size = (Int(width), Int(height))
                turnsBeforeSize = quarterTurns
            case "irot":
                guard let bytes = parser.payload(property, limit: 64), let angle = bytes.first else { continue }
                quarterTurns += Int(angle & 3)
            default:
                break
            }
        }
        guard let size else { return nil }
        let turned = quarterTurns % 2 == 1
        return PrimaryGeometry(
            width: turned ? size.height : size.width, height: turned ? size.width : size.height, turnedBeforeSized: turnsBeforeSize % 2 == 1)
    }

    /// The primary geometry of a HEIF's bytes, from its top-level `meta`.
    static func primaryGeometry(in source: any ByteSource) -> PrimaryGeometry? {
        let parser = ISOBMFFParser(source: source)
        guard let meta = parser.topLevel().boxes.first(where: { $0.type == "meta" }) else { return nil }
        return primaryGeometry(parser: parser, meta: meta)
    }

    /// `iinf`: a full box with an entry count, then `infe` boxes (version 2 and 3 carry the
    /// item type).
    private mutating func readItemInfo(parser: ISOBMFFParser, box: ISOBox) -> String? {
        guard let head = parser.source.bytes(at: box.payloadStart, count: 4) else { return "the 'iinf' box is damaged" }
        let countSize: Int64 = head[0] == 0 ? 2 : 4
        let (entries, overrun) = parser.children(from: box.payloadStart + 4 + countSize, to: box.end)
        if overrun { return "an 'infe' box runs past the end of 'iinf'" }
        for infe in entries where infe.type == "infe" {
            guard let bytes = parser.payload(infe, limit: 64 * 1024) else { return "the 'infe' box at offset \(infe.start) is damaged" }
            var r = PayloadReader(bytes)
            guard let version = r.u8(), r.skip(3) else { return "the 'infe' box at offset \(infe.start) is damaged" }
            let id: UInt32?
            switch version {
            case 3: id = r.u32()
            default: id = r.u16().map(UInt32.init)
            }
            guard let id else { return "the 'infe' box at offset \(infe.start) is damaged" }
            var type = "unknown"
            if version >= 2, r.skip(2), let fourCC = r.take(4) {
                type = String(fourCC.map { Character(Unicode.Scalar($0)) })
            }
            itemTypes[id] = type
        }
        return nil
    }

    /// `iloc`, versions 0 to 2 (ISO/IEC 14496-12 8.11.3).
    ///
    /// An extent whose index, offset and length all have size 0 takes no bytes to list and is
    /// the item's base offset "to the end", every time: an item's 65,535 such extents are kept
    /// as one. (Kept each, 7,000 items of them in a 56 KB file asked for 7 GB.) Every other
    /// extent takes at least 4 bytes of the box.
    mutating func readLocations(_ bytes: [UInt8]) -> Bool {
        var r = PayloadReader(bytes)
        guard let version = r.u8(), version <= 2, r.skip(3), let sizes = r.u8(), let sizes2 = r.u8() else { return false }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseOffsetSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 0xF) : 0
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseOffsetSize),
            [0, 4, 8].contains(indexSize)
        else { return false }
        func read(_ size: Int) -> UInt64? {
            switch size {
            case 0: 0
            case 4: r.u32().map(UInt64.init)
            default: r.u64()
            }
        }
        guard let itemCount = version < 2 ? r.u16().map(UInt32.init) : r.u32() else { return false }
        for _ in 0 ..< itemCount {
            guard let id = version < 2 ? r.u16().map(UInt32.init) : r.u32() else { return false }
            var method = 0
            if version >= 1 {
                guard let field = r.u16() else { return false }
                method = Int(field & 0xF)
            }
            guard let reference = r.u16(), let base = read(baseOffsetSize), let extentCount = r.u16() else { return false }
            let listed = indexSize + offsetSize + lengthSize == 0 ? min(Int(extentCount), 1) : Int(extentCount)
            var extents: [Extent] = []
            for _ in 0 ..< listed {
                guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize),
                    base <= UInt64(Int64.max) / 2, offset <= UInt64(Int64.max) / 2, length <= UInt64(Int64.max) / 2
                else { return false }
                extents.append(Extent(offset: Int64(base + offset), length: Int64(length)))
            }
            locations[id] = Location(constructionMethod: method, dataReferenceIndex: Int(reference), extents: extents)
        }
        return true
    }

    /// `iref`: a full box of reference boxes (`dimg`, `thmb`, `auxl`, ...), each from one item to
    /// a list of items (16-bit ids in version 0, 32-bit in version 1).
    private mutating func readReferences(parser: ISOBMFFParser, box: ISOBox, bytes: [UInt8]) {
        guard let version = bytes.first else { return }
        for reference in parser.children(from: box.payloadStart + 4, to: box.end).boxes where reference.type == "dimg" {
            guard let payload = parser.payload(reference, limit: 1 << 20) else { continue }
            var r = PayloadReader(payload)
            func id() -> UInt32? { version == 0 ? r.u16().map(UInt32.init) : r.u32() }
            guard let from = id(), let count = r.u16() else { continue }
            var to: [UInt32] = []
            for _ in 0 ..< count {
                guard let item = id() else { break }
                to.append(item)
            }
            derivedFrom[from, default: []] += to
        }
    }
}
