import Foundation
import PhotosLocking
@testable import Photos
import PhotosPostgres
import PhotosStore
@testable import PhotosStorePostgres
import PostgresNIO
import PhotosTestSupport
import Testing

/// What a change costs on PostgreSQL, in statements (each a round trip): counted by the
/// library's engine, so the figure can't creep back unnoticed (issue 35).
@Suite("PostgreSQL round trips", .postgresInstalled)
struct PostgresRoundTripTests {
    /// A library on `database` with one photo; the folder of its files (the caller removes it).
    static func libraryWithAPhoto(on database: URL) throws -> (PHPhotoLibrary, PHAsset, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-library-\(UUID().uuidString)")
        let library = try PHPhotoLibrary(database: database, files: folder)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! TestImages.jpeg(), options: nil)
        }
        return (library, try #require(library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject }), folder)
    }

    @Test func aFavoriteToggleSendsAFewStatements() throws {
        let server = try ThrowawayPostgres()
        let (library, asset, folder) = try PostgresRoundTripTests.libraryWithAPhoto(on: try server.createDatabase())
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try #require(library.store.engine as? PostgresEngine)
        var counts: [Int] = [], waits: [Int] = []
        for value in [true, false, true] {
            let (before, waitedBefore) = (engine.statementsSent, engine.answersWaitedFor)
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = value }
            counts.append(engine.statementsSent - before)
            waits.append(engine.answersWaitedFor - waitedBefore)
        }
        print("statements per favorite toggle: \(counts), answers waited for: \(waits)")
        // BEGIN; the change opened with the write lock and the owner; the update by
        // identifier, which checks the asset is there; the change closed and the history
        // pruned on the server; COMMIT (9 before issue 35: the lock, the owner and the floor
        // were each a statement of their own; 6 while the asset's row was read first).
        #expect(counts == [5, 5, 5], "\(counts)")
        // All but COMMIT are sent ahead, and nothing reads an answer before it: one wait (4
        // before the opening and the close were sent ahead, 2 while the row was read first).
        #expect(waits == [1, 1, 1], "\(waits)")
        #expect(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject?.isFavorite } == true)
    }

    /// The update by identifier fails the transaction when the asset isn't there (deleted
    /// behind the library's back, here by another session): the change block fails as a
    /// missing asset naming it, with nothing of it left, as when the row was read first.
    @Test func aFavoriteOfAnAssetThatIsGoneFailsNamingItAndLeavesNothing() throws {
        let server = try ThrowawayPostgres()
        let database = try server.createDatabase()
        let (library, asset, folder) = try PostgresRoundTripTests.libraryWithAPhoto(on: database)
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! TestImages.jpeg(), options: nil)
        }
        let other = try #require(library.withCurrent { PHAsset.fetchAssets(with: nil).lastObject })
        try #require(other.localIdentifier != asset.localIdentifier)
        let position = library.currentChangeToken.stringValue
        let uuid = asset.localIdentifier.components(separatedBy: "/").first ?? asset.localIdentifier
        let deleted = try server.psql("DELETE FROM asset WHERE uuid = '\(uuid)' RETURNING id", database: database.lastPathComponent)
        try #require(!deleted.isEmpty, "no asset row \(uuid)")
        let outcome = Result {
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: other).isFavorite = true
                PHAssetChangeRequest(for: asset).isFavorite = true
            }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("a favorite of a deleted asset succeeded")
            return
        }
        let photos = try #require(error as? PHPhotosError, "\(error)")
        #expect(photos.code == .identifierNotFound, "\(photos.code): \(photos.localizedDescription)")
        #expect(photos.localizedDescription.contains(uuid), "\(photos.localizedDescription)")
        // Nothing of the block: the other asset as it was, the position where it was.
        #expect(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [other.localIdentifier], options: nil).firstObject?.isFavorite } == false)
        #expect(library.currentChangeToken.stringValue == position)
        try library.performChangesAndWait { PHAssetChangeRequest(for: other).isFavorite = true }
        #expect(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [other.localIdentifier], options: nil).firstObject?.isFavorite } == true)
    }
}

/// A backend terminated inside a change block's transaction (issue 35's drill,
/// `pg_terminate_backend`): the block fails with a `PHPhotosError` and leaves nothing; the
/// library works again at once.
@Suite("PostgreSQL failures inside a change", .postgresInstalled)
struct PostgresChangeFailureTests {
    @Test func aBackendTerminatedInsideAChangeBlockLeavesNothing() throws {
        let server = try ThrowawayPostgres(durable: true)
        let url = try server.createDatabase()
        let (library, asset, folder) = try PostgresRoundTripTests.libraryWithAPhoto(on: url)
        defer { try? FileManager.default.removeItem(at: folder) }
        let position = library.currentChangeToken.stringValue
        // Another session holds the write lock: the change block's transaction waits for it,
        // begun and inside its first statement, until its backend is terminated.
        let holder = try PostgresSession.connect(to: url)
        defer { holder.close() }
        try holder.query("SELECT pg_advisory_lock(\(ChangeJournal.postgresWriteLock))", "holding the write lock")
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true } }
            outcome.withLock { $0 = result }
            done.signal()
        }
        var waiting = ""
        let deadline = Date().addingTimeInterval(20)
        while waiting.isEmpty, Date() < deadline {
            waiting = try server.psql(
                "SELECT pid FROM pg_stat_activity WHERE datname = '\(url.lastPathComponent)' AND wait_event_type = 'Lock' AND query LIKE 'WITH locked%' LIMIT 1")
            if waiting.isEmpty { usleep(20_000) }
        }
        try #require(!waiting.isEmpty, "the change block never waited inside its transaction")
        _ = try server.psql("SELECT pg_terminate_backend(\(waiting))")
        done.wait()
        let result = try #require(outcome.withLock { $0 })
        if case .failure(let error) = result {
            let photos = try #require(error as? PHPhotosError, "\(error)")
            #expect(photos.code == .libraryVolumeOffline, "\(photos.code): \(photos.localizedDescription)")
        } else {
            Issue.record("the change block succeeded on a terminated backend")
        }
        try holder.query("SELECT pg_advisory_unlock(\(ChangeJournal.postgresWriteLock))", "releasing the write lock")
        // Nothing of it: the asset as it was, the library's position where it was.
        let again = try #require(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject })
        #expect(!again.isFavorite)
        #expect(library.currentChangeToken.stringValue == position)
        // And the library works again.
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        #expect(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject?.isFavorite } == true)
    }
}

/// The network to the database stalls (a TCP proxy of the test's own stops forwarding, then
/// goes on): reads and change blocks fail as unavailable within the answer timeout instead of
/// hanging, leave nothing, and work again once the network does (issue 35's drill).
@Suite("PostgreSQL behind a stalled network", .postgresInstalled)
struct PostgresStalledNetworkTests {
    @Test func aStalledNetworkFailsWithinTheTimeoutAndRecovers() throws {
        let server = try ThrowawayPostgres(durable: true)
        let direct = try server.createDatabase()
        let proxy = try TCPProxy(to: server.port)
        defer { proxy.stop() }
        let url = URL(string: "postgres://postgres@127.0.0.1:\(proxy.port)\(direct.path)?sslmode=disable&answer_timeout=2&connect_timeout=2")!
        let (library, asset, folder) = try PostgresRoundTripTests.libraryWithAPhoto(on: url)
        defer { try? FileManager.default.removeItem(at: folder) }

        proxy.pause()
        var started = Date()
        let change = Result { try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true } }
        let changeSeconds = Date().timeIntervalSince(started)
        if case .failure(let error) = change {
            #expect((error as? PHPhotosError)?.code == .libraryVolumeOffline, "\(error)")
        } else {
            Issue.record("a change block committed over a stalled network")
        }
        #expect(changeSeconds < 8, "the change block took \(changeSeconds) s")
        started = Date()
        let fetch = library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil) }
        let fetchSeconds = Date().timeIntervalSince(started)
        #expect(fetch.fetchError?.code == .libraryVolumeOffline, "\(String(describing: fetch.fetchError))")
        #expect(fetchSeconds < 8, "the fetch took \(fetchSeconds) s")

        proxy.resume()
        let after = library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil) }
        let again = try #require(after.firstObject, "\(String(describing: after.fetchError))")
        #expect(!again.isFavorite, "nothing of the failed block")
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        #expect(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject?.isFavorite } == true)
        print(String(format: "stalled network: the change block failed after %.1f s, the fetch after %.1f s (answer_timeout=2)", changeSeconds, fetchSeconds))
    }
}

/// The engine's pool (issue 35), postgres-nio's `PostgresClient`: never more connections than
/// `pool_max`, however many threads read at once; `pool_idle` kept, the others closed after
/// `pool_idle_timeout`; a database that is away fails a lease at once.
@Suite("PostgreSQL connection pool", .postgresInstalled)
struct PostgresPoolTests {
    /// The backends connected to `database` as the library (its `LISTEN` one apart).
    static func backends(_ server: ThrowawayPostgres, _ database: URL) throws -> Int {
        Int(try server.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database.lastPathComponent)' AND application_name = 'photos' AND query NOT LIKE 'LISTEN%'")) ?? -1
    }

    @Test func theConnectionsStayWithinTheMaximum() throws {
        let server = try ThrowawayPostgres()
        let direct = try server.createDatabase()
        let url = URL(string: direct.absoluteString + "?pool_max=2&pool_idle=1&pool_idle_timeout=1")!
        let engine = PostgresEngine(url: url)
        let peak = Mutex(0), succeeded = Mutex(0)
        // Twelve threads of their own (a dispatch pool would run as many as there are cores),
        // each read holding its connection a while (pg_sleep), so they overlap; each counts the
        // library's backends on the server while it holds one.
        let group = DispatchGroup()
        for _ in 0..<12 {
            group.enter()
            Thread.detachNewThread {
                let open = try? engine.read { db in
                    try db.int64("SELECT count(*) FROM pg_stat_activity, pg_sleep(0.1) WHERE datname = current_database() AND application_name = 'photos'")
                }
                if let open {
                    peak.withLock { $0 = max($0, Int(open)) }
                    succeeded.withLock { $0 += 1 }
                }
                group.leave()
            }
        }
        group.wait()
        #expect(succeeded.withLock { $0 } == 12, "every read waited for a connection")
        #expect(peak.withLock { $0 } <= 2 && peak.withLock { $0 } >= 1, "\(peak.withLock { $0 }) connections open at once")
        // Idle past pool_idle_timeout: closed, down to pool_idle.
        let deadline = Date().addingTimeInterval(15)
        while try Self.backends(server, direct) != 1, Date() < deadline { usleep(50_000) }
        #expect(try Self.backends(server, direct) == 1, "pool_idle=1 connection kept, the other closed")
    }

    /// A connection given back waits on the pool's shelf for the next take: reads one after
    /// another lease from postgres-nio's client once, not once each (a lease is a task, the
    /// client's state machine, its idle timer and two thread wake-ups).
    @Test func readsInARowReuseTheShelvedConnection() throws {
        let server = try ThrowawayPostgres()
        let engine = PostgresEngine(url: try server.createDatabase())
        for index in 0..<50 {
            #expect(try engine.read { db in try db.int64("SELECT \(index)") } == Int64(index))
            _ = try engine.query("SELECT 1" as StoreSQL) { $0.int64(0) }
        }
        #expect(engine.clientLeases <= 2, "\(engine.clientLeases) leases from the client for 100 uses")
    }

    /// A backend killed while its connection waits on the shelf (20 times, reading at once
    /// after each kill, so the read races the connection's closing): the read is answered, on
    /// another connection (a read whose connection closed under it runs again there; without
    /// that, 3-16 of the 20 reads said the database was unavailable, and before the
    /// unavailability of postgres-nio's older API was read as such, some were database errors,
    /// which `photos serve` answers 500).
    @Test func aShelvedConnectionThatDiedIsNotReused() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let engine = PostgresEngine(url: url)
        let killer = try PostgresSession.connect(to: url)
        defer { killer.close() }
        for _ in 0..<20 {
            let killed = try #require(try engine.read { db in try db.int64("SELECT pg_backend_pid()") })
            try killer.query(PostgresQuery(unsafeSQL: "SELECT pg_terminate_backend(\(killed))"), "killing a backend")
            let next = try engine.read { db in try db.int64("SELECT pg_backend_pid()") }
            #expect(next != killed)
        }
    }

    @Test func aLeaseFailsAtOnceWhileTheDatabaseIsAway() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let engine = PostgresEngine(url: url)
        #expect(try engine.read { db in try db.int64("SELECT 1") } == 1)
        server.crash()
        var seconds: [TimeInterval] = []
        for _ in 0..<5 {
            let started = Date()
            #expect(throws: StoreError.self) { try engine.read { db in try db.int64("SELECT 1") } }
            seconds.append(Date().timeIntervalSince(started))
        }
        #expect(seconds.allSatisfy { $0 < 2 }, "\(seconds)")
        try server.restart()
        // Back by itself: the client reconnects in the background.
        var value: Int64?
        let deadline = Date().addingTimeInterval(20)
        while value == nil, Date() < deadline {
            value = try? engine.read { db in try db.int64("SELECT 1") }
            if value == nil { usleep(20_000) }
        }
        #expect(value == 1)
        print(String(format: "pool while the database is away: leases failed after %@ ms", seconds.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ")))
    }
}

/// A fetch's ids come back as one `bigint[]`, decoded straight from its bytes
/// (``PostgresSession/int64Array(_:)``); anything it can't read falls back to postgres-nio.
@Suite("PostgreSQL id arrays", .postgresInstalled)
struct PostgresIDArrayTests {
    @Test func arraysDecodeFromTheirBytes() throws {
        let server = try ThrowawayPostgres()
        let session = try PostgresSession.connect(to: try server.createDatabase())
        defer { session.close() }
        func cell(_ sql: String) throws -> PostgresCell {
            try #require(try session.query(PostgresQuery(unsafeSQL: sql), sql).first?.makeRandomAccess()[0])
        }
        #expect(PostgresSession.int64Array(try cell("SELECT ARRAY[1, -2, 9223372036854775807, -9223372036854775808]::bigint[]"))
            == [1, -2, .max, .min])
        #expect(PostgresSession.int64Array(try cell("SELECT ARRAY(SELECT generate_series(1, 100000)::bigint)")) == Array(1...100_000))
        #expect(PostgresSession.int64Array(try cell("SELECT ARRAY(SELECT 1::bigint WHERE false)")) == [])
        #expect(PostgresSession.int64Array(try cell("SELECT ARRAY[1, NULL]::bigint[]")) == nil, "a NULL element")
        #expect(PostgresSession.int64Array(try cell("SELECT ARRAY[1, 2]::int4[]")) == nil, "not a bigint[]")
        #expect(PostgresSession.int64Array(try cell("SELECT ARRAY[[1, 2], [3, 4]]::bigint[]")) == nil, "two dimensions")
    }

    /// A search's ranks and dates (``PostgresSession/float8Array(_:)``), `NULL`s included, and
    /// its matches read whole (``PostgresSession/rankedMatchesAndPosition(_:)``).
    @Test func ranksAndDatesDecodeFromTheirBytes() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        try PostgresLibraryDatabase.open(url: url).close()
        let session = try PostgresSession.connect(to: url)
        defer { session.close() }
        func cell(_ sql: String) throws -> PostgresCell {
            try #require(try session.query(PostgresQuery(unsafeSQL: sql), sql).first?.makeRandomAccess()[0])
        }
        let decoded = PostgresSession.float8Array(try cell("SELECT ARRAY[1.5, NULL, -0.25, 'Infinity', 1e300]::float8[]"))
        #expect(decoded == [1.5, nil, -0.25, .infinity, 1e300])
        #expect(PostgresSession.float8Array(try cell("SELECT ARRAY(SELECT 1::float8 WHERE false)")) == [])
        #expect(PostgresSession.float8Array(try cell("SELECT ARRAY[1, 2]::float4[]")) == nil, "not a float8[]")
        #expect(PostgresSession.float8Array(try cell("SELECT ARRAY[[1, 2], [3, 4]]::float8[]")) == nil, "two dimensions")

        let (matches, position) = try session.rankedMatchesAndPosition(
            "SELECT n::bigint, -n * 0.5::real, CASE WHEN n % 3 = 0 THEN NULL ELSE n * 10.0 END FROM generate_series(1, 5000) AS n")
        #expect(position == 0 && matches.count == 5000)
        #expect(matches.map(\.id) == Array(1...5000))
        #expect(matches.allSatisfy { $0.rank == -Double($0.id) * 0.5 && $0.creationDate == ($0.id % 3 == 0 ? nil : Double($0.id) * 10) })
        let none = try session.rankedMatchesAndPosition("SELECT 1::bigint, 0.0, 0.0 WHERE false")
        #expect(none.matches.isEmpty)
    }
}
