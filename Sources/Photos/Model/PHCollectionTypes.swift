/// The kind of an asset collection. Raw values are Apple's.
public enum PHAssetCollectionType: Int, Sendable, CaseIterable {
    case album = 1
    case smartAlbum = 2
    /// Moments are deprecated on Apple's platforms since iOS 13, and still fetchable; here they
    /// are kept up to date as assets arrive.
    case moment = 3
}

/// The subtype of an asset collection. Raw values are Apple's (clients compare them).
///
/// Linux: every smart album below exists in every library; membership is computed from asset
/// metadata. `.smartAlbumGeneric` is the HDR album (Apple has no HDR subtype). The synced,
/// shared and streamed album subtypes exist for source compatibility; nothing creates them.
public enum PHAssetCollectionSubtype: Int, Sendable, CaseIterable {
    case albumRegular = 2
    case albumSyncedEvent = 3
    case albumSyncedFaces = 4
    case albumSyncedAlbum = 5
    case albumImported = 6
    case albumMyPhotoStream = 100
    case albumCloudShared = 101
    case smartAlbumGeneric = 200
    case smartAlbumPanoramas = 201
    case smartAlbumVideos = 202
    case smartAlbumFavorites = 203
    case smartAlbumTimelapses = 204
    case smartAlbumAllHidden = 205
    case smartAlbumRecentlyAdded = 206
    case smartAlbumBursts = 207
    case smartAlbumSlomoVideos = 208
    case smartAlbumUserLibrary = 209
    case smartAlbumSelfPortraits = 210
    case smartAlbumScreenshots = 211
    case smartAlbumDepthEffect = 212
    case smartAlbumLivePhotos = 213
    case smartAlbumAnimated = 214
    case smartAlbumLongExposures = 215
    case smartAlbumUnableToUpload = 216
    case smartAlbumRAW = 217
    case smartAlbumCinematic = 218
    case smartAlbumSpatial = 219
    case smartAlbumScreenRecordings = 220
    /// Matches every subtype in a fetch.
    case any = 9_223_372_036_854_775_807
}

/// The kind of a collection list. Raw values are Apple's.
public enum PHCollectionListType: Int, Sendable, CaseIterable {
    /// Moment clusters and years (deprecated on Apple's platforms since iOS 13).
    case momentList = 1
    case folder = 2
    case smartFolder = 3
}

/// The subtype of a collection list. Raw values are Apple's.
public enum PHCollectionListSubtype: Int, Sendable, CaseIterable {
    case momentListCluster = 1
    case momentListYear = 2
    case regularFolder = 100
    case smartFolderEvents = 200
    case smartFolderFaces = 201
    /// Matches every subtype in a fetch.
    case any = 9_223_372_036_854_775_807
}

/// The kinds of edit ``PHCollection/canPerform(_:)`` answers for.
public enum PHCollectionEditOperation: Int, Sendable, CaseIterable {
    case deleteContent = 1
    case removeContent = 2
    case addContent = 3
    case createContent = 4
    case rearrangeContent = 5
    case delete = 6
    case rename = 7
}
