import ArgumentParser
import Foundation
import Photos

/// `photos info ID`: everything about one asset.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Show an asset's properties and files.")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The asset (identifier, UUID or unique prefix).")
    var identifier: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let library = try options.open(forReading: true)
        try library.withCurrent {
            let asset = try ObjectLookup.asset(identifier, includeDeleted: true)
            let resources = PHAssetResource.assetResources(for: asset)
            if json {
                print(try AssetFormatting.json(AssetFormatting.AssetJSON(asset, resources: resources)))
                return
            }
            var lines: [(String, String)] = [
                ("Identifier", asset.localIdentifier),
                ("Type", AssetFormatting.typeName(asset) + (asset.mediaSubtypes.isEmpty ? "" : " (subtypes \(asset.mediaSubtypes.rawValue))")),
                ("Size", "\(asset.pixelWidth) x \(asset.pixelHeight)"),
                ("Created", AssetFormatting.date(asset.creationDate)),
                ("Modified", AssetFormatting.date(asset.modificationDate)),
                ("Added", AssetFormatting.date(asset.addedDate)),
            ]
            if let location = asset.location {
                lines.append(("Location", String(format: "%.6f, %.6f", location.coordinate.latitude, location.coordinate.longitude)))
            }
            if asset.mediaType == .video { lines.append(("Duration", String(format: "%.2f s", asset.duration))) }
            lines.append(("Favorite", asset.isFavorite ? "yes" : "no"))
            lines.append(("Hidden", asset.isHidden ? "yes" : "no"))
            if let burst = asset.burstIdentifier { lines.append(("Burst", burst)) }
            if let deleted = asset.trashedDate { lines.append(("Deleted", AssetFormatting.date(deleted))) }
            let albums = PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: nil)
            if albums.count > 0 { lines.append(("Albums", albums.compactMap(\.localizedTitle).joined(separator: ", "))) }
            for resource in resources {
                lines.append(("File", "\(resource.originalFilename) (\(resource.uniformTypeIdentifier), \(resource.fileSize) bytes)"))
            }
            for (label, value) in lines { print(label.padding(toLength: 11, withPad: " ", startingAt: 0) + value) }
        }
    }
}
