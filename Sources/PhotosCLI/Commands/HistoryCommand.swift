import ArgumentParser
import Foundation
import Photos

/// `photos history`: what changed since a token, from the library's persistent history.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print the changes committed since a change token.",
        discussion: """
            Without --since, prints the library's current change token. With it, prints each \
            change committed after that token, oldest first, as lines of \
            a 'change TOKEN' line followed by 'KIND inserted|updated|deleted IDENTIFIER' lines (KIND: asset, album, list), \
            then the current token to pass next time. A token older than the kept history \
            (or of another library) fails with exit code 3: fetch everything again.
            Examples:
              photos history                       # the current token
              photos history --since 7F3C…:1042
            """)

    @OptionGroup var options: LibraryOptions

    @Option(help: "A change token printed by an earlier `photos history`.")
    var since: String?

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func run() throws {
        let library = try options.open(forReading: true)
        guard let since else {
            print(json ? #"{"token":"\#(library.currentChangeToken.stringValue)"}"# : library.currentChangeToken.stringValue)
            return
        }
        guard let token = PHPersistentChangeToken(stringValue: since) else {
            throw CLIError("'\(since)' is not a change token (expected LIBRARY:POSITION, as `photos history` prints)")
        }
        let changes: [PHPersistentChange]
        do {
            changes = Array(try library.fetchPersistentChanges(since: token))
        } catch let error as PHPhotosError where error.code == .persistentChangeTokenExpired {
            FileHandle.standardError.write(Data("photos: \(error.localizedDescription)\n".utf8))
            throw ExitCode(3)
        } catch {
            throw CLIError("reading the history failed: \(error.localizedDescription)")
        }
        var records: [ChangeJSON] = []
        for change in changes {
            var record = ChangeJSON(token: change.changeToken.stringValue)
            for type in [PHObjectType.asset, .assetCollection, .collectionList] {
                do {
                    record[type] = Objects(try change.changeDetails(for: type))
                } catch {
                    throw CLIError("change \(record.token): \(error.localizedDescription)")
                }
            }
            records.append(record)
        }
        // The last change read, not the current token: a change committed meanwhile is
        // printed next time rather than skipped.
        let next = changes.last?.changeToken ?? token
        if json {
            print(try AssetFormatting.json(HistoryJSON(changes: records, token: next.stringValue)))
            return
        }
        for record in records {
            print("change \(record.token)")
            for (kind, objects) in [("asset", record.asset), ("album", record.album), ("list", record.list)] {
                for (what, identifiers) in [("inserted", objects.inserted), ("updated", objects.updated), ("deleted", objects.deleted)] {
                    for identifier in identifiers { print("  \(kind.padding(toLength: 5, withPad: " ", startingAt: 0)) \(what)  \(identifier)") }
                }
            }
        }
        print("token \(next.stringValue)")
    }

    private struct Objects: Encodable {
        var inserted: [String] = []
        var updated: [String] = []
        var deleted: [String] = []

        init() {}

        init(_ details: PHPersistentObjectChangeDetails) {
            inserted = details.insertedLocalIdentifiers.sorted()
            updated = details.updatedLocalIdentifiers.sorted()
            deleted = details.deletedLocalIdentifiers.sorted()
        }
    }

    private struct ChangeJSON: Encodable {
        var token: String
        var asset = Objects()
        var album = Objects()
        var list = Objects()

        subscript(type: PHObjectType) -> Objects {
            get { type == .asset ? asset : type == .assetCollection ? album : list }
            set {
                switch type {
                case .asset: asset = newValue
                case .assetCollection: album = newValue
                case .collectionList: list = newValue
                }
            }
        }
    }

    private struct HistoryJSON: Encodable {
        var changes: [ChangeJSON]
        var token: String
    }
}
