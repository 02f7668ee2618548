import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore
@testable import PhotosStorePostgres

/// The change journal's close on PostgreSQL: a change that recorded nothing leaves no row in
/// the history, one that recorded keeps its row, told by the mark the recording function sets
/// in the transaction (v12) rather than by looking in `changedObject`.
@Suite("PostgreSQL change journal", .postgresInstalled)
struct PostgresJournalTests {
    @Test func aChangeThatRecordedNothingLeavesNoRow() throws {
        let server = try ThrowawayPostgres()
        let (url, database) = try server.createLibraryDatabase()
        _ = try server.psql(
            "INSERT INTO asset (uuid, mediaType, creationDate, addedDate, uniformTypeIdentifier) VALUES ('A', 1, 1, 1, 'public.jpeg')",
            database: database)
        let engine = PostgresEngine(url: url)
        func change(_ body: (any StoreConnection) throws -> Void) throws -> Int64 {
            try engine.writeChange { db in
                let opening = try ChangeJournal.open(db, date: Date())
                try body(db)
                let id = try opening.opened().id
                try ChangeJournal.close(db, id: id)
                return id
            }
        }
        func rows(_ id: Int64) throws -> (change: String, objects: String) {
            (try server.psql("SELECT count(*) FROM change WHERE id = \(id)", database: database),
             try server.psql("SELECT count(*) FROM changedObject WHERE changeID = \(id)", database: database))
        }
        let empty = try change { _ in }
        #expect(try rows(empty) == ("0", "0"), "an empty change kept its row")
        let recorded = try change { db in try db.execute("UPDATE asset SET isFavorite = 1 WHERE uuid = 'A'") }
        #expect(try rows(recorded) == ("1", "1"), "a change that recorded an asset lost its row")
        // The mark is the transaction's: the next change starts unmarked.
        let emptyAgain = try change { _ in }
        #expect(try rows(emptyAgain) == ("0", "0"), "an empty change after a recorded one kept its row")
    }
}
