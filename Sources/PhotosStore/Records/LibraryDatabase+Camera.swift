import Foundation

extension LibraryDatabase {
    /// The camera an asset's EXIF names (make, model, lens), `nil` when the asset is unknown.
    package func camera(assetUUID: String) throws(StoreError) -> CameraInfo? {
        try read { db in
            try db.row("SELECT \(AssetColumn.selection) FROM asset WHERE uuid = \(assetUUID)") {
                CameraInfo(make: $0[AssetColumn.cameraMake], model: $0[AssetColumn.cameraModel], lens: $0[AssetColumn.lensModel])
            }
        }
    }

    /// The title, caption and keywords an asset's file carried, `nil` when the asset is unknown.
    package func description(assetUUID: String) throws(StoreError) -> DescriptionInfo? {
        try read { db in
            try db.row("SELECT \(AssetColumn.selection) FROM asset WHERE uuid = \(assetUUID)") { row in
                let keywords: String? = row[AssetColumn.keywords]
                return DescriptionInfo(
                    title: row[AssetColumn.title], caption: row[AssetColumn.caption],
                    keywords: keywords.map { $0.split(separator: "\n").map(String.init) } ?? [])
            }
        }
    }
}
