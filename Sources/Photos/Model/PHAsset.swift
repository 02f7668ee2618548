public import CoreLocation
import AVFoundation
public import Foundation
import PhotosStore

/// A photo, video or other item in the library: its metadata, not its pixels.
///
/// Pixels come from ``PHImageManager`` (images at any size) and ``PHAssetResourceManager``
/// (the files).
///
/// Linux notes: ``location`` is a `CLLocation` stand-in from this package's `CoreLocation`
/// module. ``creationDate`` is the capture time from the file's metadata (EXIF
/// `DateTimeOriginal` with its offset, or the video's creation time), else the file's
/// modification time.
public final class PHAsset: PHObject, @unchecked Sendable {
    let record: AssetRecord

    public let mediaType: PHAssetMediaType
    public let mediaSubtypes: PHAssetMediaSubtype
    public let sourceType: PHAssetSourceType
    /// Width in pixels of the current version, after applying its orientation.
    public let pixelWidth: Int
    /// Height in pixels of the current version, after applying its orientation.
    public let pixelHeight: Int
    public let creationDate: Date?
    /// Bumped by every property or content change.
    public let modificationDate: Date?
    public let location: CLLocation?
    /// Length of a video in seconds; 0 for stills.
    public let duration: TimeInterval
    public let isFavorite: Bool
    public let isHidden: Bool
    public let burstIdentifier: String?
    public let burstSelectionTypes: PHAssetBurstSelectionType
    /// Whether this is the one asset that stands for its burst when bursts are collapsed.
    public let representsBurst: Bool
    public let playbackStyle: PlaybackStyle
    /// Whether the current version is an edit (a committed content-editing output).
    public let hasAdjustments: Bool
    /// The format of the adjustment data of the current edit, if any.
    public let adjustmentFormatIdentifier: String?

    init(record: AssetRecord, library: PHPhotoLibrary?) {
        self.record = record
        mediaType = PHAssetMediaType(rawValue: record.mediaType) ?? .unknown
        mediaSubtypes = PHAssetMediaSubtype(rawValue: UInt(truncatingIfNeeded: record.mediaSubtypes))
        sourceType = PHAssetSourceType(rawValue: UInt(truncatingIfNeeded: record.sourceType))
        pixelWidth = record.pixelWidth
        pixelHeight = record.pixelHeight
        creationDate = record.creationDate
        modificationDate = record.modificationDate
        location = record.location.map(CLLocation.init(record:))
        duration = record.duration
        isFavorite = record.isFavorite
        isHidden = record.isHidden
        burstIdentifier = record.burstIdentifier
        burstSelectionTypes = PHAssetBurstSelectionType(rawValue: UInt(truncatingIfNeeded: record.burstSelectionTypes))
        representsBurst = record.burstIdentifier != nil && record.representsBurst
        playbackStyle = PlaybackStyle(rawValue: record.playbackStyle) ?? .unsupported
        hasAdjustments = record.hasAdjustments
        adjustmentFormatIdentifier = record.adjustmentFormatIdentifier
        super.init(localIdentifier: LocalIdentifier.asset(record.uuid), library: library)
    }

    var rowID: Int64 { record.id }
    var uuid: String { record.uuid }

    /// When the asset entered the library (Apple added `addedDate` in iOS 26).
    public var addedDate: Date { record.addedDate }

    /// When the asset was deleted, for assets fetched from Recently Deleted.
    ///
    /// Linux addition: Apple's PhotoKit never shows deleted assets.
    public var trashedDate: Date? { record.trashedDate }

    /// Whether the asset allows an edit of this kind.
    ///
    /// Linux: every asset in the user's library can be deleted and have its properties edited;
    /// content edits apply to photos and Live Photos, and to videos where `ffmpeg` is
    /// installed (their edits are rendered movies); not to audio or unknown media.
    public func canPerform(_ editOperation: PHAssetEditOperation) -> Bool {
        guard record.trashedDate == nil else { return false }
        switch editOperation {
        case .delete, .properties: return true
        case .content:
            switch mediaType {
            case .image: return true
            case .video: return FFmpegTools.ffmpeg != nil
            case .audio, .unknown: return false
            }
        }
    }

    public override var description: String {
        var parts = ["<PHAsset: \(localIdentifier)", "mediaType=\(mediaType.rawValue)/\(mediaSubtypes.rawValue)"]
        parts.append("\(pixelWidth)x\(pixelHeight)")
        if let creationDate { parts.append("creationDate=\(creationDate)") }
        if isFavorite { parts.append("favorite") }
        if isHidden { parts.append("hidden") }
        return parts.joined(separator: " ") + ">"
    }
}

extension CLLocation {
    convenience init(record: LocationRecord) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: record.latitude, longitude: record.longitude),
            altitude: record.altitude ?? 0, horizontalAccuracy: record.horizontalAccuracy ?? 0,
            verticalAccuracy: record.altitude == nil ? -1 : (record.verticalAccuracy ?? 0),
            timestamp: record.timestamp ?? Date(timeIntervalSince1970: 0))
    }

    var record: LocationRecord {
        LocationRecord(
            latitude: coordinate.latitude, longitude: coordinate.longitude,
            altitude: verticalAccuracy < 0 ? nil : altitude,
            horizontalAccuracy: horizontalAccuracy < 0 ? nil : horizontalAccuracy,
            verticalAccuracy: verticalAccuracy < 0 ? nil : verticalAccuracy, timestamp: timestamp)
    }
}
