import Foundation
import Photos
import PhotosTestSupport
import PhotosLocking
import Testing

@Suite("photos watch and photos history", .blocking)
struct WatchAndHistoryCommandTests {
    /// A `photos watch` child process: its standard output read line by line as it arrives.
    final class Watcher: Sendable {
        let process: Process
        private let lines = Mutex<[String]>([])
        private let partial = Mutex(Data())

        init(_ runner: CLIRunner, _ arguments: [String]) throws {
            process = Process()
            process.executableURL = CLIRunner.executable
            process.arguments = ["watch"] + arguments + ["--library", runner.library.path]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.standardError
            out.fileHandleForReading.readabilityHandler = { [weak self] handle in
                self?.received(handle.availableData)
            }
            try process.run()
        }

        private func received(_ data: Data) {
            partial.withLock { buffer in
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
        }

        /// The next JSON line, waiting up to `timeout` seconds for it.
        func next(timeout: TimeInterval = 30) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let line = lines.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                }
                usleep(2_000)
            }
            throw WatchTimeout()
        }

        struct WatchTimeout: Error {}

        deinit { if process.isRunning { process.terminate() } }
    }

    private static func items(_ change: [String: Any], _ key: String) -> [(Int, String)] {
        (change[key] as? [[String: Any]] ?? []).map { ($0["index"] as? Int ?? -1, $0["localIdentifier"] as? String ?? "") }
    }

    /// Changes made by this process reach the watching child; applying its printed details in
    /// Apple's order to the old identifiers gives the new fetch, item for item.
    @Test func watchPrintsDetailsThatReplayToTheNewFetch() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed((0..<6).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000 + 60 * Double($0))) })
        let library = temporary.library
        let runner = CLIRunner(temporary)
        let watcher = try Watcher(runner, ["--sort", "creationDate", "--json", "--count", "3"])
        let ready = try watcher.next(timeout: 20)
        #expect(ready["event"] as? String == "ready")
        #expect(ready["count"] as? Int == 6)

        let assets = library.withCurrent { Array(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)) }
        let byID = Dictionary(uniqueKeysWithValues: assets.map { ($0.localIdentifier, $0) })
        var mirror = ids
        let edits: [() -> Void] = [
            { PHAssetChangeRequest(for: byID[ids[5]]!).creationDate = Date(timeIntervalSince1970: 10) },  // moves to the front
            { PHAssetChangeRequest(for: byID[ids[1]]!).isFavorite = true },  // changed in place
            {
                PHAssetChangeRequest.deleteAssets([byID[ids[3]]!] as NSArray)  // removed
                PHAssetChangeRequest(for: byID[ids[0]]!).creationDate = Date(timeIntervalSince1970: 1_000_000)  // moves to the end
            },
        ]
        var changedSeen: [[String]] = []
        for edit in edits {
            try library.performChangesAndWait(edit)
            let change = try watcher.next()
            #expect(change["event"] as? String == "change")
            #expect(change["hasIncrementalChanges"] as? Bool == true)
            // One batch: removals at old indexes, insertions and moves (old index → new index)
            // at new ones, the other objects keeping their order; then the changed indexes.
            let removed = Self.items(change, "removed"), inserted = Self.items(change, "inserted")
            let moves = (change["moves"] as? [[String: Any]] ?? []).map { ($0["from"] as? Int ?? -1, $0["to"] as? Int ?? -1) }
            for (index, identifier) in removed { #expect(mirror[index] == identifier) }
            var after = [String?](repeating: nil, count: mirror.count - removed.count + inserted.count)
            for (index, identifier) in inserted { after[index] = identifier }
            for (from, to) in moves { after[to] = mirror[from] }
            let gone = Set(removed.map(\.0)).union(moves.map(\.0))
            var rest = mirror.enumerated().filter { !gone.contains($0.offset) }.map(\.element).makeIterator()
            mirror = after.map { $0 ?? rest.next() ?? "<hole>" }
            for (index, identifier) in Self.items(change, "changed") { #expect(mirror[index] == identifier) }
            changedSeen.append(Self.items(change, "changed").map(\.1))
            #expect(change["countAfter"] as? Int == mirror.count)
        }
        #expect(changedSeen[1] == [ids[1]])
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let now = library.withCurrent { PHAsset.fetchAssets(with: options).map(\.localIdentifier) }
        #expect(mirror == now)
        watcher.process.waitUntilExit()
        #expect(watcher.process.terminationStatus == 0)
    }

    @Test func watchRejectsABadPredicate() throws {
        let runner = CLIRunner(try TemporaryLibrary())
        let output = try runner.run(["watch", "--predicate", "isFavorite === YES"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("isFavorite === YES"))
    }

    @Test func historyListsWhatChangedSinceAToken() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed((0..<3).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000 + Double($0))) })
        let runner = CLIRunner(temporary)
        let start = try runner.run(["history"])
        #expect(start.status == 0, "\(start.stderr)")
        let token = start.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(PHPersistentChangeToken(stringValue: token) == temporary.library.currentChangeToken)

        #expect(try runner.run(["favorite", ids[0]]).status == 0)
        #expect(try runner.run(["album", "create", "Trips"]).status == 0)
        #expect(try runner.run(["delete", ids[2]]).status == 0)

        let output = try runner.run(["history", "--since", token, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.count == 3)
        func objects(_ index: Int, _ kind: String, _ what: String) -> [String] {
            ((changes[index][kind] as? [String: Any])?[what] as? [String]) ?? []
        }
        #expect(objects(0, "asset", "updated") == [ids[0]])
        #expect(objects(1, "album", "inserted").count == 1)
        #expect(objects(1, "asset", "updated").isEmpty)
        #expect(objects(2, "asset", "deleted") == [ids[2]])  // in Recently Deleted: gone for fetches
        #expect(try runner.run(["recover", ids[2]]).status == 0)  // the full identifier of a deleted asset
        let recovered = try runner.run(["history", "--since", try #require(changes.last?["token"] as? String), "--json"])
        #expect(recovered.stdout.contains(ids[2]))
        let next = try #require(json["token"] as? String)
        #expect(next == changes.last?["token"] as? String)

        // Text form, and nothing after the newest token.
        let text = try runner.run(["history", "--since", token])
        #expect(text.stdout.contains("asset updated  \(ids[0])"))
        #expect(text.stdout.contains("asset deleted  \(ids[2])"))
        let newest = temporary.library.currentChangeToken.stringValue
        #expect(try runner.run(["history", "--since", newest]).stdout == "token \(newest)\n")
    }

    @Test func historyRefusesBadAndForeignTokens() throws {
        let runner = CLIRunner(try TemporaryLibrary())
        let malformed = try runner.run(["history", "--since", "yesterday"])
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("'yesterday' is not a change token"))

        let other = try TemporaryLibrary()
        let foreign = try runner.run(["history", "--since", other.library.currentChangeToken.stringValue])
        #expect(foreign.status == 3)
        #expect(foreign.stderr.contains("another library"))
    }
}
