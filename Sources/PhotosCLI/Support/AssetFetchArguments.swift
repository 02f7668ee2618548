import ArgumentParser
import Foundation
import Photos

/// The options that describe a fetch of assets, shared by `ls` and `watch`.
struct AssetFetchArguments: ParsableArguments {
    @Option(help: "An NSPredicate format over PHAsset keys, e.g. 'isFavorite == YES AND pixelWidth > 4000'.")
    var predicate: String?

    @Option(
        parsing: .unconditional,
        help: "Comma-separated sort keys; a leading '-' sorts descending, e.g. '-creationDate,pixelWidth'.")
    var sort: String?

    @Option(help: "At most this many assets.")
    var limit: Int?

    @Option(help: "The assets of this album (title or identifier).")
    var album: String?

    @Flag(help: "Include hidden assets.")
    var hidden = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    /// Runs the fetch on the current library.
    func fetch() throws -> PHFetchResult<PHAsset> {
        let fetchOptions = try makeFetchOptions()
        let result =
            if let album {
                PHAsset.fetchAssets(in: try ObjectLookup.album(album), options: fetchOptions)
            } else {
                PHAsset.fetchAssets(with: fetchOptions)
            }
        // A fetch the library failed to run is an error, never an empty list.
        if let failure = result.fetchError { throw CLIError(failure.message) }
        return result
    }

    /// A one-line description of the fetch, for headers.
    var summary: String {
        var parts: [String] = []
        if let album { parts.append("album '\(album)'") }
        if let predicate { parts.append("where \(predicate)") }
        if let sort { parts.append("sorted by \(sort)") }
        if let limit { parts.append("first \(limit)") }
        if hidden { parts.append("with hidden") }
        return parts.isEmpty ? "all assets" : parts.joined(separator: ", ")
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
