/// The `person` table: the people of a household's library, each signing in with a name and
/// a password (kept only as a bcrypt hash). `nameKey` is the name folded to lower case, so
/// "Ana" and "ana" can't both exist. The first person becomes the library's owner
/// (`libraryInfo.ownerPersonID`). Changes count in `libraryInfo.accessVersion`, as tokens' do.
package enum PersonColumn: Int32, TableColumn {
    case id, identifier, name, nameKey, isAdmin, passwordHash, createdDate, passwordChangedDate

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .identifier, .nameKey: .text.notNull().unique()
        case .name, .passwordHash: .text.notNull()
        case .isAdmin: .integer.notNull().defaults(to: 0)
        case .createdDate, .passwordChangedDate: .real.notNull()
        }
    }

    package static let table = TableDefinition("person", columns: PersonColumn.self, added: .v15)
}

/// The `personSession` table: a browser signed in as a person, by the SHA-256 of the session's
/// secret (the cookie), so sessions outlive a server restart; removing the person or changing
/// their password ends them.
package enum PersonSessionColumn: Int32, TableColumn {
    case secretHash, personID, createdDate

    package var definition: ColumnDefinition {
        switch self {
        case .secretHash: .text.primaryKey()
        case .personID: .integer.notNull().references("person", onDelete: .cascade)
        case .createdDate: .real.notNull()
        }
    }

    package static let table = TableDefinition(
        "personSession", columns: PersonSessionColumn.self, withoutRowID: true,
        indexes: [IndexDefinition("personSession_by_person", [.key("personID")], added: .v15)], added: .v15)
}

/// The `signInFailure` table: failed sign-ins counted per key (`name:` a folded name, whether
/// or not such a person exists, or `address:` a client's address) since `firstDate`, shared by
/// every instance of a library, so a guesser is slowed however many servers answer.
package enum SignInFailureColumn: Int32, TableColumn {
    case key, failures, firstDate, lastDate

    package var definition: ColumnDefinition {
        switch self {
        case .key: .text.primaryKey()
        case .failures: .integer.notNull()
        case .firstDate, .lastDate: .real.notNull()
        }
    }

    package static let table = TableDefinition("signInFailure", columns: SignInFailureColumn.self, withoutRowID: true, added: .v15)
}

/// The `albumMember` table: the people a shared album (`PHAssetCollectionSubtype`
/// `.albumCloudShared`, 101) is shared with, and how: `role` 1 a viewer, 2 a contributor. The
/// album's owner (`collection.ownerID`) is no member: they own it.
package enum AlbumMemberColumn: Int32, TableColumn {
    case albumID, personID, role, addedDate

    package var definition: ColumnDefinition {
        switch self {
        case .albumID: .integer.notNull().references("collection", onDelete: .cascade)
        case .personID: .integer.notNull().references("person", onDelete: .cascade)
        case .role: .integer.notNull()
        case .addedDate: .real.notNull()
        }
    }

    package static let table = TableDefinition(
        "albumMember", columns: AlbumMemberColumn.self, primaryKey: ["albumID", "personID"], withoutRowID: true,
        indexes: [IndexDefinition("albumMember_by_person", [.key("personID"), .implicit("albumID")], added: .v17)], added: .v17)
}

/// `albumMember.role`.
package enum SharingRole {
    /// Sees the album and its photos.
    package static let viewer = 1
    /// Also adds their own photos, and removes them.
    package static let contributor = 2
}

/// The `partnerShare` table: a person (`ownerID`) sharing their whole library, or what they
/// took from `sinceDate` on, with a partner, who may show it in their own timeline
/// (`inTimeline`, the partner's choice). A partner's view is read-only.
package enum PartnerShareColumn: Int32, TableColumn {
    case ownerID, partnerID, sinceDate, inTimeline, createdDate

    package var definition: ColumnDefinition {
        switch self {
        case .ownerID, .partnerID: .integer.notNull().references("person", onDelete: .cascade)
        case .sinceDate: .real
        case .inTimeline: .integer.notNull().defaults(to: 0)
        case .createdDate: .real.notNull()
        }
    }

    package static let table = TableDefinition(
        "partnerShare", columns: PartnerShareColumn.self, primaryKey: ["ownerID", "partnerID"], withoutRowID: true,
        indexes: [IndexDefinition("partnerShare_by_partner", [.key("partnerID"), .implicit("ownerID")], added: .v18)], added: .v18)
}

/// The `shareLink` table: a public link to an album or a selection of photos, by the SHA-256 of
/// its secret (the URL's `pl_...`), with an expiry, an optional password (bcrypt) and whether
/// originals may be downloaded. Deleting the row revokes it at once.
package enum ShareLinkColumn: Int32, TableColumn {
    case id, identifier, secretHash, ownerID, albumID, title, expiresDate, passwordHash, allowsDownload, createdDate

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .identifier, .secretHash: .text.notNull().unique()
        case .ownerID: .integer.references("person", onDelete: .cascade)
        case .albumID: .integer.references("collection", onDelete: .cascade)
        case .title: .text.notNull()
        case .expiresDate: .real
        case .passwordHash: .text
        case .allowsDownload: .integer.notNull().defaults(to: 0)
        case .createdDate: .real.notNull()
        }
    }

    package static let table = TableDefinition("shareLink", columns: ShareLinkColumn.self, added: .v19)
}

/// The `shareLinkAsset` table: the photos a selection link shows.
package enum ShareLinkAssetColumn: Int32, TableColumn {
    case linkID, assetID

    package var definition: ColumnDefinition {
        switch self {
        case .linkID: .integer.notNull().references("shareLink", onDelete: .cascade)
        case .assetID: .integer.notNull().references("asset", onDelete: .cascade)
        }
    }

    package static let table = TableDefinition(
        "shareLinkAsset", columns: ShareLinkAssetColumn.self, primaryKey: ["linkID", "assetID"], withoutRowID: true, added: .v19)
}
