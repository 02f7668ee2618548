import ArgumentParser
import Foundation
import Photos

/// `photos revert ID...`: drops assets' edits; the originals become current again.
struct RevertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revert", abstract: "Drop assets' edits (back to the originals).")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "Assets (identifier, UUID or unique prefix).")
    var assets: [String]

    func run() throws {
        let library = try options.open()
        try library.withCurrent {
            let found = try ObjectLookup.assets(assets)
            let edited = found.filter(\.hasAdjustments)
            try commit(library, "revert") {
                for asset in edited { PHAssetChangeRequest(for: asset).revertAssetContentToOriginal() }
            }
            print("Reverted \(edited.count) asset\(edited.count == 1 ? "" : "s")\(found.count > edited.count ? " (\(found.count - edited.count) had no edit)" : "").")
        }
    }
}
