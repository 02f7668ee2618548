import ArgumentParser
import Foundation
import Photos

/// `photos search`: the assets a search finds (``PHAsset/fetchAssets(matching:options:)``).
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find assets by words, places, times and kinds.",
        discussion: """
            Words are looked up in file names, titles, captions and keywords, camera make, model
            and lens, place names and album titles; every word must match, and the last one
            also matches words it begins ("lisb" finds Lisbon). A quoted "phrase" matches its
            words in a row. Years (2019, 2019-2021), months (june), seasons (summer), kinds
            (videos, screenshots, live photos, panoramas) and "favorites" narrow the result.
            Best match first; without words, newest first.
            Examples:
              photos search receipt
              photos search 'beach videos 2019'
              photos search '"happy birthday" june' --json
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "What to look for (at most 1,000 bytes).")
    var query: String

    @Option(help: "Print at most this many assets.")
    var limit: Int?

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit)") }
    }

    func run() throws {
        let library = try options.open(forReading: true)
        try library.withCurrent {
            let fetchOptions = PHFetchOptions()
            fetchOptions.fetchLimit = limit ?? 0
            let result = try PHAsset.fetchAssets(matching: query, options: fetchOptions)
            if let error = result.fetchError { throw error }
            let assets = result.objects(at: IndexSet(0..<result.count))
            if json {
                print(try AssetFormatting.json(assets.map { AssetFormatting.AssetJSON($0) }))
            } else {
                for asset in assets { print(AssetFormatting.line(asset)) }
            }
        }
    }
}
