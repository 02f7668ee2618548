import Foundation
import GRDB

extension LibraryDatabase {
    /// The camera an asset's EXIF names (make, model, lens), `nil` when the asset is unknown.
    package func camera(assetUUID: String) throws(StoreError) -> CameraInfo? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT cameraMake, cameraModel, lensModel FROM asset WHERE uuid = ?", arguments: [assetUUID])
                .map { CameraInfo(make: $0[0], model: $0[1], lens: $0[2]) }
        }
    }
}
