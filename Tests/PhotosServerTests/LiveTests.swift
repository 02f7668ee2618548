import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import PhotosLocking
import PhotosTestSupport
import Testing

@testable import Photos
@testable import PhotosServer

/// `/api/live` over a real WebSocket: subscriptions get Apple's change details for their fetch,
/// whoever changed the library (this server, another process), and limited clients see
/// allow-list edits as changes.
@Suite("Server live updates")
struct LiveTests {
    /// Connects, sends `requests`, then runs `during` (changes to the library) and collects
    /// messages until `until` says enough.
    static func session(
        _ fixture: ServerFixture, token: String, requests: [String], during: @escaping @Sendable () async throws -> Void,
        until: @escaping @Sendable ([[String: Any]]) -> Bool
    ) async throws -> [[String: Any]] {
        let application = try buildApplication(library: fixture.library, configuration: ServerConfiguration(port: 0))
        let collected = MessageLog()
        try await application.test(.live) { client in
            _ = try await client.ws("/api/live", configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"])) { inbound, outbound, _ in
                for request in requests { try await outbound.write(.text(request)) }
                var started = false
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message,
                        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                    else { continue }
                    collected.append(text)
                    if !started, object["type"] as? String == "subscribed" {
                        started = true
                        try await during()
                    }
                    if until(collected.messages) { break }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        return collected.messages
    }

    @Test func subscriptionsReceiveChangeDetailsInAppleOrder() async throws {
        let fixture = try ServerFixture(photos: 3)
        let messages = try await Self.session(
            fixture, token: fixture.readWrite, requests: [#"{"type":"subscribe","subscription":"grid","sort":"-creationDate"}"#],
            during: {
                try await fixture.library.performChanges {
                    PHAssetChangeRequest(for: fixture.asset(fixture.assets[2])!).isFavorite = true
                }
                try await fixture.library.performChanges {
                    PHAssetChangeRequest.deleteAssets([fixture.asset(fixture.assets[1])!])
                }
            }, until: { $0.filter { $0["type"] as? String == "changes" }.count >= 2 })
        #expect(messages.first?["count"] as? Int == 3)
        let changes = messages.filter { $0["type"] as? String == "changes" }
        #expect(changes.count == 2)
        // Newest first: assets[2] is at index 0; its favorite is a change in place.
        #expect((changes[0]["changed"] as? [[String: Any]])?.first?["index"] as? Int == 0)
        #expect(((changes[0]["changed"] as? [[String: Any]])?.first?["asset"] as? [String: Any])?["isFavorite"] as? Bool == true)
        #expect(changes[1]["removed"] as? [Int] == [1] && changes[1]["count"] as? Int == 2)
    }

    @Test func changesFromAnotherProcessArrive() async throws {
        let fixture = try ServerFixture(photos: 1)
        let file = fixture.temporary.scratch.appendingPathComponent("late.jpg")
        var exif = ExifBuilder()
        exif.dateTimeOriginal = "2025:01:01 12:00:00"
        try TestImages.writeJPEG(to: file, width: 100, height: 80, exif: exif)
        let messages = try await Self.session(
            fixture, token: fixture.readWrite, requests: [#"{"type":"subscribe","subscription":"grid"}"#],
            during: {
                // A second library object on the same folder stands for `photos import`: it
                // shares nothing with the server but the files.
                let other = try fixture.temporary.openAgain()
                try other.performChangesAndWait {
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: file, options: nil)
                }
            }, until: { $0.contains { $0["type"] as? String == "changes" } })
        let change = try #require(messages.first { $0["type"] as? String == "changes" })
        let inserted = try #require(change["inserted"] as? [[String: Any]])
        #expect(inserted.first?["index"] as? Int == 0 && change["count"] as? Int == 2)
        #expect((inserted.first?["asset"] as? [String: Any])?["pixelWidth"] as? Int == 100)
    }

    @Test func allowListEditsReachLimitedClientsAsChanges() async throws {
        let fixture = try ServerFixture(photos: 3)
        let messages = try await Self.session(
            fixture, token: fixture.limited, requests: [#"{"type":"subscribe","subscription":"grid"}"#],
            during: {
                try fixture.temporary.openAgain().changeLimitedLibrary(ofAccessToken: fixture.limitedIdentifier, .add([fixture.assets[2]]))
            }, until: { $0.contains { $0["type"] as? String == "changes" } })
        #expect(messages.first?["count"] as? Int == 1)
        let change = try #require(messages.first { $0["type"] as? String == "changes" })
        #expect(change["count"] as? Int == 2)
        #expect(((change["inserted"] as? [[String: Any]])?.first?["asset"] as? [String: Any])?["localIdentifier"] as? String == fixture.assets[2])
    }

    /// The preheat renders what the grid's image requests then read: the same size and options,
    /// so the same key in the image manager's memory cache.
    @Test func preheatingCachesWhatTheGridAsksFor() async throws {
        let fixture = try ServerFixture(photos: 2)
        let keys = try fixture.assets.map { identifier in
            try ImageRequestPlan(
                asset: #require(fixture.asset(identifier)), targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFill,
                options: ImageRoutes.requestOptions(mode: .fill, crop: nil, version: .current)
            ).key
        }
        let cached = Atomic(false)
        _ = try await Self.session(
            fixture, token: fixture.readWrite,
            requests: [
                #"{"type":"subscribe","subscription":"grid"}"#,
                #"{"type":"preheat","subscription":"grid","start":0,"end":2,"width":64,"height":64}"#,
            ],
            during: {
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline {
                    if keys.allSatisfy({ fixture.library.imageLoader.cache.image(for: $0) != nil }) {
                        cached.store(true, ordering: .relaxed)
                        return
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }, until: { _ in true })
        let preheated = cached.load(ordering: .relaxed)
        #expect(preheated, "the preheated images are not the ones the grid's requests read")
    }

    @Test func badRequestsGetErrorsAndPreheatWindowsAreChecked() async throws {
        let fixture = try ServerFixture(photos: 2)
        let messages = try await Self.session(
            fixture, token: fixture.readWrite,
            requests: [
                "nonsense", #"{"type":"preheat","subscription":"none","start":0,"end":1,"width":64,"height":64}"#,
                #"{"type":"subscribe","subscription":"bad","predicate":"isFavorite =="}"#,
                #"{"type":"subscribe","subscription":"grid"}"#,
                #"{"type":"preheat","subscription":"grid","start":0,"end":2,"width":64,"height":64}"#,
                #"{"type":"preheat","subscription":"grid","start":0,"end":99999,"width":64,"height":64}"#,
            ], during: {}, until: { $0.filter { $0["type"] as? String == "error" }.count >= 4 })
        let errors = messages.filter { $0["type"] as? String == "error" }.compactMap { $0["reason"] as? String }
        #expect(errors.count == 4, "\(errors)")
        #expect(errors.contains { $0.contains("No subscription 'none'") })
        #expect(errors.contains { $0.contains("'predicate'") })
        #expect(errors.contains { $0.contains("at most 2000 apart") })
    }

    /// An album keeps its user's order: moving an asset in it arrives as a move.
    @Test func albumReordersArriveAsMoves() async throws {
        let fixture = try ServerFixture(photos: 3)
        var albumID = ""
        try fixture.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Ordered")
            album.addAssets(fixture.assets.map { fixture.asset($0)! })
            albumID = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        let album = ServerFixture.uuid(albumID)
        let albumIdentifier = albumID
        let messages = try await Self.session(
            fixture, token: fixture.readWrite, requests: [#"{"type":"subscribe","subscription":"album","collection":"\#(album)"}"#],
            during: {
                try await fixture.library.performChanges {
                    let collection = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumIdentifier], options: nil).firstObject!
                    PHAssetCollectionChangeRequest(for: collection)!.moveAssets(at: IndexSet(integer: 2), to: 0)
                }
            }, until: { $0.contains { $0["type"] as? String == "changes" } })
        let change = try #require(messages.first { $0["type"] as? String == "changes" })
        #expect(change["moves"] as? [[Int]] == [[2, 0]], "\(change)")
        #expect((change["removed"] as? [Int])?.isEmpty == true && (change["inserted"] as? [Any])?.isEmpty == true)
        #expect(change["count"] as? Int == 3)
    }

    /// The sidebar watches the album list: an album made by another process arrives as
    /// `collectionsChanged`; a limited token may not watch collections.
    @Test func collectionListsSayWhenTheyChange() async throws {
        let fixture = try ServerFixture(photos: 1)
        let messages = try await Self.session(
            fixture, token: fixture.readWrite,
            requests: [
                #"{"type":"subscribe","subscription":"albums","collections":"album"}"#,
                #"{"type":"subscribe","subscription":"bad","collections":"everything"}"#,
            ],
            during: {
                let other = try fixture.temporary.openAgain()
                try other.performChangesAndWait { _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Elsewhere") }
            }, until: { $0.contains { $0["type"] as? String == "collectionsChanged" } })
        #expect(messages.first { $0["subscription"] as? String == "albums" }?["count"] as? Int == 0)
        let changed = try #require(messages.first { $0["type"] as? String == "collectionsChanged" })
        #expect(changed["subscription"] as? String == "albums" && changed["count"] as? Int == 1)
        #expect(messages.contains { $0["type"] as? String == "error" && ($0["reason"] as? String)?.contains("'collections'") == true })
        let limited = try await Self.session(
            fixture, token: fixture.limited, requests: [#"{"type":"subscribe","subscription":"albums","collections":"album"}"#],
            during: {}, until: { $0.contains { $0["type"] as? String == "error" } })
        #expect(limited.contains { ($0["reason"] as? String)?.contains("limited token sees no collections") == true })
    }

    /// The preheat window slides: thumbnails that left it stop being prepared, new ones start;
    /// a window at another size replaces the whole set; closing stops everything.
    @Test func preheatWindowsStartAndStopCaching() async throws {
        let fixture = try ServerFixture(photos: 4)
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let gate = AccessGate(library: fixture.library, configuration: ServerConfiguration())
        let client = try #require(try gate.client(bearer: fixture.readWrite, session: nil))
        let connection = LiveConnection(service: service, client: client)
        // Newest first, as the grid shows them.
        let assets = fixture.assets.reversed().map { fixture.asset($0)! }
        func caching(_ side: Int) -> [Bool] {
            assets.map {
                service.imageManager.isCaching(
                    $0, targetSize: CGSize(width: side, height: side), contentMode: .aspectFill, options: LiveConnection.gridOptions)
            }
        }
        await connection.receive(#"{"type":"subscribe","subscription":"grid"}"#)
        await connection.receive(#"{"type":"preheat","subscription":"grid","start":0,"end":2,"width":64,"height":64}"#)
        #expect(caching(64) == [true, true, false, false])
        await connection.receive(#"{"type":"preheat","subscription":"grid","start":1,"end":4,"width":64,"height":64}"#)
        #expect(caching(64) == [false, true, true, true])
        await connection.receive(#"{"type":"preheat","subscription":"grid","start":3,"end":4,"width":96,"height":96}"#)
        #expect(caching(64) == [false, false, false, false])
        #expect(caching(96) == [false, false, false, true])
        connection.close()
        #expect(caching(96) == [false, false, false, false])
    }

    /// A client that reads nothing while messages pile up is ended with 1013 (connect again)
    /// once the outbox is full, rather than silently missing change details.
    @Test func aClientTooSlowToReadIsEndedNotSkipped() throws {
        let fixture = try ServerFixture(photos: 0)
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let connection = LiveConnection(service: service, client: .open)
        for _ in 0..<LiveConnection.outboxLimit { connection.send(.reset("grid", count: 0)) }
        #expect(connection.ending == nil, "a full outbox is still whole")
        connection.send(.reset("grid", count: 1))
        #expect(connection.ending == .tooSlow)
    }

    /// A token revoked while its client is connected (here by another process) ends the
    /// connection from the server's side: an error message, then a close with code 1008.
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func aRevokedTokenEndsItsConnection() async throws {
        let fixture = try ServerFixture(photos: 2)
        let application = try buildApplication(library: fixture.library, configuration: ServerConfiguration(port: 0))
        let collected = MessageLog()
        let close = try await application.test(.live) { client in
            try await client.ws("/api/live", configuration: .init(additionalHeaders: [.authorization: "Bearer \(fixture.limited)"])) {
                inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"subscribe","subscription":"grid"}"#))
                // Read until the server closes: the loop ends only with its close frame.
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message else { continue }
                    collected.append(text)
                    if text.contains(#""subscribed""#) {
                        _ = try fixture.temporary.openAgain().revokeAccessToken(withIdentifier: fixture.limitedIdentifier)
                    }
                }
            }
        }
        #expect(close?.closeCode == .policyViolation, "\(String(describing: close))")
        #expect(close?.reason == "The access token was revoked")
        #expect(collected.messages.contains { ($0["type"] as? String) == "error" && ($0["reason"] as? String)?.contains("revoked") == true })
    }
}

/// Messages received, kept as text (Sendable) and parsed when read.
final class MessageLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ text: String) { storage.withLock { $0.append(text) } }
    var messages: [[String: Any]] {
        storage.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}
