import ArgumentParser
import Foundation
import Photos

/// `photos delete ID...`: moves assets to Recently Deleted.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Move assets to Recently Deleted (kept 30 days; see 'photos recover').")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]
    @Flag(help: "Delete for good, files and all, without going through Recently Deleted.") var permanently = false

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let found = try ObjectLookup.assets(assets, includeDeleted: permanently)
            try commit(library, "deleting") {
                if permanently {
                    PHAssetChangeRequest.deleteAssetsPermanently(found)
                } else {
                    PHAssetChangeRequest.deleteAssets(found)
                }
            }
            let where_ = permanently ? "for good" : "to Recently Deleted"
            print("Deleted \(found.count) asset\(found.count == 1 ? "" : "s") \(where_).")
        }
    }
}

/// `photos deleted`: what is in Recently Deleted.
struct DeletedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "deleted", abstract: "List assets in Recently Deleted.")

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let deleted = PHAsset.fetchRecentlyDeletedAssets(with: nil)
            if json {
                print(try AssetFormatting.json(deleted.map { AssetFormatting.AssetJSON($0) }))
                return
            }
            for asset in deleted {
                let expires = asset.trashedDate.map { AssetFormatting.date($0.addingTimeInterval(30 * 86_400)) } ?? "-"
                print("\(AssetFormatting.line(asset))  deleted \(AssetFormatting.date(asset.trashedDate)), gone after \(expires)")
            }
        }
    }
}

/// `photos recover ID...`: brings assets back from Recently Deleted.
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "recover", abstract: "Bring assets back from Recently Deleted.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Deleted assets (identifier, UUID or unique prefix).") var assets: [String]

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let found = try ObjectLookup.assets(assets, includeDeleted: true)
            try commit(library, "recovering") { PHAssetChangeRequest.recoverAssets(found) }
            print("Recovered \(found.count) asset\(found.count == 1 ? "" : "s").")
        }
    }
}
