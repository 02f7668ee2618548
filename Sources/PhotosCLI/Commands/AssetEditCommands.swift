import ArgumentParser
import Foundation
import Photos

/// The shape shared by `favorite`, `unfavorite`, `hide`, `unhide`: set one flag on assets.
protocol AssetFlagCommand: ParsableCommand {
    var options: LibraryOptions { get }
    var assets: [String] { get }
    static var verb: String { get }
    static func apply(_ request: PHAssetChangeRequest)
}

extension AssetFlagCommand {
    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let found = try ObjectLookup.assets(assets)
            try commit(library, Self.verb) {
                for asset in found { Self.apply(PHAssetChangeRequest(for: asset)) }
            }
            print("\(Self.verb.prefix(1).uppercased() + Self.verb.dropFirst()) \(found.count) asset\(found.count == 1 ? "" : "s").")
        }
    }
}

struct FavoriteCommand: AssetFlagCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Mark assets as favorites.")
    static let verb = "favorited"
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]
    static func apply(_ request: PHAssetChangeRequest) { request.isFavorite = true }
}

struct UnfavoriteCommand: AssetFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unfavorite", abstract: "Unmark favorite assets.")
    static let verb = "unfavorited"
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]
    static func apply(_ request: PHAssetChangeRequest) { request.isFavorite = false }
}

struct HideCommand: AssetFlagCommand {
    static let configuration = CommandConfiguration(commandName: "hide", abstract: "Hide assets (they move to the Hidden album).")
    static let verb = "hid"
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]
    static func apply(_ request: PHAssetChangeRequest) { request.isHidden = true }
}

struct UnhideCommand: AssetFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unhide", abstract: "Show hidden assets again.")
    static let verb = "unhid"
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]
    static func apply(_ request: PHAssetChangeRequest) { request.isHidden = false }
}
