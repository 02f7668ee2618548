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
/// they were visible before and after, and ``JournalFlags``.
package enum ChangedObjectColumn: Int32, TableColumn {
    case changeID, entity, objectID, uuid, wasVisible, isVisible, flags

    package var definition: ColumnDefinition {
        switch self {
        case .uuid: .text.notNull()
        case .changeID, .entity, .objectID, .wasVisible, .isVisible, .flags: .integer.notNull()
        }
    }

    package static let table = TableDefinition(
        "changedObject", columns: ChangedObjectColumn.self, primaryKey: ["changeID", "entity", "objectID"], withoutRowID: true,
        added: .v2)
}
