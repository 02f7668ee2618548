/// The `change` table: one row per committed change, its id never reused (`AUTOINCREMENT`):
/// the library's position, which change tokens and fetch results carry (see `JournalTriggers`).
package enum ChangeColumn: Int32, TableColumn {
    case id, date, processID

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .date: .real.notNull()
        case .processID: .integer.notNull()
        }
    }

    package static let table = TableDefinition("change", columns: ChangeColumn.self, autoincrement: .v2, added: .v2)
}

/// The `changedObject` table: the objects each change touched (``JournalEntity``), whether
/// they were visible before and after, ``JournalFlags``, and whose the object is (`ownerID`, a
/// person's row id: `NULL` in a library without people and for changes journaled before v21,
/// which are the library owner's), so a person's persistent history holds only what they see.
package enum ChangedObjectColumn: Int32, TableColumn {
    case changeID, entity, objectID, uuid, wasVisible, isVisible, flags, ownerID

    package var definition: ColumnDefinition {
        switch self {
        case .uuid: .text.notNull()
        case .changeID, .entity, .objectID, .wasVisible, .isVisible, .flags: .integer.notNull()
        case .ownerID: .integer.added(in: .v21)
        }
    }

    package static let table = TableDefinition(
        "changedObject", columns: ChangedObjectColumn.self, primaryKey: ["changeID", "entity", "objectID"], withoutRowID: true,
        added: .v2)
}
