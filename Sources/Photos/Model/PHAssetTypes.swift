/// The type of an asset's media. Raw values are Apple's.
public enum PHAssetMediaType: Int, Sendable, CaseIterable {
    case unknown = 0
    case image = 1
    case video = 2
    case audio = 3
}

/// Refinements of an asset's media type. Bit values are Apple's, so predicates such as
/// `(mediaSubtypes & %d) != 0` work unchanged.
///
/// Linux: the importer sets the bits it can read from the files (screenshots, Live Photo
/// pairs, high-frame-rate video, ...); bits Apple derives from its camera pipeline alone stay
/// unset unless a change request or importer sets them.
public struct PHAssetMediaSubtype: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let photoPanorama = PHAssetMediaSubtype(rawValue: 1 << 0)
    public static let photoHDR = PHAssetMediaSubtype(rawValue: 1 << 1)
    public static let photoScreenshot = PHAssetMediaSubtype(rawValue: 1 << 2)
    public static let photoLive = PHAssetMediaSubtype(rawValue: 1 << 3)
    public static let photoDepthEffect = PHAssetMediaSubtype(rawValue: 1 << 4)
    public static let photoAnimation = PHAssetMediaSubtype(rawValue: 1 << 6)
    public static let spatialMedia = PHAssetMediaSubtype(rawValue: 1 << 10)
    public static let videoStreamed = PHAssetMediaSubtype(rawValue: 1 << 16)
    public static let videoHighFrameRate = PHAssetMediaSubtype(rawValue: 1 << 17)
    public static let videoTimelapse = PHAssetMediaSubtype(rawValue: 1 << 18)
    public static let videoScreenRecording = PHAssetMediaSubtype(rawValue: 1 << 19)
    public static let videoCinematic = PHAssetMediaSubtype(rawValue: 1 << 21)
}

/// Where an asset comes from. Every asset created on Linux is `.typeUserLibrary`.
public struct PHAssetSourceType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let typeUserLibrary = PHAssetSourceType(rawValue: 1 << 0)
    public static let typeCloudShared = PHAssetSourceType(rawValue: 1 << 1)
    public static let typeiTunesSynced = PHAssetSourceType(rawValue: 1 << 2)
}

/// How an asset is marked within its burst sequence.
public struct PHAssetBurstSelectionType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let autoPick = PHAssetBurstSelectionType(rawValue: 1 << 0)
    public static let userPick = PHAssetBurstSelectionType(rawValue: 1 << 1)
}

/// The kinds of edit ``PHAsset/canPerform(_:)`` answers for.
public enum PHAssetEditOperation: Int, Sendable, CaseIterable {
    case delete = 1
    case content = 2
    case properties = 3
}

/// The kinds of file an asset keeps (``PHAssetResource/type``). Raw values are Apple's.
public enum PHAssetResourceType: Int, Sendable, CaseIterable {
    case photo = 1
    case video = 2
    case audio = 3
    case alternatePhoto = 4
    case fullSizePhoto = 5
    case fullSizeVideo = 6
    case adjustmentData = 7
    case adjustmentBasePhoto = 8
    case pairedVideo = 9
    case fullSizePairedVideo = 10
    case adjustmentBasePairedVideo = 11
    case adjustmentBaseVideo = 12
    case photoProxy = 19
}

extension PHAsset {
    /// How an asset should be presented: which request API a viewer should use.
    public enum PlaybackStyle: Int, Sendable, CaseIterable {
        case unsupported = 0
        case image = 1
        case imageAnimated = 2
        case livePhoto = 3
        case video = 4
        case videoLooping = 5
    }
}
