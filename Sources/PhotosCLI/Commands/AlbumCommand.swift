import ArgumentParser
import Foundation
import Photos

/// `photos album create|add|remove|rename|delete`.
struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Create, fill and edit albums.",
        subcommands: [AlbumCreateCommand.self, AlbumAddCommand.self, AlbumRemoveCommand.self, AlbumRenameCommand.self, AlbumDeleteCommand.self])
}

struct AlbumCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an album (and print its identifier).")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The album's title.") var title: String
    @Option(help: "Create it inside this folder (created if missing).") var folder: String?

    func validate() throws {
        if title.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the title can't be empty") }
    }

    func run() throws {
        let library = try options.open()
        var identifier = ""
        try library.withCurrent {
            let existingFolder = folder.flatMap { name in
                PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).first { $0.localizedTitle == name }
            }
            try commit(library, "creating album '\(title)'") {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                identifier = request.placeholderForCreatedAssetCollection.localIdentifier
                if let existingFolder {
                    PHCollectionListChangeRequest(for: existingFolder)?.addChildCollections([request.placeholderForCreatedAssetCollection])
                } else if let folder {
                    PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: folder)
                        .addChildCollections([request.placeholderForCreatedAssetCollection])
                }
            }
        }
        print(identifier)
    }
}

struct AlbumAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add assets to an album.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The album (title or identifier).") var album: String
    @Argument(help: "Assets to add.") var assets: [String]

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let collection = try ObjectLookup.album(album)
            let found = try ObjectLookup.assets(assets)
            try commit(library, "adding to '\(collection.localizedTitle ?? album)'") {
                PHAssetCollectionChangeRequest(for: collection)?.addAssets(found)
            }
            print("Added \(found.count) asset\(found.count == 1 ? "" : "s") to \(collection.localizedTitle ?? album).")
        }
    }
}

struct AlbumRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove assets from an album (they stay in the library).")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The album (title or identifier).") var album: String
    @Argument(help: "Assets to remove.") var assets: [String]

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let collection = try ObjectLookup.album(album)
            let found = try ObjectLookup.assets(assets)
            try commit(library, "removing from '\(collection.localizedTitle ?? album)'") {
                PHAssetCollectionChangeRequest(for: collection)?.removeAssets(found)
            }
            print("Removed \(found.count) asset\(found.count == 1 ? "" : "s") from \(collection.localizedTitle ?? album).")
        }
    }
}

struct AlbumRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename an album.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The album (title or identifier).") var album: String
    @Argument(help: "The new title.") var title: String

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let collection = try ObjectLookup.album(album)
            try commit(library, "renaming '\(collection.localizedTitle ?? album)'") {
                PHAssetCollectionChangeRequest(for: collection)?.title = title
            }
        }
    }
}

struct AlbumDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete an album (its assets stay in the library).")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The album (title or identifier).") var album: String

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let collection = try ObjectLookup.album(album)
            try commit(library, "deleting '\(collection.localizedTitle ?? album)'") {
                PHAssetCollectionChangeRequest.deleteAssetCollections([collection])
            }
        }
    }
}
