/// The `resource` table: an asset's files (its original, a paired video, alternates, ...).
///
/// `path` is relative to the library's folder, or absolute for an original referenced where
/// it is (v4), or an `http(s)` URL for a remote one. `contentHash` is the file's SHA-256 and
/// `contentSignature` its ``ContentSignature`` (both `NULL` for files imported before they
/// existed, filled when a same-sized file is checked against them). `fileModificationDate` is
/// a referenced original's modification time at import (v12), so importing the same folder
/// again tells an unchanged file by `stat` alone.
package enum ResourceColumn: Int32, TableColumn {
    case id, assetID, type, uniformTypeIdentifier, originalFilename, path, fileSize, pixelWidth, pixelHeight
    case contentHash, contentSignature, fileModificationDate

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .assetID: .integer.notNull().references("asset", onDelete: .cascade)
        case .type, .fileSize: .integer.notNull()
        case .uniformTypeIdentifier, .originalFilename: .text.notNull()
        case .path: .text.notNull().unique()
        case .pixelWidth, .pixelHeight: .integer.notNull().defaults(to: 0)
        case .contentHash: .text.added(in: .v3)
        case .contentSignature: .text.added(in: .v4)
        case .fileModificationDate: .real.added(in: .v12)
        }
    }

    package static let table = TableDefinition(
        "resource", columns: ResourceColumn.self, unique: [["assetID", "type"]],
        indexes: [
            IndexDefinition("resource_by_contentHash", [.key("contentHash")], added: .v3),
            IndexDefinition("resource_by_size_signature", [.key("fileSize"), .key("contentSignature")], added: .v4),
        ])
}
