import Foundation

/// Identifiers of dynamic types (`dyn.a…`): the tags and the conformance a type was made
/// for, written in a base-32 alphabet of lower-case letters and digits, so the identifier
/// alone gives the type back (`UTType("dyn.a…")`).
///
/// The text encoded is `?0=<conforms-to>:1=<extension>` (`4=` for a MIME type, the tag
/// class's own identifier for another class), each value percent-encoded but for letters,
/// digits and `-._/+`; several conformances are separated by `,`. The layout follows Apple's; the
/// bytes are this module's.
enum DynamicTypeIdentifier {
    private static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)
    private static let prefix = "dyn.a"

    static func encode(conformsTo: [String], tags: [UTTagClass: [String]]) -> String {
        var text = "?0=" + conformsTo.map(escaped).joined(separator: ",")
        for (tagClass, values) in tags.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for value in values { text += ":\(key(for: tagClass))=\(escaped(value))" }
        }
        var output = prefix
        var buffer = 0
        var bits = 0
        for byte in text.utf8 {
            buffer = buffer << 8 | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(Character(UnicodeScalar(alphabet[(buffer >> bits) & 31])))
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { output.append(Character(UnicodeScalar(alphabet[(buffer << (5 - bits)) & 31]))) }
        return output
    }

    /// The conformance and tags a dynamic identifier carries; nil when it is not one this
    /// module wrote.
    static func decode(_ identifier: String) -> (conformsTo: [String], tags: [UTTagClass: [String]])? {
        let lowered = identifier.lowercased()
        guard lowered.hasPrefix(prefix) else { return nil }
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in lowered.utf8.dropFirst(prefix.utf8.count) {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = buffer << 5 | value
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 255))
                buffer &= (1 << bits) - 1
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self), text.hasPrefix("?") else { return nil }
        var conformsTo: [String] = []
        var tags: [UTTagClass: [String]] = [:]
        for field in text.dropFirst().split(separator: ":", omittingEmptySubsequences: false) {
            let parts = field.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            let values = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(unescaped)
            if parts[0] == "0" {
                conformsTo = values
            } else {
                tags[tagClass(for: unescaped(parts[0])), default: []] += values
            }
        }
        guard !conformsTo.isEmpty else { return nil }
        return (conformsTo, tags)
    }

    private static func key(for tagClass: UTTagClass) -> String {
        switch tagClass {
        case .filenameExtension: "1"
        case .mimeType: "4"
        default: escaped(tagClass.rawValue)
        }
    }

    private static func tagClass(for key: String) -> UTTagClass {
        switch key {
        case "1": .filenameExtension
        case "4": .mimeType
        default: UTTagClass(rawValue: key)
        }
    }

    /// Characters a value keeps as they are; the rest (`:`, `=`, `,` among them) are
    /// percent-encoded, so the fields split plainly.
    private static let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._/+"))

    private static func escaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: plain) ?? value
    }

    private static func unescaped<Text: StringProtocol>(_ value: Text) -> String {
        String(value).removingPercentEncoding ?? String(value)
    }
}
