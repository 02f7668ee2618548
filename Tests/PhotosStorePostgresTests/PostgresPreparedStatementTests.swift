import Foundation
import PhotosStore
@testable import PhotosStorePostgres
import PhotosTestSupport
import Testing

/// A statement run often on a connection is prepared there (psycopg's `prepare_threshold` and
/// `prepared_max`), answers as it did unnamed, and never changes the order of a session's
/// statements (issue 35: a server parses and plans each unnamed statement, more than half of
/// its work for the store's row reads).
@Suite("PostgreSQL prepared statements", .postgresInstalled)
struct PostgresPreparedStatementTests {
    /// A session on a new database, with `parameters` added to its URL.
    static func session(_ parameters: String) throws -> (ThrowawayPostgres, PostgresSession) {
        let server = try ThrowawayPostgres()
        var components = try #require(URLComponents(url: try server.createDatabase(), resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []) + (URLComponents(string: "?\(parameters)")?.queryItems ?? [])
        return (server, try PostgresSession.connect(to: try #require(components.url)))
    }

    /// The statements the session's server holds prepared (read on the session itself: the
    /// view is per session).
    static func preparedOnServer(_ session: PostgresSession) throws -> [String] {
        try session.rows("SELECT statement FROM pg_prepared_statements WHERE from_sql = false ORDER BY statement") { $0.text(0) }
    }

    /// Every kind of value the store reads, bound and answered.
    static let everyKind: StoreSQL = """
        SELECT \(Int64(-42)) AS i, \(2.5) AS r, \("ça va, \u{1F600}") AS t, \(Int64?.none)::bigint AS n, \
        ARRAY[\(Int64(7)), 8, 9]::bigint[] AS a, true AS b
        """

    static func decode(_ row: any ColumnReading) -> String {
        "\(row.int64(0)) \(row.double(1)) \(row.text(2)) \(row.isNull(3)) \(row.int64(5))"
    }

    @Test func aStatementRunFiveTimesIsPreparedAndAnswersAsBefore() throws {
        let (server, session) = try Self.session("prepare_threshold=5")
        defer { session.close(); withExtendedLifetime(server) {} }
        var answers: [String] = []
        var ids: [[Int64]] = []
        for run in 1...8 {
            answers.append(try #require(try session.rows(Self.everyKind, Self.decode).first))
            ids.append(try session.int64Column("SELECT x FROM unnest(ARRAY[\(Int64(3)), 1, 2]::bigint[]) AS x"))
            let prepared = try Self.preparedOnServer(session)
            // Prepared after its fifth unnamed run (the `Parse` follows it on the connection,
            // answered before the next statement is).
            #expect(prepared.contains { $0.contains("AS b") } == (run >= 5), "run \(run): \(prepared)")
        }
        #expect(Set(answers) == ["-42 2.5 ça va, \u{1F600} true 1"], "\(answers)")
        #expect(ids.allSatisfy { $0 == [3, 1, 2] }, "\(ids)")
        #expect(session.prepared.count >= 2)
    }

    @Test func preparedMaxBoundsThemAndZeroPreparesNone() throws {
        let (server, session) = try Self.session("prepare_threshold=1&prepared_max=2")
        defer { session.close(); withExtendedLifetime(server) {} }
        for value in 1...4 {
            for _ in 0..<3 {
                #expect(try session.rows("SELECT \(Int64(value)) + \(literal: value)") { $0.int64(0) } == [Int64(2 * value)])
            }
        }
        #expect(try Self.preparedOnServer(session).count <= 2)
        #expect(session.prepared.count <= 2)

        let (otherServer, unprepared) = try Self.session("prepared_max=0")
        defer { unprepared.close(); withExtendedLifetime(otherServer) {} }
        for _ in 0..<10 { _ = try unprepared.rows(Self.everyKind, Self.decode) }
        #expect(try Self.preparedOnServer(unprepared).isEmpty)
    }

    @Test func statementsSentAheadKeepTheirOrderWhilePrepared() throws {
        let (server, session) = try Self.session("prepare_threshold=2")
        defer { session.close(); withExtendedLifetime(server) {} }
        try session.execute("CREATE TABLE t (id bigint PRIMARY KEY, v bigint)")
        try session.execute("INSERT INTO t VALUES (1, 0)")
        // Each update is sent without waiting and the read after it must see it, whether
        // either runs unnamed, is being prepared, or runs prepared.
        for value in 1...12 {
            try session.executeAhead("UPDATE t SET v = \(Int64(value)) WHERE id = \(Int64(1))")
            #expect(try session.rows("SELECT v FROM t WHERE id = \(Int64(1))") { $0.int64(0) } == [Int64(value)])
        }
        #expect(try Self.preparedOnServer(session).count == 2)
    }

    @Test func unknownValuesAreRefusedWithTheirName() {
        #expect(throws: StoreError.self) { try PostgresConnectionSettings(url: URL(string: "postgres://u@h/d?prepare_threshold=0")!) }
        #expect(throws: StoreError.self) { try PostgresConnectionSettings(url: URL(string: "postgres://u@h/d?prepared_max=-1")!) }
        #expect((try? PostgresConnectionSettings(url: URL(string: "postgres://u@h/d?prepared_max=0&prepare_threshold=1")!))?.preparedMaximum == 0)
    }
}
