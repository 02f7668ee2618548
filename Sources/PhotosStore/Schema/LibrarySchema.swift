/// The library's tables, each described once (``TableColumn``), and the DDL both engines'
/// migrations run, rendered from them: SQLite's `LibraryMigrations` step by step (what each
/// ``SchemaVersion`` added), PostgreSQL's `PostgresSchema` from the tables as a version left
/// them. `PostgresSchemaTests.sameTablesAndColumns` compares what the two engines end with;
/// `TableDescriptionTests` compares each engine's tables with these descriptions.
package enum LibrarySchema {
    /// Every table, parents before children: the order PostgreSQL creates them and a copy
    /// fills them in.
    package static let tables: [TableDefinition] = [
        LibraryInfoColumn.table, CollectionColumn.table, AssetColumn.table, ResourceColumn.table, AlbumAssetColumn.table,
        ChangeColumn.table, ChangedObjectColumn.table, PersonColumn.table, AccessTokenColumn.table,
        AccessTokenAssetColumn.table, AccessSessionColumn.table, VideoRenditionColumn.table, RenderFailureColumn.table,
        ImportBatchColumn.table, PersonSessionColumn.table, SignInFailureColumn.table, AlbumMemberColumn.table,
        PartnerShareColumn.table, ShareLinkColumn.table, ShareLinkAssetColumn.table, SearchDocumentColumn.table,
        TextRecognitionColumn.table,
    ]

    /// What a library that already had people before v16 gave its owner: every asset and every
    /// collection but the smart albums and smart folders every person sees alike. Run by both
    /// engines' v16 migrations (nothing happens without an owner) and, when a library gets its
    /// first person, by ``PeopleStore/create(identifier:name:isAdmin:passwordHash:date:)``.
    package static let adoptionByOwner: [String] = [
        "UPDATE asset SET ownerID = CAST((SELECT value FROM libraryInfo WHERE key = 'ownerPersonID') AS BIGINT) WHERE ownerID IS NULL",
        """
        UPDATE collection SET ownerID = CAST((SELECT value FROM libraryInfo WHERE key = 'ownerPersonID') AS BIGINT)
        WHERE ownerID IS NULL AND NOT (isList = 0 AND type = 2) AND NOT (isList = 1 AND type = 3)
        """,
    ]

    /// The table named `name`.
    package static func table(_ name: String) -> TableDefinition? {
        tables.first { $0.name == name }
    }

    /// What `version` added, in `dialect`: the tables it made (as they were then) with their
    /// indexes, the columns it added to older tables, and the indexes it added to them.
    package static func statements(addedIn version: SchemaVersion, _ dialect: SQLDialect) -> [String] {
        let made = tables.filter { $0.added == version }.map { $0.createSQL(dialect, asOf: version) }
        let columns = tables.flatMap { $0.addColumnsSQL(dialect, addedIn: version) }
        let indexes = tables.flatMap { table in
            table.indexes.filter { $0.added == version }.map { $0.sql(on: table.name, dialect) }
        }
        return made + columns + indexes
    }

    /// The tables as `version` left them, with every index they had by then, in `dialect`: a
    /// new database made at once (PostgreSQL's first migration).
    package static func statements(through version: SchemaVersion, _ dialect: SQLDialect) -> [String] {
        let present = tables.filter { $0.added <= version }
        return present.map { $0.createSQL(dialect, asOf: version) }
            + present.flatMap { table in table.indexes.filter { $0.added <= version }.map { $0.sql(on: table.name, dialect) } }
    }

    /// The `CREATE INDEX` of the index named `name`, in `dialect`.
    package static func createIndex(_ name: String, _ dialect: SQLDialect) -> String {
        for table in tables {
            if let index = table.indexes.first(where: { $0.name == name }) { return index.sql(on: table.name, dialect) }
        }
        preconditionFailure("No table has an index \(name)")
    }
}
