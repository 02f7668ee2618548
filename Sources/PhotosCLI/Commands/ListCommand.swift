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
    @OptionGroup var fetch: AssetFetchArguments

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func run() throws {
        let library = try options.open(forReading: true)
        try library.withCurrent {
            let result = try fetch.fetch()
            if json {
                print(try AssetFormatting.json(result.map { AssetFormatting.AssetJSON($0) }))
            } else {
                for asset in result { print(AssetFormatting.line(asset)) }
            }
        }
    }
}
