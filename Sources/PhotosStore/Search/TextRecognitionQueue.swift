import CoreLocation
package import Foundation

/// Where a photo's text recognition stands.
package enum TextRecognitionState: Int, Sendable, CaseIterable {
    /// Not read yet (new, edited, or not tried).
    case pending = 0
    /// Read: its words (none, for most photos) are in the search index.
    case done = 1
    /// The last attempt failed (`lastError`); tried again after `notBefore`.
    case failed = 3
    /// Tesseract choked on it (ran past its time) or it failed too often: not tried again
    /// until the photo is edited (or `photos cache warm --text --retry-skipped`).
    case skipped = 4
}

/// A photo's text recognition work.
package struct TextRecognitionJob: Sendable, Equatable {
    package var assetID: Int64
    package var assetUUID: String
    package var state: TextRecognitionState
    package var attempts: Int
    package var lastError: String?
    package var notBefore: Date
}

/// One word Tesseract read, where it is in the image as shown (fractions of its width and
/// height, orientation applied), for a gallery to mark.
package struct RecognizedTextBox: Sendable, Hashable, Codable {
    package var text: String
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(text: String, x: Double, y: Double, width: Double, height: Double) {
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// How many photos are in each state.
package struct TextRecognitionCounts: Sendable, Equatable {
    package var pending = 0
    package var done = 0
    package var failed = 0
    package var skipped = 0
    package var total: Int { pending + done + failed + skipped }

    package init() {}
}

/// Text recognition as work to do: the `textRecognition` table (``TextRecognitionColumn``),
/// one row per photo, which triggers keep whole. Reached as ``LibraryDatabase/textRecognition``.
package struct TextRecognitionQueue: Sendable {
    let database: LibraryDatabase

    private static let jobColumns: StoreSQL = "\(TextRecognitionColumn.selection), asset.uuid"

    private static func job(_ row: any ColumnReading) -> TextRecognitionJob {
        typealias Column = TextRecognitionColumn
        return TextRecognitionJob(
            assetID: row[Column.assetID], assetUUID: row[after: Column.self, 0],
            state: TextRecognitionState(rawValue: row[Column.state]) ?? .pending, attempts: row[Column.attempts],
            lastError: row[Column.lastError], notBefore: row[Column.notBefore])
    }

    /// The next photo due at `now`, leaving out `busy` ones: pending before failed,
    /// screenshots (where text is most likely) before other photos, then oldest first.
    package func nextDue(now: Date, excluding busy: Set<Int64>) throws(StoreError) -> TextRecognitionJob? {
        try database.read { db in
            let excluded: StoreSQL = busy.isEmpty ? "" : "AND textRecognition.assetID NOT IN (\(StoreSQL.elements(busy)))"
            return try db.row(
                """
                SELECT \(Self.jobColumns) FROM textRecognition JOIN asset ON asset.id = textRecognition.assetID
                WHERE textRecognition.state IN (0, 3) AND textRecognition.notBefore <= \(now) \(excluded)
                ORDER BY textRecognition.state, CASE WHEN (asset.mediaSubtypes & 4) != 0 THEN 0 ELSE 1 END,
                textRecognition.notBefore, textRecognition.assetID LIMIT 1
                """, Self.job)
        }
    }

    /// When the next failed photo is due again, if any.
    package func nextRetry() throws(StoreError) -> Date? {
        try database.read { db in
            try db.double("SELECT MIN(notBefore) FROM textRecognition WHERE state = 3").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// The work of one photo.
    package func job(assetID: Int64) throws(StoreError) -> TextRecognitionJob? {
        try database.read { db in
            try db.row(
                """
                SELECT \(Self.jobColumns) FROM textRecognition JOIN asset ON asset.id = textRecognition.assetID \
                WHERE textRecognition.assetID = \(assetID)
                """, Self.job)
        }
    }

    /// Records the words read in `sourcePath` and puts them in the photo's search words, in
    /// one journaled change (the photo counts as updated, so a search fetch observed, a live
    /// subscription or a server's kept result, finds it by them); nothing when the photo was
    /// edited meanwhile (another file is its current version now) or is gone.
    package func finish(assetID: Int64, sourcePath: String, boxes: [RecognizedTextBox], now: Date) throws(StoreError) {
        let words = SearchText.document(boxes.map(\.text))
        let json = String(decoding: (try? JSONEncoder().encode(boxes)) ?? Data("[]".utf8), as: UTF8.self)
        let places = GazetteerChoice.custom(database.gazetteer.gazetteer)
        let position = try database.write { db -> Int64? in
            let changeID = try ChangeJournal.open(db, date: now).opened().id
            // The current version: the edit's render (type 5), else the original (1).
            let changed = try db.execute(
                """
                UPDATE textRecognition SET state = 1, sourcePath = \(sourcePath), lastError = NULL, notBefore = 0, updatedDate = \(now), \
                words = \(words), boxes = \(json) WHERE assetID = \(assetID) AND \(sourcePath) = COALESCE(
                    (SELECT path FROM resource WHERE resource.assetID = \(assetID) AND type = 5),
                    (SELECT path FROM resource WHERE resource.assetID = \(assetID) AND type = 1))
                """)
            if changed > 0 {
                try SearchDocuments(db: db, gazetteer: places).refresh([assetID])
                try ChangeJournal.recordUpdate(db, change: changeID, of: .asset(assetID), flags: JournalFlags.updated)
            }
            try ChangeJournal.close(db, id: changeID)
            return changed > 0 ? changeID : nil
        }
        if let position { database.engine.postCommit(position: position) }
    }

    /// Records a failed attempt: due again at `retryAt`, or skipped for good when `skip`.
    package func fail(assetID: Int64, reason: String, skip: Bool, retryAt: Date, now: Date) throws(StoreError) {
        try database.write { db in
            try db.execute(
                """
                UPDATE textRecognition SET state = \(skip ? TextRecognitionState.skipped.rawValue : TextRecognitionState.failed.rawValue), \
                attempts = attempts + 1, lastError = \(reason), notBefore = \(retryAt), updatedDate = \(now) WHERE assetID = \(assetID)
                """)
        }
    }

    /// Makes failed photos due now, and skipped ones too when `skipped`.
    package func retry(skipped: Bool) throws(StoreError) {
        try database.write { db in
            try db.execute("UPDATE textRecognition SET notBefore = 0 WHERE state = 3")
            if skipped { try db.execute("UPDATE textRecognition SET state = 0, attempts = 0, notBefore = 0 WHERE state = 4") }
        }
    }

    /// How many photos are in each state (Recently Deleted included).
    package func counts() throws(StoreError) -> TextRecognitionCounts {
        try database.read { db in
            var counts = TextRecognitionCounts()
            for (state, count) in try db.rows("SELECT state, COUNT(*) FROM textRecognition GROUP BY state", { ($0.int(0), $0.int(1)) }) {
                switch TextRecognitionState(rawValue: state) ?? .pending {
                case .pending: counts.pending = count
                case .done: counts.done = count
                case .failed: counts.failed = count
                case .skipped: counts.skipped = count
                }
            }
            return counts
        }
    }

    /// The words read in a photo, where they are; nil when it wasn't read (yet).
    package func boxes(assetUUID: String) throws(StoreError) -> [RecognizedTextBox]? {
        let json = try database.read { db in
            try db.text(
                """
                SELECT textRecognition.boxes FROM textRecognition JOIN asset ON asset.id = textRecognition.assetID \
                WHERE asset.uuid = \(assetUUID) AND textRecognition.state = 1
                """)
        }
        return json.flatMap { try? JSONDecoder().decode([RecognizedTextBox].self, from: Data($0.utf8)) }
    }

    /// Skipped and failed photos with their reasons, most attempted first.
    package func failures(limit: Int = 20) throws(StoreError) -> [TextRecognitionJob] {
        try database.read { db in
            try db.rows(
                """
                SELECT \(Self.jobColumns) FROM textRecognition JOIN asset ON asset.id = textRecognition.assetID
                WHERE textRecognition.state IN (3, 4) ORDER BY textRecognition.attempts DESC, textRecognition.assetID LIMIT \(limit)
                """, Self.job)
        }
    }
}

extension LibraryDatabase {
    /// The text recognition work (``TextRecognitionQueue``).
    package var textRecognition: TextRecognitionQueue { TextRecognitionQueue(database: self) }
}
