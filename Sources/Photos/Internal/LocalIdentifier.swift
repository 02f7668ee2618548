import Foundation

/// Apple's local identifier shape: `UUID/L0/001` for assets, `UUID/L0/040` for asset
/// collections (albums, smart albums, moments) and `UUID/L0/020` for collection lists.
enum LocalIdentifier {
    static let assetSuffix = "/L0/001"
    static let assetCollectionSuffix = "/L0/040"
    static let collectionListSuffix = "/L0/020"

    static func asset(_ uuid: String) -> String { uuid + assetSuffix }
    static func collection(_ uuid: String, isList: Bool) -> String {
        uuid + (isList ? collectionListSuffix : assetCollectionSuffix)
    }

    /// The UUID of an asset identifier; a bare UUID is accepted too.
    static func assetUUID(_ identifier: String) -> String? {
        uuid(identifier, suffixes: [assetSuffix])
    }

    /// The UUID of an asset-collection or collection-list identifier (or a bare UUID).
    static func collectionUUID(_ identifier: String, isList: Bool?) -> String? {
        switch isList {
        case true?: uuid(identifier, suffixes: [collectionListSuffix])
        case false?: uuid(identifier, suffixes: [assetCollectionSuffix])
        case nil: uuid(identifier, suffixes: [assetCollectionSuffix, collectionListSuffix])
        }
    }

    private static func uuid(_ identifier: String, suffixes: [String]) -> String? {
        var candidate = Substring(identifier)
        if let suffix = suffixes.first(where: { identifier.hasSuffix($0) }) {
            candidate = candidate.dropLast(suffix.count)
        } else if identifier.contains("/") {
            return nil
        }
        guard let uuid = UUID(uuidString: String(candidate)) else { return nil }
        return uuid.uuidString
    }
}
