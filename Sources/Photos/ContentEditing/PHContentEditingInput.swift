public import CoreLocation
public import Foundation
public import UniformTypeIdentifiers

/// Identifies a content-editing input request so it can be cancelled.
public typealias PHContentEditingInputRequestID = Int

/// Info key: `true` when the original is not on this machine and network access was not allowed.
public let PHContentEditingInputResultIsInCloudKey = "PHContentEditingInputResultIsInCloudKey"
/// Info key: `true` when the request was cancelled.
public let PHContentEditingInputCancelledKey = "PHContentEditingInputCancelledKey"
/// Info key: the `Error` that stopped the request.
public let PHContentEditingInputErrorKey = "PHContentEditingInputErrorKey"

/// Options for ``PHAsset/requestContentEditingInput(with:completionHandler:)``.
public final class PHContentEditingInputRequestOptions: NSObject, @unchecked Sendable {
    // @unchecked Sendable: configured before the request starts.
    /// Whether the editor can resume an edit made in this format: if so, the input is the
    /// unedited image with the stored adjustment data; if not, the current rendered image.
    ///
    /// Linux: called on a background queue (Apple's calls it on the main thread).
    public var canHandleAdjustmentData: (PHAdjustmentData) -> Bool = { _ in false }
    public var isNetworkAccessAllowed = false
    public var progressHandler: ((Double, UnsafeMutablePointer<ObjCBool>) -> Void)?

    public override init() {
        super.init()
    }
}

/// What an editor starts from: an image file or a movie (the original, or the current
/// version) and, when it resumes an edit, the adjustment data of that edit.
public final class PHContentEditingInput: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    public let mediaType: PHAssetMediaType
    public let mediaSubtypes: PHAssetMediaSubtype
    public let creationDate: Date?
    public let location: CLLocation?
    public let uniformTypeIdentifier: String?
    /// The type of the file to edit (``fullSizeImageURL``'s, or the movie's): ``uniformTypeIdentifier``
    /// as a `UTType`; `.image` or `.movie` when it names no type the table declares.
    public var contentType: UTType {
        uniformTypeIdentifier.flatMap { UTType($0) } ?? (mediaType == .video ? .movie : .image)
    }
    public let playbackStyle: PHAsset.PlaybackStyle
    /// The adjustment data to resume, or nil (the image is the current version then).
    public let adjustmentData: PHAdjustmentData?
    /// The image to edit, full size: the original when resuming, else the current version;
    /// nil for a video (see ``audiovisualAsset``).
    public let fullSizeImageURL: URL?
    /// The EXIF orientation of `fullSizeImageURL`'s pixels.
    public let fullSizeImageOrientation: Int32
    /// The same image at display size (fits 1440 × 1440), upright; nil for a video.
    public let displaySizeImage: UIImage?
    /// For a video: the movie to edit (the original when resuming, else the current
    /// version), as an `AVURLAsset`; nil for photos.
    public let audiovisualAsset: AVAsset?
    /// For a Live Photo: its still and movie in the version to edit (see
    /// ``PHLivePhotoEditingContext``); nil for other assets.
    public let livePhoto: PHLivePhoto?

    /// The asset it was made for.
    let assetUUID: String

    init(
        asset: PHAsset, adjustmentData: PHAdjustmentData?, fullSizeImageURL: URL?, orientation: Int32, displaySizeImage: UIImage?,
        uniformTypeIdentifier: String?, audiovisualAsset: AVAsset? = nil, livePhoto: PHLivePhoto? = nil
    ) {
        self.audiovisualAsset = audiovisualAsset
        self.livePhoto = livePhoto
        mediaType = asset.mediaType
        mediaSubtypes = asset.mediaSubtypes
        creationDate = asset.creationDate
        location = asset.location
        playbackStyle = asset.playbackStyle
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.adjustmentData = adjustmentData
        self.fullSizeImageURL = fullSizeImageURL
        fullSizeImageOrientation = orientation
        self.displaySizeImage = displaySizeImage
        assetUUID = asset.uuid
        super.init()
    }
}
