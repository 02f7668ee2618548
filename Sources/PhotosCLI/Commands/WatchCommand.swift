import ArgumentParser
import Foundation
import Photos
import PhotosLocking

/// `photos watch`: holds a fetch and prints what each change does to it, as an observer sees it.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change to a fetch of assets as it arrives.",
        discussion: """
            Holds the fetch described by the options (as `ls` does) and, whenever a change by this \
            or any other process affects it, prints the change details an observer gets: removed \
            indexes (in the old result), inserted and changed indexes (in the new one) and moves, \
            each with the asset's identifier. Apply them in that order to keep a copy in step. \
            Runs until interrupted, or until --count changes have been printed.
            Examples:
              photos watch
              photos watch --predicate 'isFavorite == YES' --json
            """)

    @OptionGroup var options: LibraryOptions
    @OptionGroup var fetch: AssetFetchArguments

    @Option(help: "Exit after printing this many changes.")
    var count: Int?

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
    }

    func run() throws {
        let library = try options.open(forReading: true)
        let done = DispatchSemaphore(value: 0)
        let printer = ChangePrinter(json: json, limit: count) { done.signal() }
        // Registered before fetching: a change committed in between is still seen, and the
        // details are computed against the result actually held.
        library.register(printer)
        defer { library.unregisterChangeObserver(printer) }
        let result = try library.withCurrent { try fetch.fetch() }
        printer.start(with: result, summary: fetch.summary)
        done.wait()
    }
}

/// The observer behind `photos watch`: keeps the held fetch result current and prints details.
private final class ChangePrinter: PHPhotoLibraryChangeObserver, Sendable {
    private struct State {
        var held: PHFetchResult<PHAsset>?
        var printed = 0
        /// Changes that arrived before the first fetch finished.
        var early: [PHChange] = []
    }

    private let json: Bool
    private let limit: Int?
    private let finished: @Sendable () -> Void
    private let state = Mutex(State())

    init(json: Bool, limit: Int?, finished: @escaping @Sendable () -> Void) {
        self.json = json
        self.limit = limit
        self.finished = finished
    }

    func start(with result: PHFetchResult<PHAsset>, summary: String) {
        if json {
            Output.line(#"{"event":"ready","count":\#(result.count)}"#)
        } else {
            Output.line("watching \(result.count) assets (\(summary)); interrupt to stop")
        }
        let early = state.withLock { state in
            state.held = result
            defer { state.early = [] }
            return state.early
        }
        for change in early { photoLibraryDidChange(change) }
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let (details, number) = state.withLock { state -> (PHFetchResultChangeDetails<PHAsset>?, Int) in
            guard let held = state.held else {
                state.early.append(changeInstance)
                return (nil, 0)
            }
            guard let limit, state.printed >= limit else {
                guard let details = changeInstance.changeDetails(for: held) else { return (nil, 0) }
                state.held = details.fetchResultAfterChanges
                state.printed += 1
                return (details, state.printed)
            }
            return (nil, 0)
        }
        guard let details else { return }
        Output.line(json ? Self.json(details) : Self.text(details, number: number))
        if let limit, number == limit { finished() }
    }

    private static func text(_ details: PHFetchResultChangeDetails<PHAsset>, number: Int) -> String {
        let before = details.fetchResultBeforeChanges, after = details.fetchResultAfterChanges
        var lines = ["change \(number): \(before.count) → \(after.count) assets"]
        guard details.hasIncrementalChanges else {
            lines.append("  reload (no incremental details)")
            return lines.joined(separator: "\n")
        }
        for index in details.removedIndexes ?? [] {
            lines.append("  removed  \(index)  \(before.object(at: index).localIdentifier)")
        }
        for index in details.insertedIndexes ?? [] {
            lines.append("  inserted \(index)  \(after.object(at: index).localIdentifier)")
        }
        details.enumerateMoves { from, to in
            lines.append("  moved    \(from) -> \(to)  \(after.object(at: to).localIdentifier)")
        }
        for index in details.changedIndexes ?? [] {
            lines.append("  changed  \(index)  \(after.object(at: index).localIdentifier)")
        }
        return lines.joined(separator: "\n")
    }

    private struct ChangeJSON: Encodable {
        struct Item: Encodable {
            var index: Int
            var localIdentifier: String
        }
        struct Move: Encodable {
            var from: Int
            var to: Int
            var localIdentifier: String
        }
        var event = "change"
        var countBefore: Int
        var countAfter: Int
        var hasIncrementalChanges: Bool
        var removed: [Item] = []
        var inserted: [Item] = []
        var moves: [Move] = []
        var changed: [Item] = []
    }

    private static func json(_ details: PHFetchResultChangeDetails<PHAsset>) -> String {
        let before = details.fetchResultBeforeChanges, after = details.fetchResultAfterChanges
        var value = ChangeJSON(
            countBefore: before.count, countAfter: after.count, hasIncrementalChanges: details.hasIncrementalChanges)
        value.removed = (details.removedIndexes ?? []).map { .init(index: $0, localIdentifier: before.object(at: $0).localIdentifier) }
        value.inserted = (details.insertedIndexes ?? []).map { .init(index: $0, localIdentifier: after.object(at: $0).localIdentifier) }
        details.enumerateMoves { from, to in
            value.moves.append(.init(from: from, to: to, localIdentifier: after.object(at: to).localIdentifier))
        }
        value.changed = (details.changedIndexes ?? []).map { .init(index: $0, localIdentifier: after.object(at: $0).localIdentifier) }
        return (try? String(decoding: JSONOutput.encoder().encode(value), as: UTF8.self)) ?? "{}"
    }
}

/// Unbuffered lines on standard output, so a reader sees each change as it happens.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
