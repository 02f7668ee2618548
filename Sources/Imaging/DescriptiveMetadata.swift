import Foundation

/// The words people and their programs wrote about a photo: its title, caption and keywords,
/// as digiKam, Lightroom, darktable, Apple Photos and phones write them, for search.
///
/// - XMP: `dc:title` and `dc:description` (the `x-default` entry of their `rdf:Alt`, else the
///   first), `dc:subject` (keywords), `lr:hierarchicalSubject` (`Places|Portugal|Lisbon`: each
///   level is a keyword).
/// - IPTC-IIM (a JPEG's `Photoshop 3.0` block): 2:05 Object Name (title), 2:120
///   Caption-Abstract, 2:25 Keywords; UTF-8 when 1:90 says so or the bytes are UTF-8, else
///   Latin-1.
///
/// XMP's title and caption win over IPTC's; keywords are both's, each once (compared without
/// case), in the order found.
public struct DescriptiveMetadata: Sendable, Equatable {
    public var title: String?
    public var caption: String?
    public var keywords: [String]

    public init(title: String? = nil, caption: String? = nil, keywords: [String] = []) {
        self.title = title
        self.caption = caption
        self.keywords = keywords
    }

    public var isEmpty: Bool { title == nil && caption == nil && keywords.isEmpty }

    /// What an XMP packet (text) and an IPTC block (`iptc-data`, with or without its
    /// `Photoshop 3.0` header) say.
    init(xmp: Data?, iptc: Data?) {
        let fromXMP = xmp.map(XMPDescription.init(packet:)) ?? XMPDescription()
        let fromIPTC = iptc.map { IPTCRecords(block: [UInt8]($0)) } ?? IPTCRecords()
        title = Self.cleaned(fromXMP.title) ?? Self.cleaned(fromIPTC.objectName)
        caption = Self.cleaned(fromXMP.caption) ?? Self.cleaned(fromIPTC.caption)
        var seen = Set<String>()
        keywords = []
        let levels = fromXMP.hierarchicalSubjects.flatMap { $0.split(separator: "|").map(String.init) }
        for keyword in fromXMP.subjects + fromIPTC.keywords + levels {
            guard let keyword = Self.cleaned(keyword), seen.insert(keyword.lowercased()).inserted else { continue }
            keywords.append(keyword)
        }
    }

    /// Trimmed; nil when nothing is left.
    private static func cleaned(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)), !trimmed.isEmpty else {
            return nil
        }
        return trimmed
    }
}

/// The descriptive properties of an XMP packet, found by their usual prefixes (`dc:`, `lr:`,
/// which every writer uses) as `XMPDates` finds dates. Not with Foundation's `XMLParser`: on
/// Linux it crashes the process on some damaged packets (found by
/// `DescriptiveMetadataTests.damagedIPTCAndXMPReadWithoutACrash`), and a packet is the file's.
private struct XMPDescription {
    var title: String?
    var caption: String?
    var subjects: [String] = []
    var hierarchicalSubjects: [String] = []

    init() {}

    init(packet: Data) {
        let text = String(decoding: packet, as: UTF8.self)
        title = Self.alternative(Self.items(of: "dc:title", in: text))
        caption = Self.alternative(Self.items(of: "dc:description", in: text))
        subjects = Self.items(of: "dc:subject", in: text).map(\.text)
        hierarchicalSubjects = Self.items(of: "lr:hierarchicalSubject", in: text).map(\.text)
    }

    /// The `x-default` entry of an `rdf:Alt`, else its first.
    private static func alternative(_ items: [(language: String?, text: String)]) -> String? {
        (items.first { $0.language == "x-default" } ?? items.first)?.text
    }

    /// The `rdf:li` items of the first `<property>...</property>` element, their text unescaped.
    private static func items(of property: String, in packet: String) -> [(language: String?, text: String)] {
        guard let open = packet.range(of: "<\(property)>") ?? packet.range(of: "<\(property) "),
            let close = packet.range(of: "</\(property)>", range: open.upperBound..<packet.endIndex)
        else { return [] }
        var items: [(language: String?, text: String)] = []
        var rest = packet[open.upperBound..<close.lowerBound]
        while let start = rest.range(of: "<rdf:li") {
            guard let tagEnd = rest[start.upperBound...].firstIndex(of: ">") else { break }
            let attributes = rest[start.upperBound..<tagEnd]
            // `<rdf:li/>`: an empty item.
            if attributes.hasSuffix("/") {
                rest = rest[rest.index(after: tagEnd)...]
                continue
            }
            guard let end = rest.range(of: "</rdf:li>", range: rest.index(after: tagEnd)..<rest.endIndex) else { break }
            items.append((language(in: attributes), unescaped(rest[rest.index(after: tagEnd)..<end.lowerBound])))
            rest = rest[end.upperBound...]
        }
        return items
    }

    private static func language(in attributes: Substring) -> String? {
        guard let range = attributes.range(of: "xml:lang=") else { return nil }
        let value = attributes[range.upperBound...]
        guard let quote = value.first, quote == "\"" || quote == "'" else { return nil }
        let inner = value.dropFirst()
        return inner.firstIndex(of: quote).map { String(inner[..<$0]) }
    }

    /// XML's five entities and character references (`&#233;`, `&#xE9;`); anything else as it is.
    private static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                out.append(text[index])
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            var scalar: Unicode.Scalar?
            switch name {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar {
                out.unicodeScalars.append(scalar)
                index = text.index(after: semicolon)
            } else {
                out.append("&")
                index = text.index(after: index)
            }
        }
        return out
    }
}

/// IPTC-IIM datasets from a Photoshop image resource block (resource 0x0404), or from bare
/// IIM records.
private struct IPTCRecords {
    var objectName: String?
    var caption: String?
    var keywords: [String] = []

    init() {}

    init(block: [UInt8]) {
        let records = Self.iptcResource(in: block) ?? block[...]
        var utf8 = false
        var values: [(record: UInt8, dataset: UInt8, bytes: ArraySlice<UInt8>)] = []
        var index = records.startIndex
        while index + 5 <= records.endIndex, records[index] == 0x1C {
            let record = records[index + 1], dataset = records[index + 2]
            var length = Int(records[index + 3]) << 8 | Int(records[index + 4])
            var start = index + 5
            if length & 0x8000 != 0 {
                // Extended: the next (length & 0x7FFF) bytes hold the length.
                let count = length & 0x7FFF
                guard count <= 4, start + count <= records.endIndex else { break }
                length = records[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
                start += count
            }
            guard start + length <= records.endIndex else { break }
            let bytes = records[start..<start + length]
            // 1:90 Coded Character Set: ESC % G is UTF-8.
            if record == 1, dataset == 90, Array(bytes) == [0x1B, 0x25, 0x47] { utf8 = true }
            values.append((record, dataset, bytes))
            index = start + length
        }
        for value in values where value.record == 2 {
            let text = Self.decode(value.bytes, utf8: utf8)
            switch value.dataset {
            case 5: objectName = objectName ?? text
            case 120: caption = caption ?? text
            case 25: keywords.append(text)
            default: break
            }
        }
    }

    /// The IPTC resource (0x0404) of a Photoshop image resource block: `8BIM`, the ID, a padded
    /// Pascal name, a 4-byte size, the data padded to an even size.
    private static func iptcResource(in block: [UInt8]) -> ArraySlice<UInt8>? {
        var index = 0
        let header = Array("Photoshop 3.0\0".utf8)
        if block.starts(with: header) { index = header.count }
        while index + 12 <= block.count, block[index..<index + 4].elementsEqual("8BIM".utf8) {
            let id = Int(block[index + 4]) << 8 | Int(block[index + 5])
            let nameLength = Int(block[index + 6])
            var cursor = index + 6 + (nameLength + 2) & ~1  // the name's length byte and text, padded even
            guard cursor + 4 <= block.count else { return nil }
            let size = block[cursor..<cursor + 4].reduce(0) { $0 << 8 | Int($1) }
            cursor += 4
            guard size >= 0, cursor + size <= block.count else { return nil }
            if id == 0x0404 { return block[cursor..<cursor + size] }
            index = cursor + (size + 1) & ~1
        }
        return nil
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, utf8: Bool) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        if utf8 { return String(decoding: bytes, as: UTF8.self) }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }
}
