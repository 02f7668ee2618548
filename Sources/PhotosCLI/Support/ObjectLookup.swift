import Foundation
import Photos

/// Finds assets and albums from what a user types: a local identifier, a UUID, a unique UUID
/// prefix (at least 4 characters), or for albums also a title.
enum ObjectLookup {
    static func assets(_ arguments: [String], includeDeleted: Bool = false) throws -> [PHAsset] {
        try arguments.map { try asset($0, includeDeleted: includeDeleted) }
    }

    static func asset(_ argument: String, includeDeleted: Bool = false) throws -> PHAsset {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        let exact = argument.contains("/") ? argument : argument.uppercased() + "/L0/001"
        if let found = PHAsset.fetchAssets(withLocalIdentifiers: [exact], options: options).firstObject {
            return found
        }
        if includeDeleted {
            let deleted = PHFetchOptions()
            deleted.predicate = NSPredicate(format: "localIdentifier == %@", exact)
            if let found = PHAsset.fetchRecentlyDeletedAssets(with: deleted).firstObject { return found }
        }
        let prefix = argument.uppercased()
        guard prefix.count >= 4, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw CLIError("no asset with identifier '\(argument)'")
        }
        options.predicate = NSPredicate(format: "localIdentifier BEGINSWITH %@", prefix)
        options.fetchLimit = 2
        var matches = Array(PHAsset.fetchAssets(with: options))
        if matches.isEmpty && includeDeleted {
            let deleted = PHFetchOptions()
            deleted.predicate = options.predicate
            matches = Array(PHAsset.fetchRecentlyDeletedAssets(with: deleted).prefix(2))
        }
        switch matches.count {
        case 0: throw CLIError("no asset with identifier '\(argument)'")
        case 1: return matches[0]
        default: throw CLIError("'\(argument)' matches several assets; give more of the identifier")
        }
    }

    static func album(_ argument: String) throws -> PHAssetCollection {
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
        let exact = argument.contains("/") ? argument : argument.uppercased() + "/L0/040"
        if let found = albums.first(where: { $0.localIdentifier == exact }) { return found }
        let titled = albums.filter { $0.localizedTitle == argument }
        if titled.count == 1 { return titled[0] }
        if titled.count > 1 { throw CLIError("several albums are titled '\(argument)'; use an identifier") }
        let prefixed = albums.filter { $0.localIdentifier.hasPrefix(argument.uppercased()) && argument.count >= 4 }
        if prefixed.count == 1 { return prefixed[0] }
        throw CLIError("no album '\(argument)'")
    }
}
