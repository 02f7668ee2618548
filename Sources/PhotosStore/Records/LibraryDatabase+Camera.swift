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
}
