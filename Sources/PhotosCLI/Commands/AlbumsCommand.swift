import ArgumentParser
import Foundation
import Photos

/// `photos albums`: the user's albums and folders as a tree, and optionally smart albums.
struct AlbumsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "albums", abstract: "List albums and folders.")

    @OptionGroup var options: LibraryOptions

    @Flag(help: "Also list smart albums with their counts.")
    var smart = false

    @Flag(help: "Print JSON.")
    var json = false

    struct Entry: Encodable {
        var localIdentifier: String
        var title: String?
        var kind: String
        var count: Int?
        var children: [Entry]?
    }

    func run() throws {
        let library = try options.open(forReading: true)
        library.withCurrent {
            var entries = tree(PHCollection.fetchTopLevelUserCollections(with: nil))
            if smart {
                let smartAlbums = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil)
                entries += smartAlbums.map { album in
                    Entry(
                        localIdentifier: album.localIdentifier, title: album.localizedTitle, kind: "smart album",
                        count: PHAsset.fetchAssets(in: album, options: nil).count)
                }
            }
            if json {
                print((try? AssetFormatting.json(entries)) ?? "[]")
            } else {
                printTree(entries, depth: 0)
            }
        }
    }

    private func tree(_ collections: PHFetchResult<PHCollection>) -> [Entry] {
        collections.map { collection in
            if let list = collection as? PHCollectionList {
                return Entry(
                    localIdentifier: list.localIdentifier, title: list.localizedTitle, kind: "folder",
                    children: tree(PHCollection.fetchCollections(in: list, options: nil)))
            }
            let album = collection as! PHAssetCollection
            return Entry(
                localIdentifier: album.localIdentifier, title: album.localizedTitle, kind: "album",
                count: album.estimatedAssetCount == NSNotFound ? nil : album.estimatedAssetCount)
        }
    }

    private func printTree(_ entries: [Entry], depth: Int) {
        for entry in entries {
            let indent = String(repeating: "  ", count: depth)
            let count = entry.count.map { "  (\($0))" } ?? ""
            let marker = entry.kind == "folder" ? "/" : ""
            print("\(indent)\(entry.title ?? "(untitled)")\(marker)\(count)  \(entry.localIdentifier)")
            printTree(entry.children ?? [], depth: depth + 1)
        }
    }
}
