/// The `libraryInfo` table: the library's own values by key (`libraryIdentifier`,
/// `createdAt`, `historyFloor`, `accessVersion`), as text.
package enum LibraryInfoColumn: Int32, TableColumn {
    case key, value

    package var definition: ColumnDefinition {
        switch self {
        case .key: .text.primaryKey()
        case .value: .text.notNull()
        }
    }

    package static let table = TableDefinition("libraryInfo", columns: LibraryInfoColumn.self, withoutRowID: true)
}
