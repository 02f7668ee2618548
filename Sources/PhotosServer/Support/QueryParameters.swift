import Foundation
import Hummingbird

/// Typed reads of query parameters, each failure a 400 naming the parameter.
struct QueryParameters {
    /// The query's name=value pairs, as sent (decoded when read; a name's first value wins).
    private let pairs: [(name: Substring, value: Substring)]

    init(_ request: Request) {
        self.init(query: request.uri.query.map { Substring($0) } ?? "")
    }

    /// From the query part of a URL (after `?`, without it).
    init(query: Substring) {
        pairs = query.split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (pair, "") }
            return (pair[..<equals], pair[pair.index(after: equals)...])
        }
    }

    /// Most values need no decoding; those that do (`%XX`, `+` for a space) go through Foundation.
    private static func decoded(_ text: Substring) -> String {
        guard needsDecoding(text) else { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static func needsDecoding(_ text: Substring) -> Bool {
        text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") })
    }

    func string(_ name: String) -> String? {
        for pair in pairs where pair.name.utf8.elementsEqual(name.utf8) || (Self.needsDecoding(pair.name) && Self.decoded(pair.name) == name) {
            return pair.value.isEmpty ? nil : Self.decoded(pair.value)
        }
        return nil
    }

    func int(_ name: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws -> Int? {
        guard let text = string(name) else { return fallback }
        guard let value = Int(text) else { throw APIError.badParameter(name, "'\(text)' is not a whole number") }
        guard range.contains(value) else {
            throw APIError.badParameter(name, "\(value) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    func bool(_ name: String) throws -> Bool {
        guard let text = string(name) else { return false }
        switch text.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw APIError.badParameter(name, "'\(text)' is not true or false")
        }
    }

    func choice<T: RawRepresentable<String>>(_ name: String, default fallback: T) throws -> T where T: CaseIterable {
        guard let text = string(name) else { return fallback }
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.badParameter(name, "'\(text)' is not one of \(allowed)")
        }
        return value
    }
}

/// Object identifiers in paths and bodies: a bare UUID or a full local identifier.
enum ObjectID {
    /// The asset local identifier for `text`, or 400 when it can't be one.
    static func asset(_ text: String) throws -> String {
        try normalized(text, suffix: "/L0/001", what: "an asset")
    }

    /// The asset collection local identifier for `text`, or 400.
    static func collection(_ text: String) throws -> String {
        try normalized(text, suffix: "/L0/040", what: "an album, smart album or moment")
    }

    /// The collection list (folder) local identifier for `text`, or 400.
    static func folder(_ text: String) throws -> String {
        try normalized(text, suffix: "/L0/020", what: "a folder")
    }

    private static func normalized(_ text: String, suffix: String, what: String) throws -> String {
        // Already canonical (an upper-case UUID, as the API hands out): no parsing.
        if isCanonicalUUID(text) { return text + suffix }
        // A whole local identifier in a path comes percent-encoded (`UUID%2FL0%2F001`).
        let decoded = text.contains("%") ? text.removingPercentEncoding ?? text : text
        let uuid = decoded.hasSuffix(suffix) ? String(decoded.dropLast(suffix.count)) : decoded
        guard let parsed = UUID(uuidString: uuid) else {
            throw APIError(.badRequest, "'\(text.prefix(80))' is not \(what) identifier")
        }
        return parsed.uuidString + suffix
    }

    /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in upper-case hexadecimal.
    private static func isCanonicalUUID(_ text: String) -> Bool {
        guard text.utf8.count == 36 else { return false }
        for (offset, byte) in text.utf8.enumerated() {
            let dash = offset == 8 || offset == 13 || offset == 18 || offset == 23
            let valid = dash ? byte == UInt8(ascii: "-") : (48...57).contains(byte) || (65...70).contains(byte)
            guard valid else { return false }
        }
        return true
    }

    /// The UUID part of a local identifier (what URLs use).
    static func uuid(_ localIdentifier: String) -> String {
        localIdentifier.split(separator: "/", maxSplits: 1).first.map(String.init) ?? localIdentifier
    }
}
