import Foundation

/// The smart albums every library has, and the metadata query behind each.
///
/// Smart albums are rows (so they have stable local identifiers) whose membership is always
/// computed, never stored. Subtypes are Apple's `PHAssetCollectionSubtype` raw values.
package enum SmartAlbumCatalog {
    package struct Entry: Sendable {
        package let subtype: Int
        package let title: String
    }

    /// In the order Photos lists them. `200` (`smartAlbumGeneric`) is used for HDR photos:
    /// Apple has no HDR subtype, and "generic" is its subtype for smart albums of no more
    /// specific kind.
    package static let entries: [Entry] = [
        Entry(subtype: 209, title: "Recents"),
        Entry(subtype: 203, title: "Favorites"),
        Entry(subtype: 206, title: "Recently Added"),
        Entry(subtype: 202, title: "Videos"),
        Entry(subtype: 210, title: "Selfies"),
        Entry(subtype: 213, title: "Live Photos"),
        Entry(subtype: 212, title: "Portrait"),
        Entry(subtype: 201, title: "Panoramas"),
        Entry(subtype: 204, title: "Time-lapse"),
        Entry(subtype: 208, title: "Slo-mo"),
        Entry(subtype: 218, title: "Cinematic"),
        Entry(subtype: 207, title: "Bursts"),
        Entry(subtype: 211, title: "Screenshots"),
        Entry(subtype: 220, title: "Screen Recordings"),
        Entry(subtype: 214, title: "Animated"),
        Entry(subtype: 215, title: "Long Exposure"),
        Entry(subtype: 217, title: "RAW"),
        Entry(subtype: 219, title: "Spatial"),
        Entry(subtype: 200, title: "HDR"),
        Entry(subtype: 205, title: "Hidden"),
        Entry(subtype: 216, title: "Unable to Upload"),
    ]

    /// How many days "Recently Added" looks back.
    package static let recentlyAddedDays = 30

    static let hiddenSubtype = 205

    package static func seed(_ db: any StoreConnection) throws {
        let now = Date().timeIntervalSince1970
        for (position, entry) in entries.enumerated() {
            try db.execute(
                """
                INSERT INTO collection (uuid, isList, type, subtype, title, position, creationDate)
                VALUES (\(UUID().uuidString), 0, 2, \(entry.subtype), \(entry.title), \(position), \(now))
                """)
        }
    }

    /// The membership condition for a smart album, over `asset`; `nil` for an unknown subtype.
    static func condition(subtype: Int, now: Date) -> StoreSQL? {
        func subtypeBit(_ bit: Int) -> StoreSQL { "(asset.mediaSubtypes & \(literal: bit)) != 0" }
        func trait(_ trait: AssetTraits) -> StoreSQL { "(asset.traits & \(literal: trait.rawValue)) != 0" }
        switch subtype {
        case 209: return "TRUE"
        case 203: return "asset.isFavorite = 1"
        case 202: return "asset.mediaType = 2"
        case 206: return "asset.addedDate >= \(now.timeIntervalSince1970 - Double(recentlyAddedDays) * 86_400)"
        case 201: return subtypeBit(1 << 0)
        case 200: return subtypeBit(1 << 1)
        case 211: return subtypeBit(1 << 2)
        case 213: return subtypeBit(1 << 3)
        case 212: return subtypeBit(1 << 4)
        case 219: return subtypeBit(1 << 10)
        case 208: return subtypeBit(1 << 17)
        case 204: return subtypeBit(1 << 18)
        case 220: return subtypeBit(1 << 19)
        case 218: return subtypeBit(1 << 21)
        case 207: return "asset.burstIdentifier IS NOT NULL"
        case 210: return trait(.selfPortrait)
        case 214: return trait(.animated)
        case 215: return trait(.longExposure)
        case 217: return trait(.raw)
        case 205: return "asset.isHidden = 1"
        case 216: return "FALSE"
        default: return nil
        }
    }
}
