import GRDB

/// The triggers that write the change journal.
///
/// Every committed change is one row of `change` (its id is the library's *position*, the
/// value change tokens and fetch results carry) and one `changedObject` row per asset or
/// collection it touched. Triggers write those rows, so every path that changes a row is
/// journaled, including the cascades and the moment regrouping no Swift code lists.
///
/// The triggers are `TEMP`: they exist only on the connection that commits changes, and fire
/// only while `temp.journalCursor` names the change being written. A tool editing the file
/// with `sqlite3` bypasses them; such edits are invisible to observers until the next fetch.
///
/// `changedObject.flags` bits: see ``JournalFlags``. `wasVisible` is kept from the first
/// event of a change, `isVisible` from the last one, so an object created and trashed in one
/// change reads as neither inserted nor deleted.
enum JournalTriggers {
    /// Creates the cursor table and the triggers on the writer connection, once.
    static func install(_ db: Database) throws {
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS journalCursor (changeID INTEGER NOT NULL)")
        for trigger in triggers {
            try db.execute(sql: trigger)
        }
    }

    /// The `INSERT ... ON CONFLICT` every trigger uses: first event keeps `wasVisible`, last
    /// sets `isVisible` (unless it only reports membership), flags accumulate.
    private static func record(_ select: String) -> String {
        """
        INSERT INTO changedObject (changeID, entity, objectID, uuid, wasVisible, isVisible, flags, ownerID)
        \(select)
        ON CONFLICT (changeID, entity, objectID) DO UPDATE SET
            isVisible = CASE WHEN excluded.flags & \(JournalFlags.keepsVisibility) THEN isVisible ELSE excluded.isVisible END,
            flags = flags | (excluded.flags & ~\(JournalFlags.keepsVisibility));
        """
    }

    private static let cursor = "FROM temp.journalCursor AS cursor"
    private static let membership = JournalFlags.updated | JournalFlags.membership | JournalFlags.keepsVisibility
    private static let assetMembership = JournalFlags.membership | JournalFlags.keepsVisibility

    private static let assetProperties = JournalColumns.assetProperties
    private static let assetContent = JournalColumns.assetContent
    private static let collectionProperties = JournalColumns.collectionProperties

    private static func differs(_ columns: [String]) -> String {
        columns.map { "NEW.\($0) IS NOT OLD.\($0)" }.joined(separator: " OR ")
    }

    /// Records the collection `idExpression` names as having a member added, removed or moved.
    private static func containerChanged(_ idExpression: String, when condition: String = "1") -> String {
        record(
            """
            SELECT cursor.changeID, CASE WHEN c.isList THEN 3 ELSE 2 END, c.id, c.uuid, 1, 1, \(membership), c.ownerID
            \(cursor) JOIN main.collection AS c ON c.id = \(idExpression) WHERE \(condition)
            """)
    }

    private static var triggers: [String] {
        [
            // Assets
            """
            CREATE TEMP TRIGGER IF NOT EXISTS journal_asset_insert AFTER INSERT ON main.asset BEGIN
            \(record("SELECT cursor.changeID, 1, NEW.id, NEW.uuid, 0, NEW.trashedDate IS NULL, 0, NEW.ownerID \(cursor) WHERE 1"))
            \(containerChanged("NEW.momentID"))
            END
            """,
            """
            CREATE TEMP TRIGGER IF NOT EXISTS journal_asset_update AFTER UPDATE ON main.asset BEGIN
            \(record("""
                SELECT cursor.changeID, 1, NEW.id, NEW.uuid, OLD.trashedDate IS NULL, NEW.trashedDate IS NULL,
                    (CASE WHEN \(differs(assetProperties)) THEN \(JournalFlags.updated) ELSE 0 END)
                    | (CASE WHEN \(differs(assetContent)) THEN \(JournalFlags.contentChanged) ELSE 0 END)
                    | (CASE WHEN NEW.momentID IS NOT OLD.momentID THEN \(JournalFlags.membership) ELSE 0 END),
                    NEW.ownerID
                \(cursor)
                WHERE (OLD.trashedDate IS NULL) != (NEW.trashedDate IS NULL) OR NEW.momentID IS NOT OLD.momentID
                    OR \(differs(assetProperties))
                """))
            \(containerChanged("OLD.momentID", when: "NEW.momentID IS NOT OLD.momentID"))
            \(containerChanged("NEW.momentID", when: "NEW.momentID IS NOT OLD.momentID"))
            \(record("""
                SELECT cursor.changeID, 2, c.id, c.uuid, 1, 1, \(membership), c.ownerID
                \(cursor) JOIN main.albumAsset AS member ON member.assetID = NEW.id
                JOIN main.collection AS c ON c.id = member.albumID
                WHERE (OLD.trashedDate IS NULL) != (NEW.trashedDate IS NULL)
                """))
            END
            """,
            """
            CREATE TEMP TRIGGER IF NOT EXISTS journal_asset_delete AFTER DELETE ON main.asset BEGIN
            \(record("SELECT cursor.changeID, 1, OLD.id, OLD.uuid, OLD.trashedDate IS NULL, 0, 0, OLD.ownerID \(cursor) WHERE 1"))
            \(containerChanged("OLD.momentID"))
            END
            """,
            // A shared album's members
            sharedAlbumMemberTrigger("insert", "INSERT", row: "NEW"),
            sharedAlbumMemberTrigger("update", "UPDATE", row: "NEW"),
            sharedAlbumMemberTrigger("delete", "DELETE", row: "OLD"),
            // Album members
            albumMemberTrigger("insert", "INSERT", row: "NEW"),
            albumMemberTrigger("delete", "DELETE", row: "OLD"),
            albumMemberTrigger("update", "UPDATE", row: "NEW"),
            // Collections
            """
            CREATE TEMP TRIGGER IF NOT EXISTS journal_collection_insert AFTER INSERT ON main.collection BEGIN
            \(record("SELECT cursor.changeID, \(entity("NEW")), NEW.id, NEW.uuid, 0, 1, 0, NEW.ownerID \(cursor) WHERE 1"))
            \(containerChanged("NEW.parentID"))
            END
            """,
            """
            CREATE TEMP TRIGGER IF NOT EXISTS journal_collection_update AFTER UPDATE ON main.collection BEGIN
            \(record("""
                SELECT cursor.changeID, \(entity("NEW")), NEW.id, NEW.uuid, 1, 1,
                    (CASE WHEN \(differs(collectionProperties)) THEN \(JournalFlags.updated) ELSE 0 END)
                    | (CASE WHEN NEW.parentID IS NOT OLD.parentID OR NEW.position IS NOT OLD.position
                        THEN \(JournalFlags.membership) ELSE 0 END),
                    NEW.ownerID
                \(cursor)
                WHERE \(differs(collectionProperties + ["parentID", "position"]))
                """))
            \(containerChanged("OLD.parentID", when: "NEW.parentID IS NOT OLD.parentID"))
            \(containerChanged("NEW.parentID", when: "NEW.parentID IS NOT OLD.parentID"))
            END
            """,
            """
            CREATE TEMP TRIGGER IF NOT EXISTS journal_collection_delete AFTER DELETE ON main.collection BEGIN
            \(record("SELECT cursor.changeID, \(entity("OLD")), OLD.id, OLD.uuid, 1, 0, 0, OLD.ownerID \(cursor) WHERE 1"))
            \(containerChanged("OLD.parentID"))
            END
            """,
        ]
    }

    private static func entity(_ row: String) -> String {
        "CASE WHEN \(row).isList THEN 3 ELSE 2 END"
    }

    /// A person joining, changing role in or leaving a shared album (its end included: the
    /// rows go by cascade): the person, as ``JournalEntity/person``.
    private static func sharedAlbumMemberTrigger(_ name: String, _ event: String, row: String) -> String {
        """
        CREATE TEMP TRIGGER IF NOT EXISTS journal_albumMember_\(name) AFTER \(event) ON main.albumMember BEGIN
        \(record("""
            SELECT cursor.changeID, \(JournalEntity.person), \(row).personID, CAST(\(row).personID AS TEXT), 1, 1,
                \(JournalFlags.membership), \(row).personID
            \(cursor) WHERE 1
            """))
        END
        """
    }

    /// An album gaining, losing or reordering a member: both the album and the asset are
    /// recorded (the asset with membership only: its own properties did not change).
    private static func albumMemberTrigger(_ name: String, _ event: String, row: String) -> String {
        """
        CREATE TEMP TRIGGER IF NOT EXISTS journal_albumAsset_\(name) AFTER \(event) ON main.albumAsset BEGIN
        \(record("""
            SELECT cursor.changeID, 1, a.id, a.uuid, a.trashedDate IS NULL, a.trashedDate IS NULL, \(assetMembership), a.ownerID
            \(cursor) JOIN main.asset AS a ON a.id = \(row).assetID WHERE 1
            """))
        \(containerChanged("\(row).albumID"))
        END
        """
    }
}

/// The columns whose change the journal records, from the tables' descriptions
/// (``ColumnDefinition/Journal``): both engines' triggers compare these.
package enum JournalColumns {
    /// Columns a `PHAsset` shows; a change to any of them is an update.
    package static let assetProperties = AssetColumn.table.journaledColumns(.property)
    /// Columns whose change means the pixels changed (an edit or a revert).
    package static let assetContent = AssetColumn.table.journaledColumns(.content)
    /// Columns a collection shows (its parent and position are membership, journaled apart).
    package static let collectionProperties = CollectionColumn.table.journaledColumns(.property)
}

/// Bits of `changedObject.flags`.
package enum JournalFlags {
    /// A property the object shows changed.
    package static let updated = 1
    /// The asset's pixels changed (edit, revert).
    package static let contentChanged = 2
    /// Membership changed: an asset's albums or moment, a collection's members or position.
    package static let membership = 4
    /// Written by triggers that report membership only; never stored.
    static let keepsVisibility = 8
}
