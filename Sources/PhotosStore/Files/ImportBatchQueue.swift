package import Foundation

/// Where an import batch stands.
package enum ImportBatchState: Int, Sendable, Codable {
    /// Waiting, or being imported by whoever holds its claim (``JobKey/importBatch(uuid:)``).
    case pending = 0
    /// Imported: its assets committed in the same transaction that set this state.
    case done = 1
    /// Given up: a file that is not a photo or video, or too many failed attempts
    /// (`lastError` says why). Nothing of it was added.
    case failed = 2
}

/// One file of an import batch: the name the client gave it and where it waits, in the
/// batch's folder (``LibraryLayout/importBatchFolder(uuid:)``).
package struct ImportBatchFile: Sendable, Codable, Equatable {
    /// The client's file name (the asset's original filename).
    package var name: String
    /// The file's name in the batch's folder.
    package var file: String
    package var isVideo: Bool

    package init(name: String, file: String, isVideo: Bool) {
        self.name = name
        self.file = file
        self.isVideo = isVideo
    }
}

/// Files received by one instance and imported by whichever claims them: a row of
/// `importBatch`, with the files in the library's shared `imports/<uuid>/` folder.
package struct ImportBatchRecord: Sendable, Equatable {
    package var id: Int64
    package var uuid: String
    /// Whose batch it is (an access token's identifier, or empty for the owner): only they
    /// can look it up, and their ``clientKey``s are their own.
    package var owner: String
    /// The client's `Idempotency-Key`: a retried upload with the same key gets this batch.
    package var clientKey: String?
    /// A limited token whose allow-list gets the new assets, in the import's transaction.
    package var tokenIdentifier: String?
    package var files: [ImportBatchFile]
    package var state: ImportBatchState
    /// Attempts started; one that never finished (its instance died) counts too.
    package var attempts: Int
    /// The `PHPhotosError` code of the last failure, with its message.
    package var errorCode: Int?
    package var lastError: String?
    /// Not taken by background workers before this (the retry's backoff).
    package var notBefore: Date
    /// The assets made, in the files' order, once ``state`` is `.done`.
    package var assetUUIDs: [String]
    package var createdDate: Date
    package var updatedDate: Date
}

/// What a change set does to its import batch: marks it done, with its assets, in the
/// commit's transaction (so the assets and the mark are saved together or not at all).
package struct ImportBatchCompletion: Sendable {
    package var batchID: Int64
    package var tokenIdentifier: String?

    package init(batchID: Int64, tokenIdentifier: String?) {
        self.batchID = batchID
        self.tokenIdentifier = tokenIdentifier
    }
}

/// Files received by one instance and imported by whichever claims them: the `importBatch`
/// table, with the files in the library's shared `imports/<uuid>/` folder. Reached as
/// ``LibraryDatabase/importBatches``.
package struct ImportBatchQueue: Sendable {
    let database: LibraryDatabase

    private static let batchColumns = ImportBatchColumn.selection

    /// A batch selected with `ImportBatchColumn.selection`.
    private static func batch(_ row: any ColumnReading) -> ImportBatchRecord {
        typealias Column = ImportBatchColumn
        let filesJSON: String = row[Column.files]
        let assetsJSON: String? = row[Column.assetUUIDs]
        let files = (try? JSONDecoder().decode([ImportBatchFile].self, from: Data(filesJSON.utf8))) ?? []
        let assets = assetsJSON.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        return ImportBatchRecord(
            id: row[Column.id], uuid: row[Column.uuid], owner: row[Column.owner], clientKey: row[Column.clientKey],
            tokenIdentifier: row[Column.tokenIdentifier], files: files,
            state: ImportBatchState(rawValue: row[Column.state]) ?? .pending, attempts: row[Column.attempts],
            errorCode: row[Column.errorCode], lastError: row[Column.lastError], notBefore: row[Column.notBefore],
            assetUUIDs: assets, createdDate: row[Column.createdDate], updatedDate: row[Column.updatedDate])
    }

    /// How long finished batches are kept (for `GET /api/uploads/<uuid>` and retried
    /// uploads' keys) before a new batch removes them.
    package static let finishedLifetime: TimeInterval = 7 * 86_400

    /// Records a batch whose files are in its folder; with `startingUntil`, its first attempt
    /// is counted as started (``startImportBatch(id:retryAt:now:)``) in the same transaction.
    /// With a `clientKey` the owner already used, nothing is added and that batch is returned
    /// (`isNew` false).
    package func enqueue(
        uuid: String, owner: String, clientKey: String?, tokenIdentifier: String?, files: [ImportBatchFile], now: Date,
        startingUntil retryAt: Date? = nil
    ) throws(StoreError) -> (batch: ImportBatchRecord, isNew: Bool) {
        let encoded = String(decoding: (try? JSONEncoder().encode(files)) ?? Data("[]".utf8), as: UTF8.self)
        let time = now.timeIntervalSince1970
        return try database.write { db in
            try db.execute(
                "DELETE FROM importBatch WHERE state != 0 AND updatedDate < \(time - Self.finishedLifetime)")
            if let clientKey, let existing = try db.row(
                "SELECT \(Self.batchColumns) FROM importBatch WHERE owner = \(owner) AND clientKey = \(clientKey)", Self.batch)
            {
                return (existing, false)
            }
            var row = TableRow<ImportBatchColumn>()
            row[.uuid] = uuid
            row[.owner] = owner
            row[.clientKey] = clientKey
            row[.tokenIdentifier] = tokenIdentifier
            row[.files] = encoded
            row[.attempts] = retryAt == nil ? 0 : 1
            row[.notBefore] = retryAt?.timeIntervalSince1970 ?? 0
            row[.createdDate] = time
            row[.updatedDate] = time
            _ = try db.insert(ImportBatchColumn.insert(row))
            guard let batch = try db.row("SELECT \(Self.batchColumns) FROM importBatch WHERE uuid = \(uuid)", Self.batch) else {
                throw StoreError(.database, "The import batch \(uuid) was not saved")
            }
            return (batch, true)
        }
    }

    /// One batch, by its UUID.
    package func batch(uuid: String) throws(StoreError) -> ImportBatchRecord? {
        try database.read { db in try db.row("SELECT \(Self.batchColumns) FROM importBatch WHERE uuid = \(uuid)", Self.batch) }
    }

    /// One owner's batch, by the client's `Idempotency-Key`.
    package func batch(owner: String, clientKey: String) throws(StoreError) -> ImportBatchRecord? {
        try database.read { db in
            try db.row("SELECT \(Self.batchColumns) FROM importBatch WHERE owner = \(owner) AND clientKey = \(clientKey)", Self.batch)
        }
    }

    /// The next pending batch due at `now`, oldest first, leaving out `busy` ones.
    package func nextDue(now: Date, excluding busy: Set<Int64>) throws(StoreError) -> ImportBatchRecord? {
        try database.read { db in
            let excluded: StoreSQL = busy.isEmpty ? "" : "AND id NOT IN (\(StoreSQL.elements(busy)))"
            return try db.row(
                """
                SELECT \(Self.batchColumns) FROM importBatch WHERE state = 0 AND notBefore <= \(now) \(excluded)
                ORDER BY notBefore, id LIMIT 1
                """, Self.batch)
        }
    }

    /// When the next pending batch is due, if any is waiting.
    package func nextDueDate() throws(StoreError) -> Date? {
        try database.read { db in
            try db.double("SELECT MIN(notBefore) FROM importBatch WHERE state = 0").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Counts an attempt starting (before any work, so an attempt whose instance dies counts
    /// too) and sets when the batch is due again should this attempt not finish it.
    package func start(id: Int64, retryAt: Date, now: Date) throws(StoreError) {
        try database.write { db in
            try db.execute(
                "UPDATE importBatch SET attempts = attempts + 1, notBefore = \(retryAt), updatedDate = \(now) WHERE id = \(id) AND state = 0")
        }
    }

    /// Records a failed attempt: with `permanently` the batch is given up (`.failed`), else it
    /// stays pending until its `notBefore`.
    package func fail(id: Int64, code: Int, reason: String, permanently: Bool, now: Date) throws(StoreError) {
        try database.write { db in
            let state = permanently ? ImportBatchState.failed : .pending
            try db.execute(
                """
                UPDATE importBatch SET state = \(state.rawValue), errorCode = \(code), lastError = \(reason), updatedDate = \(now)
                WHERE id = \(id) AND state = 0
                """)
        }
    }

    /// The UUIDs of the batches not finished yet (their folders are not orphans).
    static func pendingUUIDs(_ db: any StoreConnection) throws -> Set<String> {
        Set(try db.texts("SELECT uuid FROM importBatch WHERE state = 0"))
    }
}

extension LibraryDatabase {
    /// The import batches (``ImportBatchQueue``).
    package var importBatches: ImportBatchQueue { ImportBatchQueue(database: self) }
}

extension ChangeApplier {
    /// Marks the change's import batch done with its new assets (and adds them to its
    /// token's allow-list), refusing a batch that is not pending: a batch is imported once,
    /// whoever else tried it.
    mutating func completeImportBatch() throws {
        guard let completion = changes.importBatch else { return }
        let state = try db.int("SELECT state FROM importBatch WHERE id = \(completion.batchID)")
        guard state == ImportBatchState.pending.rawValue else {
            throw StoreError(
                .notAllowed,
                state == nil ? "The import batch \(completion.batchID) does not exist" : "The import batch \(completion.batchID) is already finished")
        }
        let uuids = changes.newAssets.map(\.record.uuid)
        let encoded = StoreValue.jsonArray(uuids.map(StoreValue.text))
        _ = try db.execute(
            """
            UPDATE importBatch SET state = 1, assetUUIDs = \(encoded), errorCode = NULL, lastError = NULL, updatedDate = \(changes.now)
            WHERE id = \(completion.batchID)
            """)
        if let identifier = completion.tokenIdentifier,
            let tokenID = try db.int64("SELECT id FROM accessToken WHERE identifier = \(identifier)")
        {
            for uuid in uuids {
                _ = try db.execute(
                    "INSERT INTO accessTokenAsset (tokenID, assetID) SELECT \(tokenID), id FROM asset WHERE uuid = \(uuid) ON CONFLICT DO NOTHING")
            }
            try AccessTokenStore.bumpAccessVersion(db)
        }
        Failpoint.hit(.importBatchBeforeCommit)
    }
}
