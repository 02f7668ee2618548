public import Foundation

/// The recipe of an edit: an editor's own format (identifier and version) and bytes, stored
/// with the rendered version so the editor (or another that understands the format) can
/// resume the edit later instead of editing the rendered pixels.
public final class PHAdjustmentData: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// Reverse-DNS name of the editor's format, such as `com.example.filters`.
    public let formatIdentifier: String
    /// The format's version, so an editor can read older recipes.
    public let formatVersion: String
    /// The recipe itself, in the editor's format.
    public let data: Data

    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHAdjustmentData else { return false }
        return formatIdentifier == other.formatIdentifier && formatVersion == other.formatVersion && data == other.data
    }

    public override var hash: Int { formatIdentifier.hashValue ^ data.hashValue }

    /// The stored form: a property list with Apple's AAE sidecar keys.
    func propertyList() throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: [
                "adjustmentFormatIdentifier": formatIdentifier,
                "adjustmentFormatVersion": formatVersion,
                "adjustmentData": data,
            ] as [String: Any],
            format: .xml, options: 0)
    }

    /// Reads the stored form back; nil if it is not one.
    convenience init?(propertyList: Data) {
        // try?: bytes that are not a property list are the nil this answers.
        guard let plist = try? PropertyListSerialization.propertyList(from: propertyList, format: nil) as? [String: Any],
            let identifier = plist["adjustmentFormatIdentifier"] as? String,
            let version = plist["adjustmentFormatVersion"] as? String,
            let data = plist["adjustmentData"] as? Data
        else { return nil }
        self.init(formatIdentifier: identifier, formatVersion: version, data: data)
    }
}
