/// The `accessToken` table: the server's API tokens, by the SHA-256 of their secret (the
/// secret itself is never stored). `libraryInfo.accessVersion` counts changes to tokens and
/// allow-lists, so a server notices another process's `photos token` commands. A token of a
/// library with people belongs to one (`personID`) and never sees more than they do.
package enum AccessTokenColumn: Int32, TableColumn {
    case id, identifier, name, level, secretHash, createdDate, lastUsedDate, personID

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .identifier, .secretHash: .text.notNull().unique()
        case .name: .text.notNull()
        case .level: .integer.notNull()
        case .createdDate: .real.notNull()
        case .lastUsedDate: .real
        case .personID: .integer.references("person", onDelete: .cascade).added(in: .v15)
        }
    }

    package static let table = TableDefinition("accessToken", columns: AccessTokenColumn.self, added: .v6)
}

/// The `accessTokenAsset` table: the assets a limited token may see.
package enum AccessTokenAssetColumn: Int32, TableColumn {
    case tokenID, assetID

    package var definition: ColumnDefinition {
        switch self {
        case .tokenID: .integer.notNull().references("accessToken", onDelete: .cascade)
        case .assetID: .integer.notNull().references("asset", onDelete: .cascade)
        }
    }

    package static let table = TableDefinition(
        "accessTokenAsset", columns: AccessTokenAssetColumn.self, primaryKey: ["tokenID", "assetID"], withoutRowID: true,
        added: .v6)
}

/// The `accessSession` table: a signed-in browser's session, by the SHA-256 of its secret
/// (the cookie), so sessions outlive a server restart; revoking the token ends them.
package enum AccessSessionColumn: Int32, TableColumn {
    case secretHash, tokenID, createdDate

    package var definition: ColumnDefinition {
        switch self {
        case .secretHash: .text.primaryKey()
        case .tokenID: .integer.notNull().references("accessToken", onDelete: .cascade)
        case .createdDate: .real.notNull()
        }
    }

    package static let table = TableDefinition(
        "accessSession", columns: AccessSessionColumn.self, withoutRowID: true,
        indexes: [IndexDefinition("accessSession_by_token", [.key("tokenID")], added: .v7)], added: .v7)
}
