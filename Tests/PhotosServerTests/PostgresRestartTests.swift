import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import PhotosLocking
import PhotosPostgres
import PhotosTestSupport
import Testing

@testable import Photos
@testable import PhotosServer

/// Issue 35's restart drill: PostgreSQL stopped (`pg_ctl stop -m fast`, and `-m immediate`, as a
/// crash) and started again under a steady load of reads and favorite toggles through
/// `photos serve`, with a live client on the server's WebSocket. Every answer is a 200 or a 503
/// with `Retry-After` (never a 404 or a 500); no acknowledged toggle is lost; the instance serves
/// again by itself; and a change another instance commits once the database is back reaches the
/// live client, which only the `LISTEN` connection's reconnect can bring (the observers'
/// fallback look at the journal is set to a minute).
@Suite(
    "photos serve through a PostgreSQL restart",
    .enabled(if: ThrowawayPostgres.isAvailable, "PostgreSQL's server is not installed (apt install postgresql)"),
    .enabled(if: TestStore.isSQLite, "makes its own PostgreSQL server: run in the default pass only"))
struct PostgresRestartTests {
    /// What the load saw.
    struct Tally: Sendable {
        var statuses: [Int: Int] = [:]
        var unexpected: [String] = []
        var acknowledged: Bool?
        var servedAfterRestart = 0
        var firstServedAfterRestart: Date?
        var answeredWhileAway = 0
        var slowestWhileAway: TimeInterval = 0
    }

    @Test(.timeLimit(.minutes(3 * TestTimeScale.factor)), arguments: ThrowawayPostgres.ShutdownMode.allCases)
    func aRestartUnderLoadLosesNothingAndLiveClientsCatchUp(_ mode: ThrowawayPostgres.ShutdownMode) async throws {
        let postgres = try ThrowawayPostgres(durable: true)
        let database = try postgres.createDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = PHPhotoLibrary.Configuration()
        configuration.changeCheckInterval = .seconds(60)
        let library = try PHPhotoLibrary(database: database, files: folder, configuration: configuration)
        var created: [String] = []
        try library.performChangesAndWait {
            for index in 0..<2 {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: try! TestImages.jpeg(width: 200 + 8 * index, height: 150), options: nil)
                created.append(request.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        let ids = created
        // Used from one task at a time (stopped, then started again).
        nonisolated(unsafe) let server = postgres
        let token = try library.createAccessToken(named: "owner", level: .readWrite).secret
        // Another instance on the same database: it writes once the database is back.
        let other = try PHPhotoLibrary(database: database, files: folder)
        let toggled = ServerFixture.uuid(ids[0]), fromOther = ServerFixture.uuid(ids[1])

        let application = try buildApplication(library: library, configuration: ServerConfiguration(port: 0))
        let tally = Mutex(Tally())
        let phase = Mutex("before")  // before, away, back, done
        let (restarted, restartedSignal) = AsyncStream<Void>.makeStream()
        let caughtUp = Mutex<TimeInterval?>(nil)
        try await application.test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The live client: subscribed to the timeline, it waits for the other instance's change.
                group.addTask {
                    _ = try await client.ws("/api/live", configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"])) { inbound, outbound, _ in
                        try await outbound.write(.text(#"{"type":"subscribe","subscription":"grid"}"#))
                        var committed: Date?
                        var iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                        var waiting = restarted.makeAsyncIterator()
                        // Subscribed first, then the load runs until the database is back.
                        while let message = try await iterator.next() {
                            if case .text(let text) = message, text.contains(#""type":"subscribed""#) { break }
                        }
                        _ = await waiting.next()
                        // The other instance's change, retried until the database takes it.
                        let deadline = Date().addingTimeInterval(30)
                        while committed == nil, Date() < deadline {
                            do {
                                // Unread while the database is still away: tried again.
                                guard let asset = other.withCurrent({ PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil).firstObject }) else {
                                    throw PHPhotosError(.libraryVolumeOffline, "the asset could not be read yet")
                                }
                                try await other.performChanges { PHAssetChangeRequest(for: asset).isFavorite = true }
                                committed = Date()
                            } catch {
                                try await Task.sleep(for: .milliseconds(50))
                            }
                        }
                        guard let committed else { return }
                        while let message = try await iterator.next() {
                            guard case .text(let text) = message, text.contains(#""type":"changes""#), text.contains(fromOther) else { continue }
                            caughtUp.withLock { $0 = Date().timeIntervalSince(committed) }
                            break
                        }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                }
                // The load: a toggle and a read every 20 ms, until the instance has served again.
                group.addTask {
                    var value = false
                    while phase.withLock({ $0 }) != "done" {
                        value.toggle()
                        let sent = value
                        let started = Date()
                        let now = phase.withLock { $0 }
                        let toggle = try await client.call(
                            .post, "/api/changes", token: token, json: #"{"operations":[{"op":"favorite","assets":["\#(toggled)"],"value":\#(sent)}]}"#)
                        let read = try await client.call(.get, "/api/assets/\(toggled)", token: token)
                        let seconds = Date().timeIntervalSince(started)
                        tally.withLock { tally in
                            for (what, answer) in [("toggle", toggle), ("read", read)] {
                                tally.statuses[Int(answer.status.code), default: 0] += 1
                                if answer.status == .serviceUnavailable {
                                    if answer.headers[.retryAfter] == nil { tally.unexpected.append("\(what): a 503 without Retry-After") }
                                } else if answer.status != .ok {
                                    tally.unexpected.append("\(what) \(now): \(answer.status.code) \(String(buffer: answer.body).suffix(400))")
                                }
                            }
                            if toggle.status == .ok { tally.acknowledged = sent }
                            if now == "away" {
                                tally.answeredWhileAway += 2
                                tally.slowestWhileAway = max(tally.slowestWhileAway, seconds)
                            }
                            if now == "back", toggle.status == .ok {
                                tally.servedAfterRestart += 1
                                if tally.firstServedAfterRestart == nil { tally.firstServedAfterRestart = Date() }
                            }
                        }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                // The drill: a steady start, the server stopped, then started again.
                let startedAt = Date()
                while tally.withLock({ $0.statuses[200, default: 0] }) < 20, Date().timeIntervalSince(startedAt) < 30 {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Self.offThread { server.shutDown(mode) }
                phase.withLock { $0 = "away" }
                while tally.withLock({ $0.answeredWhileAway }) < 20 { try await Task.sleep(for: .milliseconds(20)) }
                try await Self.offThread { try server.restart() }
                let back = Date()
                phase.withLock { $0 = "back" }
                while tally.withLock({ $0.servedAfterRestart }) < 20, Date().timeIntervalSince(back) < 60 {
                    try await Task.sleep(for: .milliseconds(20))
                }
                // The load stops (its commits would wake this instance's observers), then the
                // other instance commits: only a notification can tell this one.
                phase.withLock { $0 = "done" }
                try await Task.sleep(for: .milliseconds(100))
                restartedSignal.yield()
                // The live client ends its task once it has the change (or gives up).
                let deadline = Date().addingTimeInterval(30)
                while caughtUp.withLock({ $0 }) == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
                // A live client still waiting would wait for ever: it has failed.
                if caughtUp.withLock({ $0 }) == nil { group.cancelAll() }
                _ = try? await group.waitForAll()
                let result = tally.withLock { $0 }
                let recovery = result.firstServedAfterRestart.map { $0.timeIntervalSince(back) } ?? -1
                print(String(
                    format: "restart drill (%@): answers %@; %d requests while away (slowest %.1f ms); first toggle served %.0f ms after the server was up; live client caught up %.0f ms after the other instance's commit",
                    mode.description, "\(result.statuses.sorted { $0.key < $1.key })", result.answeredWhileAway, result.slowestWhileAway * 1000,
                    recovery * 1000, (caughtUp.withLock { $0 } ?? -1) * 1000))
                #expect(result.unexpected.isEmpty, "\(result.unexpected.prefix(10))")
                #expect(result.statuses[503, default: 0] >= 1, "\(result.statuses)")
                #expect(result.servedAfterRestart >= 20, "the instance came back by itself: \(result.statuses)")
                #expect(result.slowestWhileAway < 5, "\(result.slowestWhileAway) s")
                #expect(caughtUp.withLock { $0 } != nil, "the other instance's change reached the live client")
                // Nothing acknowledged lost: the last acknowledged value is the library's.
                let details = try await client.call(.get, "/api/assets/\(toggled)", token: token).json()
                #expect(details["isFavorite"] as? Bool == result.acknowledged, "the last acknowledged favorite")
            }
        }
    }

    /// Runs blocking work (the server's stop and start) off Swift's cooperative threads.
    static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
