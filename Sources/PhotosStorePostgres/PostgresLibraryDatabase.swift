package import Foundation
package import PhotosStore
import PostgresNIO

/// A library whose rows live in a PostgreSQL database (issue 20), shared by every `photos
/// serve` instance that opens the same database; its files stay in a folder each instance
/// mounts. `package` access: the Photos module reaches it through the store seam.
///
/// Opening migrates the schema (``PostgresSchema``) in one transaction under an advisory lock,
/// so instances starting together migrate once and the others find it done.
package final class PostgresLibraryDatabase: Sendable {
    /// The database's `postgres://` URL.
    package let url: URL
    let session: PostgresSession

    private init(url: URL, session: PostgresSession) {
        self.url = url
        self.session = session
    }

    /// Connects to the database at `url` and brings its schema up to date.
    /// - Throws: `StoreError.cannotOpen` (a bad URL, no server, refused), `.newerSchema` (a
    ///   migration this version doesn't know), `.database`.
    package static func open(url: URL) throws(StoreError) -> PostgresLibraryDatabase {
        // A migration's statement may rewrite a table of millions of rows, and waits for another
        // instance's migration: minutes, not the `answer_timeout` of a request's statements.
        var settings = try PostgresConnectionSettings(url: url)
        settings.answerTimeout = max(settings.answerTimeout, Self.migrationAnswerTimeout)
        let session = try PostgresSession.connect(settings)
        do {
            try migrate(session)
        } catch {
            session.close()
            throw error
        }
        return PostgresLibraryDatabase(url: url, session: session)
    }

    /// The library's identifier (a UUID made when the schema was created), as on SQLite.
    package func libraryIdentifier() throws(StoreError) -> String {
        try session.info("libraryIdentifier") ?? ""
    }

    /// The names of the schema migrations applied to this database, oldest first.
    package func appliedMigrations() throws(StoreError) -> [String] {
        try session.migrationNames()
    }

    /// Closes the connection.
    package func close() {
        session.close()
    }

    /// How long a migration's statement may take (a day): `v5-owners` rewrote 1,000,000 assets
    /// in more than the 30 s requests get.
    static let migrationAnswerTimeout: TimeInterval = 86_400

    /// The key of the advisory lock migrations hold (`pg_advisory_xact_lock`): "PHKL".
    static let migrationLock: Int64 = 0x5048_4B4C

    /// Applies the `migrations` the database lacks, in one transaction under the migrations'
    /// lock; then rebuilds the indexes of the tables they rewrote and reads their statistics
    /// again (`REINDEX TABLE`, `ANALYZE`: seconds for 1,000,000 assets). Once they commit,
    /// writes the tables they compact again (`VACUUM FULL`, which runs outside a transaction).
    static func migrate(_ session: PostgresSession, _ migrations: [PostgresSchema.Migration] = PostgresSchema.migrations) throws(StoreError) {
        let compacted = try session.transaction("migrating the library's schema") { () throws(StoreError) -> [String] in
            try session.query("SELECT pg_advisory_xact_lock(\(migrationLock))", "waiting for another instance's migration")
            try session.query(
                #"CREATE TABLE IF NOT EXISTS schemaMigration (name TEXT COLLATE "C" PRIMARY KEY, appliedDate DOUBLE PRECISION NOT NULL)"#,
                "creating the migrations table")
            let applied = Set(try session.migrationNames())
            if let unknown = applied.subtracting(PostgresSchema.migrations.map(\.name)).sorted().first {
                throw StoreError(.newerSchema, "the library's database was written by a newer version of this software (migration \(unknown))")
            }
            var rewritten: [String] = []
            var compacted: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                rewritten += migration.rewrites.filter { !rewritten.contains($0) }
                compacted += migration.compacts.filter { !compacted.contains($0) }
                for statement in migration.statements {
                    // DDL rendered from the tables' descriptions: no values, nothing to bind.
                    try session.query(PostgresQuery(unsafeSQL: statement), "migration \(migration.name)")
                }
                if migration.name == "v1" { try seed(session) }
                let now = Date().timeIntervalSince1970
                try session.query(
                    "INSERT INTO schemaMigration (name, appliedDate) VALUES (\(migration.name), \(now))", "recording migration \(migration.name)")
            }
            for table in rewritten {
                // The schema's own table names: identifiers, which can't be bound.
                try session.query(PostgresQuery(unsafeSQL: "REINDEX TABLE \(table)"), "rebuilding the indexes of \(table)")
                try session.query(PostgresQuery(unsafeSQL: "ANALYZE \(table)"), "reading the statistics of \(table)")
            }
            return compacted
        }
        for table in compacted {
            // The schema's own table names: identifiers, which can't be bound.
            try session.query(PostgresQuery(unsafeSQL: "VACUUM (FULL, ANALYZE) \(table)"), "writing \(table) again compactly")
        }
    }

    /// What the SQLite migrations insert: the library's identifier and creation date, the
    /// access version and history floor, and the smart albums.
    private static func seed(_ session: PostgresSession) throws(StoreError) {
        let info = [
            ("libraryIdentifier", UUID().uuidString), ("createdAt", ISO8601DateFormatter().string(from: Date())),
            ("accessVersion", "0"), ("historyFloor", "0"),
        ]
        for (key, value) in info {
            try session.query("INSERT INTO libraryInfo (key, value) VALUES (\(key), \(value))", "writing the library's \(key)")
        }
        try StoreError.mapping("Creating the smart albums failed") { try SmartAlbumCatalog.seed(session) }
    }
}

extension PostgresSession {
    /// A `libraryInfo` value, or `nil`.
    func info(_ key: String) throws(StoreError) -> String? {
        let rows = try query("SELECT value FROM libraryInfo WHERE key = \(key)", "reading the library's \(key)")
        guard let row = rows.first else { return nil }
        return try Self.decoding("the library's \(key)") { try row.decode(String.self) }
    }

    /// The names of the applied schema migrations, oldest first.
    func migrationNames() throws(StoreError) -> [String] {
        let rows = try query("SELECT name FROM schemaMigration ORDER BY appliedDate, name", "reading the schema migrations")
        return try rows.map { row throws(StoreError) in try Self.decoding("a migration's name") { try row.decode(String.self) } }
    }

    /// Decodes a value, mapping a failure to `StoreError.database` naming `what`.
    static func decoding<T>(_ what: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(.database, "can't read \(what): \(error)")
        }
    }
}
