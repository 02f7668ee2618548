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
    /// What ``init(row:)`` reads: the `resource` table's columns, then its asset's UUID
    /// (joined as `asset`).
    static let selection: StoreSQL = "\(ResourceColumn.selection), asset.uuid"

    /// Reads a row selected with ``selection``.
    init(row: some ColumnReading) {
        typealias Column = ResourceColumn
        id = row[Column.id]
        assetID = row[Column.assetID]
        assetUUID = row[after: Column.self, 0]
        type = row[Column.type]
        uniformTypeIdentifier = row[Column.uniformTypeIdentifier]
        originalFilename = row[Column.originalFilename]
        path = row[Column.path]
        fileSize = row[Column.fileSize]
        pixelWidth = row[Column.pixelWidth]
        pixelHeight = row[Column.pixelHeight]
    }
}

extension NewResource {
    /// The row an `INSERT` writes for this file of the asset `assetID`.
    func insertRow(assetID: Int64) -> TableRow<ResourceColumn> {
        var row = TableRow<ResourceColumn>()
        row[.assetID] = assetID
        row[.type] = type
        row[.uniformTypeIdentifier] = uniformTypeIdentifier
        row[.originalFilename] = originalFilename
        row[.path] = relativePath
        row[.fileSize] = fileSize
        row[.pixelWidth] = pixelWidth
        row[.pixelHeight] = pixelHeight
        row[.contentHash] = contentHash
        row[.contentSignature] = contentSignature
        row[.fileModificationDate] = fileModificationDate
        return row
    }
}
