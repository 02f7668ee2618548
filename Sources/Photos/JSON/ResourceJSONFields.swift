/// What the JSON of an asset's file says in both of the package's vocabularies (see
/// ``AssetJSONFields``): the CLI's entries of `resources` (`photos info --json`) and the API's
/// asset details, which describe the original's file. Written beside each vocabulary's own
/// keys, into the same object.
package struct ResourceJSONFields: Encodable, Sendable {
    package let originalFilename: String
    package let uniformTypeIdentifier: String
    /// Bytes.
    package let fileSize: Int64

    package init(_ resource: PHAssetResource) {
        originalFilename = resource.originalFilename
        uniformTypeIdentifier = resource.uniformTypeIdentifier
        fileSize = resource.fileSize
    }
}
