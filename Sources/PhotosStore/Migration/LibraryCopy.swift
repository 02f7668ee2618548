import Foundation

/// What ``LibraryDatabase/copyLibrary(to:)`` copied and checked.
package struct LibraryCopyReport: Sendable {
    /// Rows per table, in copy order, each checked by a SHA-256 of every value read back.
    package var rows: [(table: String, count: Int)] = []
    /// Files linked (same file system) or copied into the destination's folder.
    package var linkedFiles = 0
    package var copiedFiles = 0
    package var bytes: Int64 = 0
    /// Originals whose SHA-256 was checked against the row's content hash.
    package var hashedFiles = 0
    /// The history position both libraries are at: change tokens of one work on the other.
    package var position: Int64 = 0
}

/// A table ``LibraryDatabase/copyLibrary(to:)`` copies: its columns (the same on both
/// engines, `PostgresSchema` mirrors `LibraryMigrations`), read as their declared kind, and
/// its primary key, which orders the rows and pages through them.
struct CopiedTable {
    enum Kind { case integer, real, text }

    let name: String
    let columns: [(name: String, kind: Kind)]
    let key: [String]
    /// The identity column whose high-water mark is carried over (ids are never reused).
    var identity: Bool { key == ["id"] }

    init(_ name: String, key: [String], _ columns: String) {
        self.name = name
        self.key = key
        self.columns = columns.split(separator: ",").map { column in
            let parts = column.split(separator: ":")
            let kind: Kind = parts[1] == "INTEGER" ? .integer : parts[1] == "REAL" ? .real : .text
            return (String(parts[0]), kind)
        }
    }

    /// Parents before children, as the foreign keys need.
    static let all: [CopiedTable] = [
        CopiedTable("libraryInfo", key: ["key"], "key:TEXT,value:TEXT"),
        CopiedTable(
            "collection", key: ["id"],
            "id:INTEGER,uuid:TEXT,isList:INTEGER,type:INTEGER,subtype:INTEGER,title:TEXT,startDate:REAL,endDate:REAL,latitude:REAL,"
                + "longitude:REAL,locationNames:TEXT,parentID:INTEGER,position:INTEGER,creationDate:REAL"),
        CopiedTable(
            "asset", key: ["id"],
            "id:INTEGER,uuid:TEXT,mediaType:INTEGER,mediaSubtypes:INTEGER,sourceType:INTEGER,pixelWidth:INTEGER,pixelHeight:INTEGER,"
                + "creationDate:REAL,creationTimeZoneOffset:INTEGER,modificationDate:REAL,addedDate:REAL,latitude:REAL,longitude:REAL,"
                + "altitude:REAL,horizontalAccuracy:REAL,verticalAccuracy:REAL,locationTimestamp:REAL,duration:REAL,isFavorite:INTEGER,"
                + "isHidden:INTEGER,burstIdentifier:TEXT,burstSelectionTypes:INTEGER,representsBurst:INTEGER,playbackStyle:INTEGER,"
                + "hasAdjustments:INTEGER,adjustmentFormatIdentifier:TEXT,uniformTypeIdentifier:TEXT,originalFilename:TEXT,traits:INTEGER,"
                + "momentID:INTEGER,trashedDate:REAL,cameraMake:TEXT,cameraModel:TEXT,lensModel:TEXT,contentVersion:INTEGER"),
        CopiedTable(
            "resource", key: ["id"],
            "id:INTEGER,assetID:INTEGER,type:INTEGER,uniformTypeIdentifier:TEXT,originalFilename:TEXT,path:TEXT,fileSize:INTEGER,"
                + "pixelWidth:INTEGER,pixelHeight:INTEGER,contentHash:TEXT,contentSignature:TEXT,fileModificationDate:REAL"),
        CopiedTable("albumAsset", key: ["albumID", "assetID"], "albumID:INTEGER,assetID:INTEGER,position:INTEGER"),
        CopiedTable("change", key: ["id"], "id:INTEGER,date:REAL,processID:INTEGER"),
        CopiedTable(
            "changedObject", key: ["changeID", "entity", "objectID"],
            "changeID:INTEGER,entity:INTEGER,objectID:INTEGER,uuid:TEXT,wasVisible:INTEGER,isVisible:INTEGER,flags:INTEGER"),
        CopiedTable(
            "accessToken", key: ["id"],
            "id:INTEGER,identifier:TEXT,name:TEXT,level:INTEGER,secretHash:TEXT,createdDate:REAL,lastUsedDate:REAL"),
        CopiedTable("accessTokenAsset", key: ["tokenID", "assetID"], "tokenID:INTEGER,assetID:INTEGER"),
        CopiedTable("accessSession", key: ["secretHash"], "secretHash:TEXT,tokenID:INTEGER,createdDate:REAL"),
        CopiedTable(
            "videoRendition", key: ["assetID"],
            "assetID:INTEGER,state:INTEGER,sourcePath:TEXT,attempts:INTEGER,lastError:TEXT,notBefore:REAL,updatedDate:REAL"),
        CopiedTable("renderFailure", key: ["assetID"], "assetID:INTEGER,sourcePath:TEXT,reason:TEXT,failedDate:REAL"),
        CopiedTable(
            "importBatch", key: ["id"],
            "id:INTEGER,uuid:TEXT,owner:TEXT,clientKey:TEXT,tokenIdentifier:TEXT,files:TEXT,state:INTEGER,attempts:INTEGER,"
                + "errorCode:INTEGER,lastError:TEXT,notBefore:REAL,assetUUIDs:TEXT,createdDate:REAL,updatedDate:REAL"),
    ]

    /// Rows read per statement.
    static let page = 500

    /// One row's values, read as the columns' kinds (an integer SQLite kept in a `REAL`
    /// column reads as a double on both sides).
    func values(_ row: any ColumnReading) -> [StoreValue] {
        columns.indices.map { index in
            let column = Int32(index)
            if row.isNull(column) { return .null }
            switch columns[index].kind {
            case .integer: return .integer(row.int64(column))
            case .real: return .real(row.double(column))
            case .text: return .text(row.text(column))
            }
        }
    }

    /// Reads every row in key order, a page at a time, calling `body` with each page.
    func forEachPage(_ db: any StoreConnection, _ body: ([[StoreValue]]) throws -> Void) throws {
        let list = columns.map(\.name).joined(separator: ", ")
        let order = key.joined(separator: ", ")
        let keyIndexes = key.map { name in columns.firstIndex { $0.name == name }! }
        var after: [StoreValue]?
        while true {
            let condition = after == nil ? "" : "WHERE (\(order)) > (\(key.map { _ in "?" }.joined(separator: ", ")))"
            let page = try db.rows(
                "SELECT \(list) FROM \(name) \(condition) ORDER BY \(order) LIMIT \(Self.page)",
                SQLArguments(after ?? []), values)
            if page.isEmpty { return }
            try body(page)
            after = keyIndexes.map { page[page.count - 1][$0] }
            if page.count < Self.page { return }
        }
    }

    /// Inserts `rows` with one statement.
    func insert(_ rows: [[StoreValue]], into db: any StoreConnection) throws {
        let placeholders = "(" + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        try db.execute(
            "INSERT INTO \(name) (\(columns.map(\.name).joined(separator: ", "))) VALUES "
                + Array(repeating: placeholders, count: rows.count).joined(separator: ", "),
            SQLArguments(rows.flatMap { $0 }))
    }
}

/// A running SHA-256 over rows' values, the same for the same values on either engine.
struct RowDigest {
    private let digest = ContentHash.Digest()

    func add(_ rows: [[StoreValue]]) {
        var bytes: [UInt8] = []
        for row in rows {
            for value in row {
                switch value {
                case .null: bytes.append(0)
                case .integer(let number):
                    bytes.append(1)
                    withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
                case .real(let number):
                    bytes.append(2)
                    withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                case .text(let text):
                    bytes.append(3)
                    withUnsafeBytes(of: Int64(text.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
                    bytes.append(contentsOf: text.utf8)
                }
            }
        }
        bytes.withUnsafeBytes { digest.update($0) }
    }

    func finish() -> String { digest.finish() }
}
