import ArgumentParser
import Foundation
import Photos

/// `photos ls`: lists assets, filtered and sorted the PhotoKit way.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List assets.",
        discussion: """
            Flags in the last column: F favorite, H hidden, B part of a burst.
            Examples:
              photos ls --predicate 'mediaType == 2 AND duration > 10' --sort -creationDate
              photos ls --predicate 'favorite == YES AND pixelWidth >= 4000' --limit 20
              photos ls --album Trips --json
            """)

    @OptionGroup var options: LibraryOptions

    @Option(help: "An NSPredicate format over PHAsset keys, e.g. 'isFavorite == YES AND pixelWidth > 4000'.")
    var predicate: String?

    @Option(
        parsing: .unconditional,
        help: "Comma-separated sort keys; a leading '-' sorts descending, e.g. '-creationDate,pixelWidth'.")
    var sort: String?

    @Option(help: "Show at most this many assets.")
    var limit: Int?

    @Option(help: "List the assets of this album (title or identifier).")
    var album: String?

    @Flag(help: "Include hidden assets.")
    var hidden = false

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        let library = try options.open()
        let fetchOptions = try makeFetchOptions()
        try library.withCurrent {
            let result: PHFetchResult<PHAsset>
            if let album {
                result = PHAsset.fetchAssets(in: try ObjectLookup.album(album), options: fetchOptions)
            } else {
                result = PHAsset.fetchAssets(with: fetchOptions)
            }
            if json {
                print(try AssetFormatting.json(result.map { AssetFormatting.AssetJSON($0) }))
            } else {
                for asset in result { print(AssetFormatting.line(asset)) }
            }
        }
    }

    private func makeFetchOptions() throws -> PHFetchOptions {
        let fetchOptions = PHFetchOptions()
        fetchOptions.includeHiddenAssets = hidden
        fetchOptions.fetchLimit = limit ?? 0
        if let predicate {
            do {
                fetchOptions.predicate = try NSPredicate(validatingFormat: predicate, argumentArray: nil)
            } catch {
                throw CLIError(PredicateMessage.describe(error, format: predicate))
            }
        }
        if let sort {
            fetchOptions.sortDescriptors = sort.split(separator: ",").map { key in
                let trimmed = key.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("-")
                    ? NSSortDescriptor(key: String(trimmed.dropFirst()), ascending: false)
                    : NSSortDescriptor(key: trimmed, ascending: true)
            }
        }
        do {
            try fetchOptions.validate(for: PHAsset.self)
        } catch {
            throw CLIError(PredicateMessage.describe(error, format: predicate ?? sort ?? ""))
        }
        return fetchOptions
    }
}

/// An error message with a caret under the offending token.
enum PredicateMessage {
    static func describe(_ error: PHPredicateError, format: String) -> String {
        guard error.format == format, error.position >= 0, error.position <= format.count else {
            return "\(error.message): '\(error.token)'"
        }
        let caret = String(repeating: " ", count: error.position) + "^"
        return "\(error.message): '\(error.token)' at position \(error.position)\n  \(format)\n  \(caret)"
    }
}
