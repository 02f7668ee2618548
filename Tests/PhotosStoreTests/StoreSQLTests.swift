import Foundation
import Testing

@testable import PhotosStore

/// Statements carry their binds: each interpolated value is appended with its placeholder, and
/// each engine renders the same statement in its spelling, with nothing rewritten at run time.
@Suite("Statements and their binds")
struct StoreSQLTests {
    @Test func eachValueIsBoundWhereItStands() {
        let title: String? = nil
        let statement: StoreSQL = "UPDATE asset SET isFavorite = \(true), title = \(title), creationDate = \(Date(timeIntervalSince1970: 5)) WHERE id = \(Int64(9))"
        let sqlite = statement.rendered(for: .sqlite)
        #expect(sqlite.sql == "UPDATE asset SET isFavorite = ?, title = ?, creationDate = ? WHERE id = ?")
        #expect(sqlite.binds == [.integer(1), .null, .real(5), .integer(9)])
        let postgres = statement.rendered(for: .postgres)
        #expect(postgres.sql == "UPDATE asset SET isFavorite = $1, title = $2, creationDate = $3 WHERE id = $4")
        #expect(postgres.binds == sqlite.binds)
    }

    @Test func fragmentsBringTheirBindsInTextOrder() {
        let condition: StoreSQL = "mediaType = \(2)"
        let order: StoreSQL = "ORDER BY creationDate LIMIT \(10)"
        let statement: StoreSQL = "SELECT id FROM asset WHERE uuid = \("A") AND \(condition) \(order)"
        let postgres = statement.rendered(for: .postgres)
        #expect(postgres.sql == "SELECT id FROM asset WHERE uuid = $1 AND mediaType = $2 ORDER BY creationDate LIMIT $3")
        #expect(postgres.binds == [.text("A"), .integer(2), .integer(10)])
        let joined = StoreSQL.joined([condition, "isHidden = \(0)", "TRUE"], separator: " AND ").rendered(for: .postgres)
        #expect(joined.sql == "mediaType = $1 AND isHidden = $2 AND TRUE")
        #expect(joined.binds == [.integer(2), .integer(0)])
    }

    @Test func eachEngineRendersItsOwnSpellingWithItsOwnBinds() {
        let statement: StoreSQL = "SELECT id FROM asset WHERE \(StoreSQL.isDistinct("title", "\("x")")) AND id IN (\(StoreSQL.elements([Int64(1), 2])))"
        let sqlite = statement.rendered(for: .sqlite)
        #expect(sqlite.sql == "SELECT id FROM asset WHERE title IS NOT ? AND id IN (SELECT value FROM json_each(?))")
        #expect(sqlite.binds == [.text("x"), .text("[1,2]")])
        let postgres = statement.rendered(for: .postgres)
        #expect(postgres.sql == "SELECT id FROM asset WHERE title IS DISTINCT FROM $1 AND id IN (SELECT json_array_elements_text($2::json)::bigint)")
        #expect(postgres.binds == sqlite.binds)
    }

    @Test func textIsNeverRewritten() {
        let statement: StoreSQL = "SELECT '?', \"a?b\" FROM t -- what?\nWHERE a = \(1)"
        #expect(statement.rendered(for: .postgres).sql == "SELECT '?', \"a?b\" FROM t -- what?\nWHERE a = $1")
        #expect(statement.rendered(for: .sqlite).sql == "SELECT '?', \"a?b\" FROM t -- what?\nWHERE a = ?")
    }

    @Test func literalsAndUnescapedTextAreWrittenNotBound() {
        let statement: StoreSQL = "SELECT \(unescaped: "asset.id") FROM asset WHERE (sourceType & \(literal: 1)) != 0"
        #expect(statement.rendered(for: .sqlite) == ("SELECT asset.id FROM asset WHERE (sourceType & 1) != 0", []))
    }

    @Test func parametersAreBoundLaterInTheirPlaces() {
        let probe: StoreSQL = "SELECT id FROM asset WHERE momentID = \(Int64(3)) AND id = \(StoreSQL.parameter(0)) AND x > \(StoreSQL.parameter(1))"
        let bound = probe.binding([.integer(42), .real(1.5)]).rendered(for: .postgres)
        #expect(bound.sql == "SELECT id FROM asset WHERE momentID = $1 AND id = $2 AND x > $3")
        #expect(bound.binds == [.integer(3), .integer(42), .real(1.5)])
    }

    @Test func insertsAndUpdatesListTheirColumnsBesideTheirValues() {
        var row = TableRow<AssetColumn>()
        row[.uuid] = "U"
        row[.mediaType] = 1
        row[.addedDate] = Date(timeIntervalSince1970: 2)
        row[.uniformTypeIdentifier] = "public.jpeg"
        row.set(.isFavorite, ifGiven: Bool?.none)
        row.set(.burstIdentifier, ifGiven: String??.some(nil))
        let insert = AssetColumn.insert(row).rendered(for: .postgres)
        #expect(insert.sql == "INSERT INTO asset (uuid, mediaType, addedDate, uniformTypeIdentifier, burstIdentifier) VALUES ($1, $2, $3, $4, $5)")
        #expect(insert.binds == [.text("U"), .integer(1), .real(2), .text("public.jpeg"), .null])
        let update = AssetColumn.update(row, where: "id = \(Int64(5))").rendered(for: .sqlite)
        #expect(update.sql == "UPDATE asset SET uuid = ?, mediaType = ?, addedDate = ?, uniformTypeIdentifier = ?, burstIdentifier = ? WHERE id = ?")
        #expect(update.binds.count == 6)
    }

    /// A record reads its row by column: what `AssetColumn.selection` selects, in order.
    @Test func recordsReadTheirRowsByColumn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("columns-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LibraryDatabase.open(at: folder)
        var changes = StoreChangeSet(now: Date(timeIntervalSince1970: 1_000))
        var record = AssetRecord(
            uuid: "C0FFEE00-0000-0000-0000-000000000001", mediaType: 1, mediaSubtypes: 4, pixelWidth: 640, pixelHeight: 480,
            creationDate: Date(timeIntervalSince1970: 900), creationTimeZoneOffset: 3600, addedDate: Date(timeIntervalSince1970: 1_000),
            location: LocationRecord(latitude: 38.7, longitude: -9.1, altitude: 20), isFavorite: true, burstIdentifier: "B",
            playbackStyle: 1, uniformTypeIdentifier: "public.jpeg", originalFilename: "IMG_1.JPG", traits: 2)
        changes.newAssets.append(NewAsset(record: record, resources: [], camera: CameraInfo(make: "Canon", model: "EOS", lens: nil)))
        try store.commit(changes)
        let read = try #require(try store.assets(uuids: [record.uuid]).first)
        record.id = read.id
        record.momentID = read.momentID
        #expect(read == record)
        #expect(try store.camera(assetUUID: record.uuid) == CameraInfo(make: "Canon", model: "EOS", lens: nil))
    }
}
