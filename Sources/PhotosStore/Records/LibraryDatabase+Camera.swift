import Foundation

extension LibraryDatabase {
    /// The camera an asset's EXIF names (make, model, lens), `nil` when the asset is unknown.
    package func camera(assetUUID: String) throws(StoreError) -> CameraInfo? {
        try read { db in
            try db.row("SELECT cameraMake, cameraModel, lensModel FROM asset WHERE uuid = ?", [assetUUID]) {
                CameraInfo(make: $0.optionalText(0), model: $0.optionalText(1), lens: $0.optionalText(2))
            }
        }
    }
}
