import Foundation

/// One file of an asset: its original photo or video, a paired video, an alternate photo, ...
package struct ResourceRecord: Sendable, Hashable {
    package var id: Int64
    package var assetID: Int64
    package var assetUUID: String
    /// `PHAssetResourceType` raw value.
    package var type: Int
    package var uniformTypeIdentifier: String
    package var originalFilename: String
    /// Relative to the library root.
    package var path: String
    package var fileSize: Int64
    package var pixelWidth: Int
    package var pixelHeight: Int

    package init(
        id: Int64 = 0, assetID: Int64 = 0, assetUUID: String, type: Int,
        uniformTypeIdentifier: String, originalFilename: String, path: String, fileSize: Int64,
        pixelWidth: Int, pixelHeight: Int
    ) {
        self.id = id
        self.assetID = assetID
        self.assetUUID = assetUUID
        self.type = type
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.originalFilename = originalFilename
        self.path = path
        self.fileSize = fileSize
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

extension ResourceRecord {
    static let selection = """
        resource.id, resource.assetID, asset.uuid, resource.type, \
        resource.uniformTypeIdentifier, resource.originalFilename, resource.path, \
        resource.fileSize, resource.pixelWidth, resource.pixelHeight
        """

    init(columns row: some ColumnReading) {
        id = row.int64(0)
        assetID = row.int64(1)
        assetUUID = row.text(2)
        type = row.int(3)
        uniformTypeIdentifier = row.text(4)
        originalFilename = row.text(5)
        path = row.text(6)
        fileSize = row.int64(7)
        pixelWidth = row.int(8)
        pixelHeight = row.int(9)
    }
}
