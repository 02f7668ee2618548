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
    /// What ``init(row:)`` reads: the `asset` table's columns a `PHAsset` shows, the first
    /// through `trashedDate` (the camera and the content version follow them; a read of one
    /// object by id is a round trip on PostgreSQL, whose parse and plan grow with the columns).
    static let selection = AssetColumn.selection(through: .trashedDate)

    /// Reads a row selected with ``selection``.
    init(row: some ColumnReading) {
        typealias Column = AssetColumn
        id = row[Column.id]
        uuid = row[Column.uuid]
        mediaType = row[Column.mediaType]
        mediaSubtypes = row[Column.mediaSubtypes]
        sourceType = row[Column.sourceType]
        pixelWidth = row[Column.pixelWidth]
        pixelHeight = row[Column.pixelHeight]
        creationDate = row[Column.creationDate]
        creationTimeZoneOffset = row[Column.creationTimeZoneOffset]
        modificationDate = row[Column.modificationDate]
        addedDate = row[Column.addedDate]
        if let latitude: Double = row[Column.latitude], let longitude: Double = row[Column.longitude] {
            location = LocationRecord(
                latitude: latitude, longitude: longitude, altitude: row[Column.altitude],
                horizontalAccuracy: row[Column.horizontalAccuracy], verticalAccuracy: row[Column.verticalAccuracy],
                timestamp: row[Column.locationTimestamp])
        } else {
            location = nil
        }
        duration = row[Column.duration]
        isFavorite = row[Column.isFavorite]
        isHidden = row[Column.isHidden]
        burstIdentifier = row[Column.burstIdentifier]
        burstSelectionTypes = row[Column.burstSelectionTypes]
        representsBurst = row[Column.representsBurst]
        playbackStyle = row[Column.playbackStyle]
        hasAdjustments = row[Column.hasAdjustments]
        adjustmentFormatIdentifier = row[Column.adjustmentFormatIdentifier]
        uniformTypeIdentifier = row[Column.uniformTypeIdentifier]
        originalFilename = row[Column.originalFilename]
        traits = row[Column.traits]
        momentID = row[Column.momentID]
        trashedDate = row[Column.trashedDate]
    }

    /// The row an `INSERT` writes for a new asset (its id comes from the table), with the
    /// camera that took it and the words its file carried.
    func insertRow(camera: CameraInfo, description: DescriptionInfo) -> TableRow<AssetColumn> {
        var row = TableRow<AssetColumn>()
        row[.uuid] = uuid
        row[.mediaType] = mediaType
        row[.mediaSubtypes] = mediaSubtypes
        row[.sourceType] = sourceType
        row[.pixelWidth] = pixelWidth
        row[.pixelHeight] = pixelHeight
        row[.creationDate] = creationDate
        row[.creationTimeZoneOffset] = creationTimeZoneOffset
        row[.modificationDate] = modificationDate
        row[.addedDate] = addedDate
        row[.latitude] = location?.latitude
        row[.longitude] = location?.longitude
        row[.altitude] = location?.altitude
        row[.horizontalAccuracy] = location?.horizontalAccuracy
        row[.verticalAccuracy] = location?.verticalAccuracy
        row[.locationTimestamp] = location?.timestamp
        row[.duration] = duration
        row[.isFavorite] = isFavorite
        row[.isHidden] = isHidden
        row[.burstIdentifier] = burstIdentifier
        row[.burstSelectionTypes] = burstSelectionTypes
        row[.representsBurst] = representsBurst
        row[.playbackStyle] = playbackStyle
        row[.hasAdjustments] = hasAdjustments
        row[.adjustmentFormatIdentifier] = adjustmentFormatIdentifier
        row[.uniformTypeIdentifier] = uniformTypeIdentifier
        row[.originalFilename] = originalFilename
        row[.traits] = traits
        row[.momentID] = momentID
        row[.trashedDate] = trashedDate
        row[.cameraMake] = camera.make
        row[.cameraModel] = camera.model
        row[.lensModel] = camera.lens
        row[.title] = description.title
        row[.caption] = description.caption
        row[.keywords] = description.keywordsColumn
        return row
    }
}
