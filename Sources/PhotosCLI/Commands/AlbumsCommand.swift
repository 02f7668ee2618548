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

    /// An album, smart album or folder as `--json` prints it: what the API's collections say
    /// too (``CollectionJSONFields``), its kind, an album's count and a folder's children.
    struct Entry: Encodable {
        var collection: CollectionJSONFields
        /// `album`, `smart album` or `folder`.
        var kind: String
        var count: Int?
        var children: [Entry]?

        func encode(to encoder: any Encoder) throws {
            try collection.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encodeIfPresent(count, forKey: .count)
            try container.encodeIfPresent(children, forKey: .children)
        }

        private enum CodingKeys: String, CodingKey { case kind, count, children }
    }

    func run() throws {
        let library = try options.open(forReading: true)
        library.withCurrent {
            var entries = tree(PHCollection.fetchTopLevelUserCollections(with: nil))
            if smart {
                let smartAlbums = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil)
                entries += smartAlbums.map { album in
                    Entry(
                        collection: CollectionJSONFields(album), kind: "smart album",
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
                    collection: CollectionJSONFields(list), kind: "folder",
                    children: tree(PHCollection.fetchCollections(in: list, options: nil)))
            }
            let album = collection as! PHAssetCollection
            return Entry(
                collection: CollectionJSONFields(album), kind: "album", count: CollectionJSONFields.estimatedAssetCount(of: album))
        }
    }

    private func printTree(_ entries: [Entry], depth: Int) {
        for entry in entries {
            let indent = String(repeating: "  ", count: depth)
            let count = entry.count.map { "  (\($0))" } ?? ""
            let marker = entry.kind == "folder" ? "/" : ""
            print("\(indent)\(entry.collection.title ?? "(untitled)")\(marker)\(count)  \(entry.collection.localIdentifier)")
            printTree(entry.children ?? [], depth: depth + 1)
        }
    }
}
