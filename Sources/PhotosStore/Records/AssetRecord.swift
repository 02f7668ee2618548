package import Foundation

/// One row of the `asset` table: everything a `PHAsset` snapshot shows.
package struct AssetRecord: Sendable, Hashable {
    package var id: Int64
    package var uuid: String
    package var mediaType: Int
    package var mediaSubtypes: Int
    package var sourceType: Int
    package var pixelWidth: Int
    package var pixelHeight: Int
    package var creationDate: Date?
    /// Seconds east of UTC at capture, when the file said so.
    package var creationTimeZoneOffset: Int?
    package var modificationDate: Date?
    package var addedDate: Date
    package var location: LocationRecord?
    package var duration: Double
    package var isFavorite: Bool
    package var isHidden: Bool
    package var burstIdentifier: String?
    package var burstSelectionTypes: Int
    package var representsBurst: Bool
    package var playbackStyle: Int
    package var hasAdjustments: Bool
    package var adjustmentFormatIdentifier: String?
    package var uniformTypeIdentifier: String
    package var originalFilename: String?
    /// ``AssetTraits`` bits: metadata only smart albums look at.
    package var traits: Int
    package var momentID: Int64?
    package var trashedDate: Date?

    package init(
        id: Int64 = 0, uuid: String, mediaType: Int, mediaSubtypes: Int = 0, sourceType: Int = 1,
        pixelWidth: Int = 0, pixelHeight: Int = 0, creationDate: Date? = nil,
        creationTimeZoneOffset: Int? = nil, modificationDate: Date? = nil, addedDate: Date,
        location: LocationRecord? = nil, duration: Double = 0, isFavorite: Bool = false,
        isHidden: Bool = false, burstIdentifier: String? = nil, burstSelectionTypes: Int = 0,
        representsBurst: Bool = false, playbackStyle: Int = 1, hasAdjustments: Bool = false,
        adjustmentFormatIdentifier: String? = nil, uniformTypeIdentifier: String,
        originalFilename: String? = nil, traits: Int = 0, momentID: Int64? = nil,
        trashedDate: Date? = nil
    ) {
        self.id = id
        self.uuid = uuid
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.sourceType = sourceType
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.creationDate = creationDate
        self.creationTimeZoneOffset = creationTimeZoneOffset
        self.modificationDate = modificationDate
        self.addedDate = addedDate
        self.location = location
        self.duration = duration
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.burstIdentifier = burstIdentifier
        self.burstSelectionTypes = burstSelectionTypes
        self.representsBurst = representsBurst
        self.playbackStyle = playbackStyle
        self.hasAdjustments = hasAdjustments
        self.adjustmentFormatIdentifier = adjustmentFormatIdentifier
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.originalFilename = originalFilename
        self.traits = traits
        self.momentID = momentID
        self.trashedDate = trashedDate
    }
}

/// A stored location: `CLLocation`'s fields.
package struct LocationRecord: Sendable, Hashable {
    package var latitude: Double
    package var longitude: Double
    package var altitude: Double?
    package var horizontalAccuracy: Double?
    package var verticalAccuracy: Double?
    package var timestamp: Date?

    package init(
        latitude: Double, longitude: Double, altitude: Double? = nil,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, timestamp: Date? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.timestamp = timestamp
    }
}

/// Bits of `asset.traits`: facts smart albums need that PhotoKit has no public property for.
package struct AssetTraits: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// Taken with a front camera (EXIF lens model says "front"): the Selfies album.
    package static let selfPortrait = AssetTraits(rawValue: 1 << 0)
    /// The original, or an alternate resource, is a camera RAW file.
    package static let raw = AssetTraits(rawValue: 1 << 1)
    /// An animated image (GIF, APNG, animated WebP).
    package static let animated = AssetTraits(rawValue: 1 << 2)
    /// A Live Photo shown with the long-exposure effect.
    package static let longExposure = AssetTraits(rawValue: 1 << 3)
}

extension AssetRecord {
    /// The columns, in the order ``init(row:)`` reads them.
    static let selection = """
        asset.id, asset.uuid, asset.mediaType, asset.mediaSubtypes, asset.sourceType, \
        asset.pixelWidth, asset.pixelHeight, asset.creationDate, asset.creationTimeZoneOffset, \
        asset.modificationDate, asset.addedDate, asset.latitude, asset.longitude, asset.altitude, \
        asset.horizontalAccuracy, asset.verticalAccuracy, asset.locationTimestamp, asset.duration, \
        asset.isFavorite, asset.isHidden, asset.burstIdentifier, asset.burstSelectionTypes, \
        asset.representsBurst, asset.playbackStyle, asset.hasAdjustments, \
        asset.adjustmentFormatIdentifier, asset.uniformTypeIdentifier, asset.originalFilename, \
        asset.traits, asset.momentID, asset.trashedDate
        """

    /// Reads a row selected with ``selection``.
    init(columns row: some ColumnReading) {
        id = row.int64(0)
        uuid = row.text(1)
        mediaType = row.int(2)
        mediaSubtypes = row.int(3)
        sourceType = row.int(4)
        pixelWidth = row.int(5)
        pixelHeight = row.int(6)
        creationDate = row.date(7)
        creationTimeZoneOffset = row.optionalInt(8)
        modificationDate = row.date(9)
        addedDate = row.date(10) ?? Date(timeIntervalSince1970: 0)
        if !row.isNull(11) && !row.isNull(12) {
            location = LocationRecord(
                latitude: row.double(11), longitude: row.double(12), altitude: row.optionalDouble(13),
                horizontalAccuracy: row.optionalDouble(14), verticalAccuracy: row.optionalDouble(15),
                timestamp: row.date(16))
        } else {
            location = nil
        }
        duration = row.double(17)
        isFavorite = row.bool(18)
        isHidden = row.bool(19)
        burstIdentifier = row.optionalText(20)
        burstSelectionTypes = row.int(21)
        representsBurst = row.bool(22)
        playbackStyle = row.int(23)
        hasAdjustments = row.bool(24)
        adjustmentFormatIdentifier = row.optionalText(25)
        uniformTypeIdentifier = row.text(26)
        originalFilename = row.optionalText(27)
        traits = row.int(28)
        momentID = row.optionalInt64(29)
        trashedDate = row.date(30)
    }

    /// Column values for an `INSERT`, in the order of ``insertColumns``.
    static let insertColumns = """
        uuid, mediaType, mediaSubtypes, sourceType, pixelWidth, pixelHeight, creationDate, \
        creationTimeZoneOffset, modificationDate, addedDate, latitude, longitude, altitude, \
        horizontalAccuracy, verticalAccuracy, locationTimestamp, duration, isFavorite, isHidden, \
        burstIdentifier, burstSelectionTypes, representsBurst, playbackStyle, hasAdjustments, \
        adjustmentFormatIdentifier, uniformTypeIdentifier, originalFilename, traits, momentID, \
        trashedDate
        """

    var insertArguments: SQLArguments {
        [
            uuid, mediaType, mediaSubtypes, sourceType, pixelWidth, pixelHeight,
            creationDate?.timeIntervalSince1970, creationTimeZoneOffset,
            modificationDate?.timeIntervalSince1970, addedDate.timeIntervalSince1970,
            location?.latitude, location?.longitude, location?.altitude,
            location?.horizontalAccuracy, location?.verticalAccuracy,
            location?.timestamp?.timeIntervalSince1970, duration, isFavorite, isHidden,
            burstIdentifier, burstSelectionTypes, representsBurst, playbackStyle, hasAdjustments,
            adjustmentFormatIdentifier, uniformTypeIdentifier, originalFilename, traits, momentID,
            trashedDate?.timeIntervalSince1970,
        ]
    }
}
