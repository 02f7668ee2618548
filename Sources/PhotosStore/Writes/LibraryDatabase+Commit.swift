import CoreLocation
import Foundation

extension LibraryDatabase {
    /// Applies a change set in one transaction and returns the library's position after it
    /// (the id of its journal entry).
    ///
    /// Staged files are renamed into `originals/` inside the transaction, after their rows are
    /// written; if anything fails (including the `COMMIT` itself) they are renamed back to
    /// their staging paths, so the caller can clean up or restore moved files. The renames are
    /// recorded in a per-process intent file first, so a crash between rename and commit
    /// leaves only files that the next ``open(at:)`` finds and removes.
    ///
    /// `beforeCommit` runs inside the transaction, under the write lock, right before it
    /// commits: where the last commit's snapshot was sent without waiting (PostgreSQL), the
    /// library waits there for it to be taken, so it can't see this commit.
    @discardableResult
    package func commit(_ changes: StoreChangeSet, beforeCommit: () -> Void = {}) throws(StoreError) -> Int64 {
        try refuseIfReadOnly()
        let moves = FileMoves(layout: layout, staging: stagingFolder)
        var expungedFiles: [String] = []
        var expungedAssets: [String] = []
        var changedContent: [String] = []
        let position: Int64
        let opening: ChangeJournal.Opening
        let historyLimit = self.historyLimit
        // Moment naming looks places up inside the transaction: load the gazetteer (~0.2 s, once
        // per process) before taking the write lock.
        if changes.newAssets.contains(where: { $0.record.location != nil })
            || changes.assetEdits.values.contains(where: { $0.location != nil })
        {
            _ = gazetteer.gazetteer
        }
        do {
            try moves.recordIntent(
                changes.newAssets.flatMap(\.resources).filter { $0.stagedFile != nil }.map(\.relativePath)
                    + (changes.contentObjectLocation != nil
                        ? [] : changes.contentEdits.flatMap { uuid, edit in ChangeApplier.contentPaths(uuid: uuid, edit: edit, at: changes.now) }))
            opening = try engine.writeChange { db in
                // On PostgreSQL the opening is answered with the block's first read, if it
                // reads; else with its `COMMIT`, and its id is read after that.
                let opening = try ChangeJournal.open(db, date: changes.now)
                var applier = ChangeApplier(db: db, changes: changes, moves: moves, gazetteer: gazetteer, opening: opening)
                try applier.apply()
                expungedFiles = applier.expungedFiles
                expungedAssets = applier.expungedAssets
                changedContent = applier.changedContent
                try ChangeJournal.close(db, opening: opening, keeping: historyLimit)
                beforeCommit()
                Failpoint.hit(.beforeCommit)
                return opening
            }
        } catch {
            moves.revert()
            moves.clearIntent()
            if let error = error as? StoreError { throw error }
            throw StoreError(.database, "The change could not be saved: \(error)")
        }
        moves.clearIntent()
        // Read after the COMMIT (and outside the catch above: the change is saved, its moves stay).
        do {
            position = try opening.opened().id
        } catch {
            if let error = error as? StoreError { throw error }
            throw StoreError(.database, "The change was saved, but its position could not be read: \(error)")
        }
        engine.postCommit(position: position)
        if position % 64 == 0 { restartLogIfLong() }
        backups.checkAutomaticSnapshot(after: position)
        // Rows are gone for good; now their files may go. A crash here leaves stray files
        // that nothing references, which is harmless (objects in a bucket: `photos check`
        // finds them). Originals referenced in place are the user's files: only their rows go.
        for path in expungedFiles where !LibraryLayout.isReferenced(path: path) && !LibraryLayout.isRemote(path: path) {
            try? FileManager.default.removeItem(at: layout.url(forRelativePath: path))
        }
        // The library's own objects in its bucket go too (referenced ones stay).
        objectOriginals.removeOwned(expungedFiles)
        // Derivatives show the current version: stale after an edit, orphans after an expunge
        // (which also ends the local copies of remote originals).
        for uuid in expungedAssets + changedContent { layout.removeDerivatives(assetUUID: uuid) }
        for uuid in expungedAssets { layout.removeRemoteCopies(assetUUID: uuid) }
        return position
    }
}

/// Applies one ``StoreChangeSet`` inside a write transaction.
struct ChangeApplier {
    let db: any StoreConnection
    let changes: StoreChangeSet
    let moves: FileMoves
    var expungedFiles: [String] = []
    /// UUIDs of the assets expunged, whose derivatives go after the commit.
    var expungedAssets: [String] = []
    /// UUIDs of the assets whose content changed: their derivatives are stale after the commit.
    var changedContent: [String] = []
    /// The capture dates and old moments to regroup, by the owner of their assets (moments
    /// are each person's own).
    var momentDates: [Int64?: [Double]] = [:]
    var oldMoments: [Int64?: Set<Int64>] = [:]
    /// The assets whose search words this change alters (``SearchDocuments``), by row id.
    var searchStale: Set<Int64> = []
    /// Whose what this change creates is: the acting person, else the library's owner (`nil`
    /// in a library without people); read when first needed (``owner()``).
    private var newOwner: Int64??

    /// Where regrouped moments' place names come from.
    let gazetteer: GazetteerChoice
    /// The journal entry this change records into (`nil`: none, as in tests of the applier).
    private let opening: ChangeJournal.Opening?

    init(db: any StoreConnection, changes: StoreChangeSet, moves: FileMoves, gazetteer: GazetteerChoice, opening: ChangeJournal.Opening? = nil) {
        self.db = db
        self.changes = changes
        self.moves = moves
        self.gazetteer = gazetteer
        self.opening = opening
    }

    /// The journal entry's id (0 without one).
    func changeID() throws -> Int64 {
        try opening?.opened().id ?? 0
    }

    /// Whose what this change creates is, read once: asked only by the steps that create, so a
    /// favorite's block doesn't wait for the opening's answer before its first read.
    mutating func owner() throws -> Int64? {
        if let newOwner { return newOwner }
        let owner: Int64?
        if let acting = changes.actingPerson {
            owner = acting
        } else if let opening {
            owner = try opening.opened().libraryOwner
        } else {
            owner = try db.text("SELECT value FROM libraryInfo WHERE key = 'ownerPersonID'").flatMap { Int64($0) }
        }
        newOwner = .some(owner)
        return owner
    }

    mutating func apply() throws {
        try insertCollections()
        try insertAssets()
        try editAssets()
        try applyContentEdits()
        try editCollections()
        for edit in changes.membershipEdits { try applyMembership(edit) }
        for edit in changes.sharingEdits { try applySharing(edit) }
        try trashAssets()
        try recoverAssets()
        try expungeAssets()
        try deleteCollections()
        for owner in Set(momentDates.keys).union(oldMoments.keys).sorted(by: { ($0 ?? -1) < ($1 ?? -1) }) {
            try MomentGrouper(db: db, now: changes.now, gazetteer: gazetteer, owner: owner)
                .regroup(dates: momentDates[owner] ?? [], oldMoments: oldMoments[owner] ?? [])
        }
        try SearchDocuments(db: db, gazetteer: gazetteer).refresh(searchStale)
        try completeImportBatch()
    }

    // MARK: Lookups

    typealias AssetRow = (id: Int64, creationDate: Double?, momentID: Int64?, trashed: Bool, owner: Int64?)
    typealias CollectionRow = (id: Int64, isList: Bool, type: Int, subtype: Int, title: String?, owner: Int64?)

    /// The columns the lookups read: the tables' first ones, through those they need (all of
    /// the asset's, which end with its owner).
    static let assetRowColumns = AssetColumn.selection
    static let collectionRowColumns = CollectionColumn.selection

    /// The one check of whose objects a change may touch: an acting person's lookups see only
    /// their own assets, and their own collections besides those everyone sees alike; anyone
    /// else's answer "No asset (collection) ... exists", as if it did not.
    var assetScope: StoreSQL {
        changes.actingPerson.map { "AND asset.ownerID = \($0)" } ?? ""
    }
    var collectionScope: StoreSQL {
        changes.actingPerson.map { "AND \(CollectionQuery.visible(to: $0))" } ?? ""
    }

    /// An ``AssetRow`` from a row of ``assetRowColumns``.
    static func assetRow(_ row: any ColumnReading) -> AssetRow {
        let trashedDate: Double? = row[AssetColumn.trashedDate]
        return (
            id: row[AssetColumn.id], creationDate: row[AssetColumn.creationDate], momentID: row[AssetColumn.momentID],
            trashed: trashedDate != nil, owner: row[AssetColumn.ownerID])
    }

    func assetRow(_ uuid: String) throws -> AssetRow {
        guard let row = try db.row("SELECT \(Self.assetRowColumns) FROM asset WHERE uuid = \(uuid) \(assetScope)", Self.assetRow) else {
            throw Self.missingAsset(uuid)
        }
        return row
    }

    /// The words both engines use for an asset a change names that isn't there (or isn't the
    /// acting person's): `missingAssetWords.before`, its identifier, `.after`.
    static let missingAssetWords = (before: "No asset with identifier ", after: " exists in the library")

    static func missingAsset(_ uuid: String) -> StoreError {
        StoreError(.missingObject, missingAssetWords.before + uuid + missingAssetWords.after)
    }

    /// ``assetRow(_:)`` for many assets in one statement, by UUID; throws for the first of
    /// `uuids` (in their order) that isn't there.
    func assetRows(_ uuids: [String]) throws -> [String: AssetRow] {
        guard uuids.count > 1 else { return try uuids.first.map { [$0: try assetRow($0)] } ?? [:] }
        let rows = try db.rows("SELECT \(Self.assetRowColumns) FROM asset WHERE uuid IN (\(StoreSQL.elements(uuids))) \(assetScope)") { row in
            (uuid: row[AssetColumn.uuid] as String, row: Self.assetRow(row))
        }
        let found = Dictionary(rows.map { ($0.uuid, $0.row) }, uniquingKeysWith: { first, _ in first })
        if let missing = uuids.first(where: { found[$0] == nil }) {
            throw Self.missingAsset(missing)
        }
        return found
    }

    func collectionRow(_ uuid: String) throws -> CollectionRow {
        guard
            let row = try db.row(
                "SELECT \(Self.collectionRowColumns) FROM collection WHERE uuid = \(uuid) \(collectionScope)", { row -> CollectionRow in
                (id: row[CollectionColumn.id], isList: row[CollectionColumn.isList], type: row[CollectionColumn.type],
                 subtype: row[CollectionColumn.subtype], title: row[CollectionColumn.title], owner: row[CollectionColumn.ownerID])
            })
        else {
            throw StoreError(.missingObject, "No collection with identifier \(uuid) exists in the library")
        }
        return row
    }

    // MARK: Collections

    mutating func insertCollections() throws {
        for collection in changes.newCollections {
            let position = try db.int("SELECT COALESCE(MAX(position) + 1, 0) FROM collection WHERE parentID IS NULL") ?? 0
            var row = TableRow<CollectionColumn>()
            row[.uuid] = collection.uuid
            row[.isList] = collection.isList
            row[.type] = collection.type
            row[.subtype] = collection.subtype
            row[.title] = collection.title
            row[.position] = position
            row[.creationDate] = changes.now
            row[.ownerID] = try owner()
            try db.execute(CollectionColumn.insert(row))
        }
    }

    mutating func editCollections() throws {
        for (uuid, edit) in changes.collectionEdits.sorted(by: { $0.key < $1.key }) {
            let row = try collectionRow(uuid)
            try requireUserCollection(row, uuid: uuid, action: "rename")
            try requireCollectionOwner(row, uuid: uuid, action: "rename")
            if let title = edit.title {
                try db.execute("UPDATE collection SET title = \(title) WHERE id = \(row.id)")
                try searchStale.formUnion(db.int64Column("SELECT assetID FROM albumAsset WHERE albumID = \(row.id)"))
            }
        }
    }

    /// A shared album is renamed, ended or shared by its owner only; its members see it.
    func requireCollectionOwner(_ row: CollectionRow, uuid: String, action: String) throws {
        guard let acting = changes.actingPerson, row.owner != acting else { return }
        throw StoreError(.notAllowed, "Only its owner can \(action) \(row.title.map { "'\($0)'" } ?? uuid), shared with you")
    }

    func requireUserCollection(_ row: CollectionRow, uuid: String, action: String) throws {
        let isAlbum = !row.isList && row.type == CollectionKind.album
        let isFolder = row.isList && row.type == CollectionKind.folder
        guard isAlbum || isFolder else {
            throw StoreError(
                .notAllowed, "Can't \(action) \(row.title.map { "'\($0)'" } ?? uuid): only user albums and folders can be edited")
        }
    }

    mutating func deleteCollections() throws {
        for uuid in changes.deletedCollections {
            guard let row = try? collectionRow(uuid) else { continue }
            try requireUserCollection(row, uuid: uuid, action: "delete")
            try requireCollectionOwner(row, uuid: uuid, action: "delete")
            // Children of a deleted folder go with it (ON DELETE CASCADE), as in Photos: the
            // assets of every album in it lose its title from their search words.
            try searchStale.formUnion(
                db.int64Column(
                    """
                    WITH RECURSIVE tree(id) AS (SELECT \(row.id) UNION SELECT collection.id FROM collection JOIN tree ON collection.parentID = tree.id) \
                    SELECT DISTINCT assetID FROM albumAsset WHERE albumID IN (SELECT id FROM tree)
                    """))
            try db.execute("DELETE FROM collection WHERE id = \(row.id)")
        }
    }

    // MARK: Assets

    mutating func insertAssets() throws {
        for asset in changes.newAssets {
            var row = asset.record.insertRow(camera: asset.camera, description: asset.description)
            let newOwner = try owner()
            row[.ownerID] = newOwner
            let assetID = try db.insert(AssetColumn.insert(row))
            searchStale.insert(assetID)
            for resource in asset.resources {
                try db.execute(ResourceColumn.insert(resource.insertRow(assetID: assetID)))
                if let staged = resource.stagedFile { try moves.move(staged, to: resource.relativePath) }
            }
            if let date = asset.record.creationDate { momentDates[newOwner, default: []].append(date.timeIntervalSince1970) }
        }
    }

    /// The edited assets' rows are read in one statement, and assets given the same values
    /// (a batch of favorites) are updated by one: a round trip each on PostgreSQL, where a
    /// statement per asset made a batch of toggles cost two round trips an asset inside the
    /// write lock.
    mutating func editAssets() throws {
        let now = changes.now.timeIntervalSince1970
        let edits = changes.assetEdits.sorted(by: { $0.key < $1.key })
        guard !edits.isEmpty else { return }
        if db.dialect == .postgres, edits.allSatisfy({ $0.value.creationDate == nil && $0.value.location == nil }) {
            try updateWithoutReading(edits, now: now)
            return
        }
        let rows = try assetRows(edits.map(\.key))
        var updates: [TableRow<AssetColumn>: [Int64]] = [:]
        var order: [TableRow<AssetColumn>] = []
        for (uuid, edit) in edits {
            guard let row = rows[uuid] else { continue }
            var update = TableRow<AssetColumn>()
            if let creationDate = edit.creationDate {
                update[.creationDate] = creationDate
                if let old = row.creationDate { momentDates[row.owner, default: []].append(old) }
                if let new = creationDate { momentDates[row.owner, default: []].append(new.timeIntervalSince1970) }
                if let moment = row.momentID { oldMoments[row.owner, default: []].insert(moment) }
            }
            if let location = edit.location {
                update[.latitude] = location?.latitude
                update[.longitude] = location?.longitude
                update[.altitude] = location?.altitude
                update[.horizontalAccuracy] = location?.horizontalAccuracy
                update[.verticalAccuracy] = location?.verticalAccuracy
                update[.locationTimestamp] = location?.timestamp
                searchStale.insert(row.id)
                if let old = row.creationDate { momentDates[row.owner, default: []].append(old) }
            }
            Self.setProperties(of: edit, in: &update)
            guard !update.isEmpty else { continue }
            update[.modificationDate] = now
            if updates[update] == nil { order.append(update) }
            updates[update, default: []].append(row.id)
        }
        for update in order {
            let ids = updates[update] ?? []
            // Nothing reads its answer: on PostgreSQL the journal's close waits for both.
            try db.executeAhead(AssetColumn.update(update, where: ids.count == 1 ? "id = \(ids[0])" : "id IN (\(StoreSQL.elements(ids)))"))
        }
    }

    /// The properties an edit sets that don't depend on the asset's row as it was.
    private static func setProperties(of edit: AssetEdit, in update: inout TableRow<AssetColumn>) {
        update.set(.isFavorite, ifGiven: edit.isFavorite)
        update.set(.isHidden, ifGiven: edit.isHidden)
        update.set(.burstIdentifier, ifGiven: edit.burstIdentifier)
        update.set(.representsBurst, ifGiven: edit.representsBurst)
        update.set(.burstSelectionTypes, ifGiven: edit.burstSelectionTypes)
    }

    /// PostgreSQL, edits that need nothing of the rows as they were (favorites, hiding,
    /// bursts): assets given the same values are updated by identifier in one statement sent
    /// ahead, which also fails the transaction, naming the first asset (in `edits`' order) that
    /// isn't there or isn't the acting person's, as ``assetRows(_:)`` would have thrown
    /// (`photokit_missing`, SQLSTATE PH404: a ``StoreError/Code/missingObject`` from the
    /// session). With the journal's close on the server too, a batch of favorites waits for no
    /// answer before its `COMMIT`: one wait a change block instead of two.
    /// An edit that sets nothing (a change request made for an asset and left as it was)
    /// changes nothing, not even the modification date, but its asset must be there, as with
    /// a read: those are checked by one statement of their own.
    private func updateWithoutReading(_ edits: [(key: String, value: AssetEdit)], now: Double) throws {
        var groups: [TableRow<AssetColumn>: [String]] = [:]
        var order: [TableRow<AssetColumn>] = []
        var unchanged: [String] = []
        for (uuid, edit) in edits {
            var update = TableRow<AssetColumn>()
            Self.setProperties(of: edit, in: &update)
            guard !update.isEmpty else {
                unchanged.append(uuid)
                continue
            }
            update[.modificationDate] = now
            if groups[update] == nil { order.append(update) }
            groups[update, default: []].append(uuid)
        }
        func wanted(_ uuids: [String]) -> StoreSQL {
            let json = StoreValue.jsonArray(uuids.map(StoreValue.text))
            return "wanted AS (SELECT e.uuid, e.place FROM json_array_elements_text(\(json)::json) WITH ORDINALITY AS e(uuid, place))"
        }
        let words = Self.missingAssetWords
        let missing: StoreSQL = "photokit_missing(\(words.before) || w.uuid || \(words.after))"
        for update in order {
            let found: StoreSQL = "asset.uuid IN (SELECT uuid FROM wanted) \(assetScope)"
            try db.executeAhead(
                """
                WITH \(wanted(groups[update] ?? [])), updated AS (\(AssetColumn.update(update, where: found)) RETURNING asset.uuid)
                SELECT \(missing) FROM wanted AS w WHERE w.uuid NOT IN (SELECT uuid FROM updated) ORDER BY w.place LIMIT 1
                """)
        }
        guard !unchanged.isEmpty else { return }
        try db.executeAhead(
            """
            WITH \(wanted(unchanged)) SELECT \(missing) FROM wanted AS w
            WHERE NOT EXISTS (SELECT 1 FROM asset WHERE asset.uuid = w.uuid \(assetScope)) ORDER BY w.place LIMIT 1
            """)
    }

    mutating func trashAssets() throws {
        for uuid in changes.trashedAssets {
            let row = try assetRow(uuid)
            guard !row.trashed else { continue }
            try db.execute("UPDATE asset SET trashedDate = \(changes.now), momentID = NULL WHERE id = \(row.id)")
            if let date = row.creationDate { momentDates[row.owner, default: []].append(date) }
            if let moment = row.momentID { oldMoments[row.owner, default: []].insert(moment) }
        }
    }

    mutating func recoverAssets() throws {
        for uuid in changes.recoveredAssets {
            let row = try assetRow(uuid)
            guard row.trashed else { continue }
            try db.execute("UPDATE asset SET trashedDate = NULL WHERE id = \(row.id)")
            if let date = row.creationDate { momentDates[row.owner, default: []].append(date) }
        }
    }

    mutating func expungeAssets() throws {
        for uuid in changes.expungedAssets {
            guard let row = try? assetRow(uuid) else { continue }
            expungedFiles += try db.texts("SELECT path FROM resource WHERE assetID = \(row.id)")
            expungedAssets.append(uuid)
            try db.execute("DELETE FROM asset WHERE id = \(row.id)")
            if let date = row.creationDate { momentDates[row.owner, default: []].append(date) }
            if let moment = row.momentID { oldMoments[row.owner, default: []].insert(moment) }
        }
    }
}
