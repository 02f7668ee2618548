import Foundation
import GRDB
import PhotosLocking
import PhotosStore
@testable import PhotosStorePostgres
import PhotosTestSupport
import Testing

/// The library's schema on PostgreSQL (issue 20): made once, by one instance when several open
/// together, with every table and column SQLite's has; clear errors for a bad address or a
/// newer schema. Each test starts a throwaway server of its own (`ThrowawayPostgres`).
@Suite("PostgreSQL schema", .postgresInstalled)
struct PostgresSchemaTests {
    @Test("opening a PostgreSQL library makes its schema once and keeps its identifier")
    func opensOnce() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let first = try PostgresLibraryDatabase.open(url: url)
        let identifier = try first.libraryIdentifier()
        #expect(UUID(uuidString: identifier) != nil, "identifier \(identifier)")
        first.close()
        let again = try PostgresLibraryDatabase.open(url: url)
        defer { again.close() }
        #expect(try again.libraryIdentifier() == identifier)
        #expect(try again.appliedMigrations() == PostgresSchema.migrations.map(\.name))
        #expect(try again.appliedMigrations() == ["v1", "v2-import-batches", "v3-null-order-indexes", "v4-people", "v5-owners", "v6-shared-albums", "v7-partners", "v8-share-links", "v9-owner-indexes", "v10-journal-owners", "v11-journal-plpgsql", "v12-journal-marks", "v13-close-on-the-server", "v14-descriptions", "v15-search", "v16-local-time-indexes", "v17-search-lookups", "v18-search-lengths", "v19-search-document-copies", "v20-search-document-halves"])
        // The smart albums, as SQLite's first migration seeds them.
        let smartAlbums = try server.psql("SELECT count(*) FROM collection WHERE isList = 0 AND type = 2", database: url.lastPathComponent)
        #expect(Int(smartAlbums) == SmartAlbumCatalog.entries.count)
    }

    /// The functions a journal trigger calls for every row are PL/pgSQL, whose plans a session
    /// keeps: a `LANGUAGE sql` one is planned again on each call (v11; ~60 µs a row before).
    @Test("the journal's per-row functions keep their plans (PL/pgSQL)")
    func journalFunctionsArePLpgSQL() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        try PostgresLibraryDatabase.open(url: url).close()
        let languages = try server.psql(
            """
            SELECT string_agg(p.proname || '=' || l.lanname, ',' ORDER BY p.proname) FROM pg_proc AS p
            JOIN pg_language AS l ON l.oid = p.prolang WHERE p.proname IN ('photokit_record', 'photokit_container_changed')
            """, database: url.lastPathComponent)
        #expect(languages == "photokit_container_changed=plpgsql,photokit_record=plpgsql")
    }

    @Test("instances opening one database together migrate it once")
    func concurrentOpen() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let results = Mutex<[Result<String, StoreError>]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let result = Result { () throws(StoreError) -> String in
                let library = try PostgresLibraryDatabase.open(url: url)
                defer { library.close() }
                return try library.libraryIdentifier()
            }
            results.withLock { $0.append(result) }
        }
        let identifiers = try results.withLock { $0 }.map { try $0.get() }
        #expect(identifiers.count == 4 && Set(identifiers).count == 1, "\(identifiers)")
        #expect(try server.psql("SELECT count(*) FROM schemaMigration", database: url.lastPathComponent) == "\(PostgresSchema.migrations.count)")
        #expect(try server.psql("SELECT count(*) FROM libraryInfo WHERE key = 'libraryIdentifier'", database: url.lastPathComponent) == "1")
    }

    /// A migration's statement may take minutes (rewriting a table of millions of rows), and an
    /// instance waits for another's migration: neither is bounded by `answer_timeout`, which is
    /// for a request's statements (a 1,000,000-asset copy's `v5-owners` failed after 30 s).
    @Test("an open waits for another instance's migration past the answer timeout")
    func aMigrationIsNotBoundByTheAnswerTimeout() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        try PostgresLibraryDatabase.open(url: url).close()
        // Another instance migrating: it holds the migrations' lock for 2.5 s.
        let holder = try PostgresSession.connect(to: url)
        defer { holder.close() }
        try holder.query("SELECT pg_advisory_lock(\(PostgresLibraryDatabase.migrationLock))", "taking the migrations' lock")
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 2.5)
            _ = try? holder.query("SELECT pg_advisory_unlock(\(PostgresLibraryDatabase.migrationLock))", "letting the migrations' lock go")
            released.signal()
        }
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "answer_timeout", value: "1")]
        let started = Date()
        let opened = try PostgresLibraryDatabase.open(url: try #require(components.url))
        let waited = Date().timeIntervalSince(started)
        opened.close()
        released.wait()
        #expect(waited >= 2, "the open waited \(waited) s for the other migration")
    }

    /// A migration that updates every row (`v5-owners`) leaves the old index entries behind;
    /// the open rebuilds the indexes of the tables it rewrote (new files), and only then.
    @Test("a migration that rewrites a table rebuilds its indexes, once")
    func rewritingMigrationsRebuildIndexes() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let session = try PostgresSession.connect(to: url)
        try PostgresLibraryDatabase.migrate(session, Array(PostgresSchema.migrations.prefix { $0.name != "v5-owners" }))
        session.close()
        func indexFiles() throws -> [String: String] {
            let listed = try server.psql(
                "SELECT string_agg(c.relname || '=' || c.relfilenode, ',' ORDER BY c.relname) FROM pg_index i "
                    + "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'asset'::regclass",
                database: url.lastPathComponent)
            return Dictionary(uniqueKeysWithValues: listed.split(separator: ",").map { pair in
                let parts = pair.split(separator: "=")
                return (String(parts[0]), String(parts[1]))
            })
        }
        let before = try indexFiles()
        #expect(!before.isEmpty)
        try PostgresLibraryDatabase.open(url: url).close()
        let after = try indexFiles()
        for (index, file) in before {
            #expect(after[index] != nil && after[index] != file, "\(index) was not rebuilt")
        }
        // Up to date: opening again rebuilds nothing.
        try PostgresLibraryDatabase.open(url: url).close()
        #expect(try indexFiles() == after)
    }

    @Test("every table and column of the SQLite library exists on PostgreSQL, with a matching type")
    func sameTablesAndColumns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try LibraryDatabase.open(at: folder.appendingPathComponent("Library.photoslibrary"))
        let queue = try DatabaseQueue(path: sqlite.layout.databaseFile.path)
        let expected: [String: String] = try queue.read { db in
            var columns: [String: String] = [:]
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
            // SQLite's FTS5 table of the search words and its shadow tables: PostgreSQL's index is a column.
            for table in tables where !table.hasPrefix("searchIndex") {
                for row in try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table]) {
                    let name: String = row["name"], type: String = row["type"]
                    columns["\(table.lowercased()).\(name.lowercased())"] = type.uppercased()
                }
            }
            return columns
        }
        #expect(expected.count > 90, "\(expected.count) SQLite columns")

        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        try PostgresLibraryDatabase.open(url: url).close()
        let listed = try server.psql(
            "SELECT table_name || '.' || column_name || '|' || data_type FROM information_schema.columns WHERE table_schema = 'public'",
            database: url.lastPathComponent)
        var actual: [String: String] = [:]
        for line in listed.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
            actual[parts[0]] = parts[1]
        }
        let types = ["INTEGER": "bigint", "REAL": "double precision", "TEXT": "text"]
        for (column, type) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(actual[column] == types[type], "\(column): SQLite \(type), PostgreSQL \(actual[column] ?? "missing")")
        }
        // PostgreSQL's own: its migrations, the position row (SQLite keeps it in sqlite_sequence),
        // the search words' tsvector (SQLite's are in its FTS5 table) and the copies of what a
        // search reads of each asset beside it (`SearchDocumentCopies`).
        let searchColumns = ["vector"] + SearchDocumentCopies.columns.map(\.name)
        // The documents' halves (`SearchDocumentHalves`) have the documents' columns.
        let searchTables = ["searchdocument"] + SearchDocumentHalves.tables.map { $0.lowercased() }
        for half in searchTables.dropFirst() {
            let columns = actual.keys.filter { $0.hasPrefix("\(half).") }.map { $0.dropFirst(half.count) }
            let whole = actual.keys.filter { $0.hasPrefix("searchdocument.") }.map { $0.dropFirst("searchdocument".count) }
            #expect(!columns.isEmpty && Set(columns) == Set(whole), "\(half): \(columns.sorted())")
        }
        let extra = Set(actual.keys).subtracting(expected.keys)
            .subtracting(searchColumns.map { "searchdocument.\($0.lowercased())" })
            .filter { column in !searchTables.dropFirst().contains { column.hasPrefix("\($0).") } }
            .filter { !$0.hasPrefix("schemamigration.") && $0 != "libraryposition.position" }
        #expect(extra.isEmpty, "columns only on PostgreSQL: \(extra.sorted())")
        // Text sorts by bytes, as SQLite's BINARY collation does.
        #expect(try server.psql("SELECT collation_name FROM information_schema.columns WHERE table_name = 'asset' AND column_name = 'originalfilename'", database: url.lastPathComponent) == "C")
    }

    @Test("v19 copies what a search reads of each asset beside its words, writes the documents again compactly, and keeps the copies")
    func searchDocumentCopies() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let database = url.lastPathComponent
        let session = try PostgresSession.connect(to: url)
        try PostgresLibraryDatabase.migrate(session, Array(PostgresSchema.migrations.prefix { $0.name != "v19-search-document-copies" }))
        session.close()
        // A library of v18: 2,000 assets with words, some hidden, in Recently Deleted, a burst's
        // unpicked frame, another source; one without a date.
        _ = try server.psql(
            """
            INSERT INTO asset (uuid, mediaType, creationDate, addedDate, isHidden, trashedDate, burstIdentifier, sourceType, uniformTypeIdentifier)
                SELECT 'A' || n, 1, CASE WHEN n = 7 THEN NULL ELSE n * 1000.0 END, n, (n % 5 = 0)::int,
                       CASE WHEN n % 7 = 0 THEN n END, CASE WHEN n % 11 = 0 THEN 'B' END, CASE WHEN n % 13 = 0 THEN 2 ELSE 1 END, 'public.jpeg'
                FROM generate_series(1, 2000) AS n;
            INSERT INTO searchDocument (assetID, words) SELECT id, 'harbour ' || uuid FROM asset;
            """, database: database)
        // The table's, or its halves' since v20 (`SearchDocumentHalves`).
        func size() throws -> Int {
            let size = """
                SELECT CASE WHEN relkind = 'p' THEN (SELECT sum(pg_relation_size(relid)) FROM pg_partition_tree(oid)) \
                ELSE pg_relation_size(oid) END FROM pg_class WHERE oid = 'searchdocument'::regclass
                """
            return Int(try server.psql(size, database: database)) ?? 0
        }
        let before = try size()
        // Through v19 (v20 writes the documents again in halves, `searchDocumentHalves`).
        let throughV19 = try PostgresSession.connect(to: url)
        try PostgresLibraryDatabase.migrate(throughV19, Array(PostgresSchema.migrations.prefix { $0.name != "v20-search-document-halves" }))
        throughV19.close()
        let differing = """
            SELECT count(*) FROM searchDocument JOIN asset ON asset.id = searchDocument.assetID \
            WHERE (searchDocument.listed, searchDocument.isHidden, searchDocument.ownerID, searchDocument.creationDate) \
            IS DISTINCT FROM ((asset.trashedDate IS NULL AND (asset.sourceType & 1) != 0 AND (asset.burstIdentifier IS NULL \
            OR asset.representsBurst = 1 OR (asset.burstSelectionTypes & 2) != 0)), asset.isHidden, asset.ownerID, asset.creationDate)
            """
        #expect(try server.psql(differing, database: database) == "0", "filled from the assets")
        #expect(try server.psql("SELECT count(*) FROM searchDocument WHERE listed", database: database) != "0")
        // Every row was written again by the fill; the table is then rewritten without the old ones.
        let after = try size()
        #expect(after <= before + before / 2, "\(before) → \(after) bytes")
        // The triggers keep them: a new document, and changes to each column copied.
        _ = try server.psql(
            """
            INSERT INTO asset (uuid, mediaType, creationDate, addedDate, isHidden, uniformTypeIdentifier) VALUES ('NEW', 1, 5.0, 0, 1, 'public.jpeg');
            INSERT INTO searchDocument (assetID, words) SELECT id, 'new' FROM asset WHERE uuid = 'NEW';
            """, database: database)
        #expect(try server.psql("SELECT listed::text || isHidden FROM searchDocument WHERE words = 'new'", database: database) == "true1")
        _ = try server.psql(
            """
            UPDATE asset SET isHidden = 1 - isHidden WHERE id % 3 = 0;
            UPDATE asset SET trashedDate = CASE WHEN trashedDate IS NULL THEN 1 END WHERE id % 4 = 0;
            UPDATE asset SET creationDate = creationDate + 1, representsBurst = 1 WHERE id % 6 = 0;
            UPDATE asset SET sourceType = 1, ownerID = NULL WHERE id % 13 = 0;
            """, database: database)
        #expect(try server.psql(differing, database: database) == "0", "kept by the triggers")
    }

    @Test("v20 splits the documents in two halves by their asset's id, each with its index, and keeps them whole")
    func searchDocumentHalves() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let database = url.lastPathComponent
        let session = try PostgresSession.connect(to: url)
        try PostgresLibraryDatabase.migrate(session, Array(PostgresSchema.migrations.prefix { $0.name != "v20-search-document-halves" }))
        session.close()
        _ = try server.psql(
            """
            INSERT INTO asset (uuid, mediaType, creationDate, addedDate, isHidden, trashedDate, uniformTypeIdentifier)
                SELECT 'A' || n, 1, n * 1000.0, n, (n % 5 = 0)::int, CASE WHEN n % 7 = 0 THEN n END, 'public.jpeg'
                FROM generate_series(1, 2000) AS n;
            INSERT INTO searchDocument (assetID, words) SELECT id, 'harbour ' || uuid FROM asset;
            """, database: database)
        let documents = "SELECT assetID, words, vector, listed, isHidden, ownerID, creationDate FROM searchDocument ORDER BY assetID"
        let before = try server.psql(documents, database: database)
        _ = try server.psql("UPDATE asset SET isFavorite = 1, mediaType = 2, creationTimeZoneOffset = 3600 WHERE id % 3 = 0", database: database)
        try PostgresLibraryDatabase.open(url: url).close()
        #expect(try server.psql(documents, database: database) == before, "every document copied as it was")
        // With the copies v20 adds, made from the assets; kept by the triggers.
        let copies = SearchDocumentCopies.columns.map { "searchDocument.\($0.name)" }.joined(separator: ", ")
        let differing = """
            SELECT count(*) FROM searchDocument JOIN asset ON asset.id = searchDocument.assetID \
            WHERE (\(copies)) IS DISTINCT FROM (\(SearchDocumentCopies.values(of: "asset").joined(separator: ", ")))
            """
        #expect(try server.psql(differing, database: database) == "0", "filled from the assets")
        #expect(try server.psql("SELECT count(*) FROM searchDocument WHERE isFavorite = 1 AND mediaType = 2 AND creationTimeZoneOffset = 3600", database: database) == "666")
        #expect(try server.psql("SELECT partstrat FROM pg_partitioned_table WHERE partrelid = 'searchdocument'::regclass", database: database) == "h")
        let counts = try SearchDocumentHalves.tables.map { try Int(server.psql("SELECT count(*) FROM \($0)", database: database)) ?? 0 }
        #expect(counts.count == 2 && counts.allSatisfy { $0 > 800 } && counts.reduce(0, +) == 2000, "\(counts)")
        let indexes = try server.psql(
            "SELECT string_agg(indexrelid::regclass::text, ',' ORDER BY indexrelid::regclass::text) FROM pg_index WHERE indrelid IN ('searchdocument_0'::regclass, 'searchdocument_1'::regclass)",
            database: database)
        #expect(indexes.split(separator: ",").filter { $0.hasSuffix("vector_idx") }.count == 2, "\(indexes)")
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'searchdocument_v19%'", database: database) == "0")
        // A new document lands in a half with its copies; an asset's change and its deletion reach it.
        _ = try server.psql(
            """
            INSERT INTO asset (uuid, mediaType, creationDate, addedDate, isHidden, uniformTypeIdentifier) VALUES ('NEW', 1, 5.0, 0, 1, 'public.jpeg');
            INSERT INTO searchDocument (assetID, words) SELECT id, 'new' FROM asset WHERE uuid = 'NEW';
            """, database: database)
        #expect(try server.psql("SELECT listed::text || isHidden || creationDate FROM searchDocument WHERE words = 'new'", database: database) == "true15")
        _ = try server.psql("UPDATE asset SET isHidden = 0 WHERE uuid = 'NEW'; DELETE FROM asset WHERE uuid = 'A10';", database: database)
        #expect(try server.psql("SELECT isHidden FROM searchDocument WHERE words = 'new'", database: database) == "0")
        #expect(try server.psql("SELECT count(*) FROM searchDocument WHERE words = 'harbour A10'", database: database) == "0")
        #expect(try server.psql("SELECT count(*) FROM searchDocument", database: database) == "2000")
        _ = try server.psql(
            """
            UPDATE asset SET isFavorite = 1 - isFavorite WHERE id % 4 = 0;
            UPDATE asset SET mediaSubtypes = 4, creationTimeZoneOffset = -7200 WHERE id % 5 = 0;
            UPDATE asset SET mediaType = 1 WHERE id % 6 = 0;
            """, database: database)
        #expect(try server.psql(differing, database: database) == "0", "kept by the triggers")
    }

    @Test("a video gets its rendition row, a Live Photo when it becomes live, and an edit makes it due again")
    func renditionTriggers() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        try PostgresLibraryDatabase.open(url: url).close()
        let database = url.lastPathComponent
        func insert(_ uuid: String, mediaType: Int) throws {
            _ = try server.psql(
                "INSERT INTO asset (uuid, mediaType, addedDate, uniformTypeIdentifier) VALUES ('\(uuid)', \(mediaType), 0, 'public.jpeg')",
                database: database)
        }
        try insert("V", mediaType: 2)
        try insert("P", mediaType: 1)
        #expect(try server.psql("SELECT a.uuid FROM videoRendition r JOIN asset a ON a.id = r.assetID", database: database) == "V")
        _ = try server.psql("UPDATE asset SET mediaSubtypes = 8 WHERE uuid = 'P'", database: database)
        #expect(try server.psql("SELECT count(*) FROM videoRendition", database: database) == "2")
        _ = try server.psql("UPDATE videoRendition SET state = 2, attempts = 3, sourcePath = 'x'", database: database)
        _ = try server.psql("UPDATE asset SET contentVersion = contentVersion + 1 WHERE uuid = 'V'", database: database)
        #expect(
            try server.psql("SELECT a.uuid || ':' || r.state || ':' || r.attempts FROM videoRendition r JOIN asset a ON a.id = r.assetID ORDER BY a.uuid", database: database)
                == "P:2:3\nV:0:0")
    }

    @Test("a bad address, an absent server and a newer schema are clear errors")
    func errors() throws {
        func failure(_ url: String) -> StoreError? {
            do {
                try PostgresLibraryDatabase.open(url: URL(string: url)!).close()
                return nil
            } catch {
                return error
            }
        }
        let notPostgres = failure("mysql://db.example/photos")
        #expect(notPostgres?.code == .cannotOpen && notPostgres?.message.contains("is not a postgres:// or postgresql:// URL") == true, "\(String(describing: notPostgres))")
        // As libpq: a URL without a database names the user's.
        #expect(try PostgresConnectionSettings(url: URL(string: "postgres://user@127.0.0.1:5432")!, environment: [:]).database == "user")

        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        server.stop()
        let absent = failure(url.absoluteString.replacingOccurrences(of: "postgres@", with: "postgres:secret@"))
        // A server that isn't there may be later: unavailable (503 in `photos serve`), not a bad address.
        #expect(absent?.code == .unavailable, "\(String(describing: absent))")
        #expect(absent?.message.contains("can't connect to the PostgreSQL database postgresql://postgres@127.0.0.1:\(server.port)/") == true, "\(String(describing: absent))")
        #expect(absent?.message.contains("secret") == false)

        let live = try ThrowawayPostgres()
        let newer = try live.createDatabase()
        try PostgresLibraryDatabase.open(url: newer).close()
        _ = try live.psql("INSERT INTO schemaMigration (name, appliedDate) VALUES ('v99-from-the-future', 0)", database: newer.lastPathComponent)
        let refused = failure(newer.absoluteString)
        #expect(refused?.code == .newerSchema && refused?.message.contains("v99-from-the-future") == true, "\(String(describing: refused))")
    }
}
