import PhotosStore

/// The change journal on PostgreSQL: the same rows SQLite's `JournalTriggers` write, by
/// plpgsql triggers that record only while the transaction-local setting `photokit.change`
/// names the change being written (``SQLDialect/openJournalCursor``), and the row holding the
/// library's position (``SQLDialect/positionQuery``).
///
/// `changedObject.flags` bits are ``JournalFlags``: 1 updated, 2 content changed, 4
/// membership; 8 (keeps visibility) is never stored. `wasVisible` is kept from an object's
/// first event in a change, `isVisible` from its last.
enum PostgresJournalSchema {
    static let assetProperties = JournalColumns.assetProperties
    static let assetContent = JournalColumns.assetContent
    static let collectionProperties = JournalColumns.collectionProperties

    private static func differs(_ columns: [String]) -> String {
        "(" + columns.map { "NEW.\($0) IS DISTINCT FROM OLD.\($0)" }.joined(separator: " OR ") + ")"
    }

    static let membership = JournalFlags.updated | JournalFlags.membership | 8
    static let assetMembership = JournalFlags.membership | 8

    /// What v1 made: the position row, the setting's reader and the triggers (without
    /// owners, which v10 adds: ``owners``).
    static let statements: [String] = [
        "CREATE TABLE libraryPosition (position BIGINT NOT NULL)",
        "INSERT INTO libraryPosition (position) VALUES (0)",
        // The change being written, or NULL outside a change block.
        """
        CREATE FUNCTION photokit_change() RETURNS BIGINT LANGUAGE sql STABLE AS $$
            SELECT NULLIF(current_setting('photokit.change', true), '')::bigint
        $$
        """,
    ] + functions(withOwners: false)

    /// v10 (the SQLite schema's v21): `changedObject.ownerID`, the object's owner, which a
    /// person's persistent history is filtered by; the functions replaced to record it.
    static let owners: [String] =
        LibrarySchema.statements(addedIn: .v21, .postgres) + functions(withOwners: true)
        + ["DROP FUNCTION photokit_record(BIGINT, BIGINT, BIGINT, TEXT, BOOLEAN, BOOLEAN, BIGINT)"]

    /// v11: the recording functions in PL/pgSQL. PostgreSQL (before 18) plans a `LANGUAGE sql`
    /// function's statement again on every call from a trigger, where PL/pgSQL keeps its plan
    /// for the session: a favorite toggled on 7 assets in one statement cost 0.4-0.7 ms more
    /// than without the journal's trigger with the SQL functions, 0.05-0.2 ms with these
    /// (pgbench, 3 runs each). Same signatures, same rows written.
    static let plpgsqlRecording: [String] = [
        """
        CREATE OR REPLACE FUNCTION photokit_record(
            change BIGINT, entity BIGINT, object BIGINT, objectUUID TEXT, was BOOLEAN, visible BOOLEAN, flags BIGINT, owner BIGINT
        ) RETURNS void LANGUAGE plpgsql AS $$
        #variable_conflict use_column
        BEGIN
            INSERT INTO changedObject (changeID, entity, objectID, uuid, wasVisible, isVisible, flags, ownerID)
            VALUES ($1, $2, $3, $4, $5::int, $6::int, $7, $8)
            ON CONFLICT (changeID, entity, objectID) DO UPDATE SET
                isVisible = CASE WHEN (excluded.flags & 8) <> 0 THEN changedObject.isVisible ELSE excluded.isVisible END,
                flags = changedObject.flags | (excluded.flags & ~8);
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION photokit_container_changed(change BIGINT, container BIGINT) RETURNS void LANGUAGE plpgsql AS $$
        #variable_conflict use_column
        BEGIN
            PERFORM photokit_record($1, CASE WHEN c.isList <> 0 THEN 3 ELSE 2 END, c.id, c.uuid, true, true, \(membership), c.ownerID)
            FROM collection AS c WHERE c.id = $2;
        END $$
        """,
    ]

    /// v12: every statement that writes `changedObject` marks its transaction (the setting
    /// `photokit.recorded`, by a statement-level trigger, whatever wrote it: the recording
    /// function or a change block's own insert), so the change's close tells an empty change
    /// without looking for its rows: a statement PostgreSQL prepared while the journal was a
    /// few rows looks by a sequential scan until the table is analyzed (1.4 ms a change at
    /// 36,000 rows, under the write lock).
    static let recordingMarks: [String] = [
        """
        CREATE FUNCTION photokit_mark_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM set_config('photokit.recorded', '1', true);
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER changedObject_marks_recorded AFTER INSERT ON changedObject
        FOR EACH STATEMENT EXECUTE FUNCTION photokit_mark_recorded()
        """,
    ]

    /// The SQLSTATE `photokit_missing(message)` raises (a class of the store's own): the session
    /// reports it as a missing object (`StoreError.missingObject`), with the server's message.
    static let missingRowState = "PH404"

    /// v13: a change block that reads nothing waits for nothing before its `COMMIT`.
    /// `photokit_missing(message)` fails the transaction naming what was asked for and isn't
    /// there, from inside the statement that finds out (a batch of favorites updated by
    /// identifier, ``ChangeApplier``), where the block used to read the rows first and wait.
    /// `photokit_close_change(keeping, channel)` closes the open change (dropped when it
    /// recorded nothing), announces it on `channel` and prunes the history to the newest
    /// `keeping` changes in steps of at least 64, as `ChangeJournal.prune` does on SQLite: the
    /// change's id and the history's floor are the server's to know, so the close needs no
    /// answer of the opening's.
    static let closingOnTheServer: [String] = [
        """
        CREATE FUNCTION photokit_missing(message TEXT) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION USING ERRCODE = '\(missingRowState)', MESSAGE = message;
        END $$
        """,
        """
        CREATE FUNCTION photokit_close_change(keeping BIGINT, channel TEXT) RETURNS BIGINT LANGUAGE plpgsql AS $$
        #variable_conflict use_column
        DECLARE
            closing BIGINT := photokit_change();
            lowest BIGINT;
            cutoff BIGINT;
        BEGIN
            IF closing IS NULL THEN RAISE EXCEPTION 'photokit_close_change: no change is open'; END IF;
            IF current_setting('photokit.recorded', true) IS DISTINCT FROM '1' THEN
                DELETE FROM change WHERE id = closing;
            END IF;
            PERFORM set_config('photokit.change', '', true);
            PERFORM pg_notify(channel, closing::text);
            lowest := COALESCE((SELECT value FROM libraryInfo WHERE key = 'historyFloor')::bigint, 0);
            cutoff := closing - GREATEST(keeping, 0);
            IF cutoff > lowest AND cutoff - lowest >= LEAST(64, GREATEST(keeping, 1)) THEN
                DELETE FROM changedObject WHERE changeID > lowest AND changeID <= cutoff;
                DELETE FROM change WHERE id > lowest AND id <= cutoff;
                UPDATE libraryInfo SET value = cutoff::text WHERE key = 'historyFloor';
            END IF;
            RETURN closing;
        END $$
        """,
    ]

    /// The recording function and the triggers; with `withOwners`, each row also records the
    /// object's `ownerID` (`CREATE OR REPLACE`: v10 runs them over v1's).
    private static func functions(withOwners: Bool) -> [String] {
        let ownerParameter = withOwners ? ", owner BIGINT" : ""
        let ownerColumn = withOwners ? ", ownerID" : ""
        let ownerValue = withOwners ? ", owner" : ""
        func owner(_ row: String) -> String { withOwners ? ", \(row).ownerID" : "" }
        return [
            """
            CREATE OR REPLACE FUNCTION photokit_record(
                change BIGINT, entity BIGINT, object BIGINT, objectUUID TEXT, was BOOLEAN, visible BOOLEAN, flags BIGINT\(ownerParameter)
            ) RETURNS void LANGUAGE sql AS $$
                INSERT INTO changedObject (changeID, entity, objectID, uuid, wasVisible, isVisible, flags\(ownerColumn))
                VALUES (change, entity, object, objectUUID, was::int, visible::int, flags\(ownerValue))
                ON CONFLICT (changeID, entity, objectID) DO UPDATE SET
                    isVisible = CASE WHEN (excluded.flags & 8) <> 0 THEN changedObject.isVisible ELSE excluded.isVisible END,
                    flags = changedObject.flags | (excluded.flags & ~8)
            $$
            """,
            // A collection gained, lost or reordered a member.
            """
            CREATE OR REPLACE FUNCTION photokit_container_changed(change BIGINT, container BIGINT) RETURNS void LANGUAGE sql AS $$
                SELECT photokit_record(change, CASE WHEN c.isList <> 0 THEN 3 ELSE 2 END, c.id, c.uuid, true, true, \(membership)\(owner("c")))
                FROM collection AS c WHERE c.id = container
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION photokit_journal_asset() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                change BIGINT := photokit_change();
                flags BIGINT;
            BEGIN
                IF change IS NULL THEN RETURN NULL; END IF;
                IF TG_OP = 'INSERT' THEN
                    PERFORM photokit_record(change, 1, NEW.id, NEW.uuid, false, NEW.trashedDate IS NULL, 0\(owner("NEW")));
                    PERFORM photokit_container_changed(change, NEW.momentID);
                ELSIF TG_OP = 'DELETE' THEN
                    PERFORM photokit_record(change, 1, OLD.id, OLD.uuid, OLD.trashedDate IS NULL, false, 0\(owner("OLD")));
                    PERFORM photokit_container_changed(change, OLD.momentID);
                ELSE
                    IF (OLD.trashedDate IS NULL) <> (NEW.trashedDate IS NULL) OR NEW.momentID IS DISTINCT FROM OLD.momentID
                        OR \(differs(assetProperties)) THEN
                        flags := (CASE WHEN \(differs(assetProperties)) THEN \(JournalFlags.updated) ELSE 0 END)
                            | (CASE WHEN \(differs(assetContent)) THEN \(JournalFlags.contentChanged) ELSE 0 END)
                            | (CASE WHEN NEW.momentID IS DISTINCT FROM OLD.momentID THEN \(JournalFlags.membership) ELSE 0 END);
                        PERFORM photokit_record(change, 1, NEW.id, NEW.uuid, OLD.trashedDate IS NULL, NEW.trashedDate IS NULL, flags\(owner("NEW")));
                    END IF;
                    IF NEW.momentID IS DISTINCT FROM OLD.momentID THEN
                        PERFORM photokit_container_changed(change, OLD.momentID);
                        PERFORM photokit_container_changed(change, NEW.momentID);
                    END IF;
                    IF (OLD.trashedDate IS NULL) <> (NEW.trashedDate IS NULL) THEN
                        PERFORM photokit_record(change, 2, c.id, c.uuid, true, true, \(membership)\(owner("c")))
                        FROM albumAsset AS member JOIN collection AS c ON c.id = member.albumID
                        WHERE member.assetID = NEW.id;
                    END IF;
                END IF;
                RETURN NULL;
            END $$
            """,
            "CREATE OR REPLACE TRIGGER journal_asset AFTER INSERT OR UPDATE OR DELETE ON asset FOR EACH ROW EXECUTE FUNCTION photokit_journal_asset()",
            // An album gaining, losing or reordering a member: the album and the asset (the asset
            // with membership only: its own properties did not change).
            """
            CREATE OR REPLACE FUNCTION photokit_journal_album_asset() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                change BIGINT := photokit_change();
                member albumAsset;
            BEGIN
                IF change IS NULL THEN RETURN NULL; END IF;
                IF TG_OP = 'DELETE' THEN member := OLD; ELSE member := NEW; END IF;
                PERFORM photokit_record(change, 1, a.id, a.uuid, a.trashedDate IS NULL, a.trashedDate IS NULL, \(assetMembership)\(owner("a")))
                FROM asset AS a WHERE a.id = member.assetID;
                PERFORM photokit_container_changed(change, member.albumID);
                RETURN NULL;
            END $$
            """,
            """
            CREATE OR REPLACE TRIGGER journal_album_asset AFTER INSERT OR UPDATE OR DELETE ON albumAsset
            FOR EACH ROW EXECUTE FUNCTION photokit_journal_album_asset()
            """,
            """
            CREATE OR REPLACE FUNCTION photokit_journal_collection() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                change BIGINT := photokit_change();
            BEGIN
                IF change IS NULL THEN RETURN NULL; END IF;
                IF TG_OP = 'INSERT' THEN
                    PERFORM photokit_record(change, CASE WHEN NEW.isList <> 0 THEN 3 ELSE 2 END, NEW.id, NEW.uuid, false, true, 0\(owner("NEW")));
                    PERFORM photokit_container_changed(change, NEW.parentID);
                ELSIF TG_OP = 'DELETE' THEN
                    PERFORM photokit_record(change, CASE WHEN OLD.isList <> 0 THEN 3 ELSE 2 END, OLD.id, OLD.uuid, true, false, 0\(owner("OLD")));
                    PERFORM photokit_container_changed(change, OLD.parentID);
                ELSE
                    IF \(differs(collectionProperties + ["parentID", "position"])) THEN
                        PERFORM photokit_record(
                            change, CASE WHEN NEW.isList <> 0 THEN 3 ELSE 2 END, NEW.id, NEW.uuid, true, true,
                            (CASE WHEN \(differs(collectionProperties)) THEN \(JournalFlags.updated) ELSE 0 END)
                            | (CASE WHEN NEW.parentID IS DISTINCT FROM OLD.parentID OR NEW.position IS DISTINCT FROM OLD.position
                                THEN \(JournalFlags.membership) ELSE 0 END)\(owner("NEW")));
                    END IF;
                    IF NEW.parentID IS DISTINCT FROM OLD.parentID THEN
                        PERFORM photokit_container_changed(change, OLD.parentID);
                        PERFORM photokit_container_changed(change, NEW.parentID);
                    END IF;
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE OR REPLACE TRIGGER journal_collection AFTER INSERT OR UPDATE OR DELETE ON collection
            FOR EACH ROW EXECUTE FUNCTION photokit_journal_collection()
            """,
        ] + (withOwners ? sharedAlbumMembers : [])
    }

    /// A person joining, changing role in or leaving a shared album (its end included), as
    /// ``JournalEntity/person`` (v10: `albumMember` came in v6).
    private static var sharedAlbumMembers: [String] {
        [
            """
            CREATE OR REPLACE FUNCTION photokit_journal_album_member() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                change BIGINT := photokit_change();
                member BIGINT;
            BEGIN
                IF change IS NULL THEN RETURN NULL; END IF;
                IF TG_OP = 'DELETE' THEN member := OLD.personID; ELSE member := NEW.personID; END IF;
                PERFORM photokit_record(change, \(JournalEntity.person), member, member::text, true, true, \(JournalFlags.membership), member);
                RETURN NULL;
            END $$
            """,
            """
            CREATE OR REPLACE TRIGGER journal_album_member AFTER INSERT OR UPDATE OR DELETE ON albumMember
            FOR EACH ROW EXECUTE FUNCTION photokit_journal_album_member()
            """,
        ]
    }
}
