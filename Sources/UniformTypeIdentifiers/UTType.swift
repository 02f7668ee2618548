public import Foundation

/// A type of data (a file format, a kind of content), as Apple's `UTType`: an identifier such
/// as `public.jpeg`, its filename extensions and MIME types, and the types it conforms to.
///
/// ```swift
/// let type = UTType(filenameExtension: "HEIC")        // public.heic
/// type?.conforms(to: .image)                           // true
/// UTType.quickTimeMovie.preferredMIMEType              // "video/quicktime"
/// ```
///
/// Linux: there is no system type database and no `Info.plist`. The declared types are this
/// module's table: the common base types, text and documents, and
/// every image and movie format the Photos library imports and exports (the camera RAW
/// formats under their makers' identifiers). A tag no declared type has gives a dynamic type
/// (`dyn.a…`) that carries the tag and the type it was asked to conform to, as Apple's do;
/// its encoding is this module's, so dynamic identifiers are not Apple's bytes.
/// `init(importedAs:conformingTo:)` and `init(exportedAs:conformingTo:)` give the declared type
/// when the table has the identifier, else a type that conforms to the given parent (or
/// `public.data`). ``localizedDescription`` is in English; ``version`` and ``referenceURL``
/// are `nil`.
public struct UTType: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The type's identifier, as declared (`public.jpeg`, `com.apple.quicktime-movie`).
    public let identifier: String
    /// What a type the table doesn't declare conforms to and the tags it carries (dynamic,
    /// imported or exported types); nil for declared types.
    private let undeclared: Undeclared?

    private struct Undeclared: Sendable {
        var conformsTo: [UTType]
        var tags: [UTTagClass: [String]]
    }

    /// A declared type, by the identifier its static member names.
    init(declared identifier: String) {
        precondition(UTTypeDeclaration.byIdentifier[identifier.lowercased()] != nil, "\(identifier) is not in the table")
        self.identifier = identifier
        undeclared = nil
    }

    private init(identifier: String, undeclared: Undeclared) {
        self.identifier = identifier
        self.undeclared = undeclared
    }

    /// The type with this identifier (compared without regard to case, as identifiers are);
    /// `nil` when it is neither declared nor a dynamic identifier.
    public init?(_ identifier: String) {
        if let declaration = UTTypeDeclaration.byIdentifier[identifier.lowercased()] {
            self.init(declared: declaration.identifier)
        } else if let dynamic = DynamicTypeIdentifier.decode(identifier) {
            let conformsTo = dynamic.conformsTo.map { UTType($0) ?? UTType(identifier: $0, undeclared: Undeclared(conformsTo: [], tags: [:])) }
            self.init(identifier: identifier, undeclared: Undeclared(conformsTo: conformsTo, tags: dynamic.tags))
        } else {
            return nil
        }
    }

    /// A type an app uses but doesn't own. Linux: the declared type when the table has
    /// `identifier`, else a type conforming to `parentType` (`public.data` when nil).
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(ownedOrNot: identifier, conformingTo: parentType)
    }

    /// A type an app owns. Linux: as ``init(importedAs:conformingTo:)``.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(ownedOrNot: identifier, conformingTo: parentType)
    }

    private init(ownedOrNot identifier: String, conformingTo parentType: UTType?) {
        if let declared = UTType(identifier) {
            self = declared
        } else {
            self.init(identifier: identifier, undeclared: Undeclared(conformsTo: [parentType ?? .data], tags: [:]))
        }
    }

    /// The preferred type with `tag` in `tagClass` that conforms to `supertype` (any type when
    /// nil); a dynamic type carrying the tag when no declared type has it; `nil` when the tag
    /// is not valid (empty, or a filename extension with a `/`).
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        guard let first = Self.types(tag: tag, tagClass: tagClass, conformingTo: supertype).first else { return nil }
        self = first
    }

    /// The type of files with this extension (without the dot; any case), conforming to
    /// `supertype`: `UTType(filenameExtension: "jpg")` is ``jpeg``.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The type with this MIME type (any case), conforming to `supertype`:
    /// `UTType(mimeType: "image/heic")` is ``heic``.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// Every declared type with `tag` in `tagClass` conforming to `supertype`, the preferred
    /// first; a dynamic type alone when none is declared; empty when the tag is not valid.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        guard !tag.isEmpty, tagClass != .filenameExtension || !tag.contains("/") else { return [] }
        let found = (UTTypeDeclaration.byTag[tagClass]?[tag.lowercased()] ?? [])
            .map { UTType(declared: $0.identifier) }
            .filter { supertype.map($0.conforms(to:)) ?? true }
        if !found.isEmpty { return found }
        let parent = supertype ?? .data
        let identifier = DynamicTypeIdentifier.encode(conformsTo: [parent.identifier], tags: [tagClass: [tag]])
        return [UTType(identifier: identifier, undeclared: Undeclared(conformsTo: [parent], tags: [tagClass: [tag]]))]
    }

    // MARK: What the type is

    /// Its tags: filename extensions and MIME types, the preferred first.
    public var tags: [UTTagClass: [String]] {
        if let undeclared { return undeclared.tags }
        guard let declaration else { return [:] }
        var tags: [UTTagClass: [String]] = [:]
        if !declaration.filenameExtensions.isEmpty { tags[.filenameExtension] = declaration.filenameExtensions }
        if !declaration.mimeTypes.isEmpty { tags[.mimeType] = declaration.mimeTypes }
        return tags
    }

    /// The extension files of this type are given (`jpeg` for ``jpeg``), without the dot.
    public var preferredFilenameExtension: String? { tags[.filenameExtension]?.first }

    /// The MIME type of this type's data (`image/jpeg` for ``jpeg``).
    public var preferredMIMEType: String? { tags[.mimeType]?.first }

    /// A description for people (`JPEG image`). Linux: English only; nil for undeclared types.
    public var localizedDescription: String? { declaration?.description }

    /// The declaration's version. Linux: always nil (the table declares none).
    public var version: Int? { nil }

    /// A page describing the type. Linux: always nil.
    public var referenceURL: URL? { nil }

    /// Whether the type was made for a tag no declared type has (`dyn.` identifiers).
    public var isDynamic: Bool { identifier.lowercased().hasPrefix("dyn.") }

    /// Whether the table declares the type.
    public var isDeclared: Bool { declaration != nil }

    /// Whether the type is one of the `public.` types.
    public var isPublic: Bool { isDeclared && identifier.hasPrefix("public.") }

    // MARK: Conformance

    /// Every type this type conforms to, directly or through others (not itself).
    public var supertypes: Set<UTType> {
        var found: Set<UTType> = []
        var next = directSupertypes
        while let type = next.popLast() {
            guard found.insert(type).inserted else { continue }
            next += type.directSupertypes
        }
        return found
    }

    /// Whether data of this type is also of `type`: true for the type itself and every
    /// supertype (``jpeg`` conforms to ``image``, ``data``, ``content`` and ``item``).
    public func conforms(to type: UTType) -> Bool {
        self == type || supertypes.contains(type)
    }

    /// Whether `type` conforms to this type and is not it.
    public func isSupertype(of type: UTType) -> Bool {
        type.isSubtype(of: self)
    }

    /// Whether this type conforms to `type` and is not it.
    public func isSubtype(of type: UTType) -> Bool {
        self != type && conforms(to: type)
    }

    private var declaration: UTTypeDeclaration? {
        undeclared == nil ? UTTypeDeclaration.byIdentifier[identifier.lowercased()] : nil
    }

    private var directSupertypes: [UTType] {
        undeclared?.conformsTo ?? declaration?.conformsTo.map(UTType.init(declared:)) ?? []
    }

    // MARK: Equality, coding, description

    /// Types are equal when their identifiers are, without regard to case.
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        lhs.identifier.lowercased() == rhs.identifier.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier.lowercased())
    }

    /// Decodes the identifier written by ``encode(to:)``. Linux: an identifier neither declared
    /// nor dynamic decodes as an imported type conforming to `public.data`.
    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        self = UTType(identifier) ?? UTType(importedAs: identifier)
    }

    /// Encodes the identifier, as one string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    public var description: String { identifier }

    public var debugDescription: String {
        "\(identifier) (\(localizedDescription ?? (isDynamic ? "dynamic" : "undeclared")))"
    }
}

/// A kind of tag a type carries: a filename extension or a MIME type.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `public.filename-extension`: extensions without the dot.
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    /// `public.mime-type`.
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")

    public var description: String { rawValue }
}

extension URL {
    /// The URL with the type's preferred extension appended (unchanged when it has none).
    public func appendingPathExtension(for contentType: UTType) -> URL {
        guard let ext = contentType.preferredFilenameExtension, pathExtension.lowercased() != ext.lowercased() else { return self }
        return appendingPathExtension(ext)
    }

    /// The URL with `partialName` appended and, unless the name's extension already names a
    /// type conforming to `contentType`, the type's preferred extension after it.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        let url = appendingPathComponent(partialName)
        let ext = url.pathExtension
        if !ext.isEmpty, let existing = UTType(filenameExtension: ext), existing.conforms(to: contentType) { return url }
        return url.appendingPathExtension(for: contentType)
    }
}
