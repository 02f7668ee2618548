import Foundation
import Hummingbird

/// Typed reads of query parameters, each failure a 400 naming the parameter.
struct QueryParameters {
    private let parameters: Parameters

    init(_ request: Request) {
        parameters = request.uri.queryParameters
    }

    func string(_ name: String) -> String? {
        parameters.get(name).flatMap { $0.isEmpty ? nil : $0 }
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
        let uuid = text.hasSuffix(suffix) ? String(text.dropLast(suffix.count)) : text
        guard let parsed = UUID(uuidString: uuid) else {
            throw APIError(.badRequest, "'\(text.prefix(80))' is not \(what) identifier")
        }
        return parsed.uuidString + suffix
    }

    /// The UUID part of a local identifier (what URLs use).
    static func uuid(_ localIdentifier: String) -> String {
        localIdentifier.split(separator: "/", maxSplits: 1).first.map(String.init) ?? localIdentifier
    }
}
