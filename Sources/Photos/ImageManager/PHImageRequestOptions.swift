public import Foundation

/// Identifies an image request so it can be cancelled; `PHInvalidImageRequestID` (0) is never
/// handed out.
public typealias PHImageRequestID = Int32
public let PHInvalidImageRequestID: PHImageRequestID = 0

/// Asks for the largest image available (the full-size original or rendered edit);
/// `resizeMode` is then ignored.
public let PHImageManagerMaximumSize = CGSize(width: -1, height: -1)

/// Info key: `true` (`NSNumber`) when the delivered image is a low-quality stand-in and a
/// better one follows.
public let PHImageResultIsDegradedKey = "PHImageResultIsDegradedKey"
/// Info key: `true` when the original is not on this machine (a remote store) and
/// `isNetworkAccessAllowed` was false.
public let PHImageResultIsInCloudKey = "PHImageResultIsInCloudKey"
/// Info key: the request's `PHImageRequestID` (`NSNumber`).
public let PHImageResultRequestIDKey = "PHImageResultRequestIDKey"
/// Info key: `true` when the request was cancelled.
public let PHImageCancelledKey = "PHImageCancelledKey"
/// Info key: the `Error` (a ``PHPhotosError``) that stopped the request.
public let PHImageErrorKey = "PHImageErrorKey"

/// Which version of an asset's image to deliver. Raw values are Apple's.
public enum PHImageRequestOptionsVersion: Int, Sendable, CaseIterable {
    /// With edits applied.
    case current = 0
    /// Without edits: the original, upright.
    case unadjusted = 1
    /// The original file's image, whatever its edits.
    case original = 2
}

/// How many images a request delivers. Raw values are Apple's.
public enum PHImageRequestOptionsDeliveryMode: Int, Sendable, CaseIterable {
    /// A quick degraded image first when the final one isn't cached (a smaller size in memory,
    /// or the thumbnail embedded in the file: may be much smaller than asked), then the final one.
    case opportunistic = 0
    /// Exactly one image, of the requested quality.
    case highQualityFormat = 1
    /// Exactly one image, fast, possibly degraded (a smaller size in memory, or the thumbnail
    /// embedded in the file); the final one only when neither is at hand.
    case fastFormat = 2
}

/// How closely the delivered size follows the target size. Raw values are Apple's.
public enum PHImageRequestOptionsResizeMode: Int, Sendable, CaseIterable {
    /// No resizing: the source as decoded (shrink-on-load may still pick a smaller scale).
    case none = 0
    /// At or a little above the target size, whatever decodes fastest.
    case fast = 1
    /// Exactly the target size (required with `normalizedCropRect`).
    case exact = 2
}

/// Called while an original is downloaded: progress 0...1, an error, a flag to stop, info.
///
/// Linux: called on a background serial queue, as on Apple's platforms.
public typealias PHAssetImageProgressHandler = (Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void

/// Options for ``PHImageManager`` requests. Copied when a request starts, so changing them
/// afterwards has no effect on it.
public class PHImageRequestOptions: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: configured before use and copied when a request starts.
    public var version: PHImageRequestOptionsVersion = .current
    public var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
    public var resizeMode: PHImageRequestOptionsResizeMode = .fast
    /// The part of the image to deliver, in unit coordinates of the upright image (origin top
    /// left); `.zero` for all of it. Only with `resizeMode` `.exact`.
    public var normalizedCropRect: CGRect = .zero
    /// Fetch originals that are not on this machine (see ``PHImageResultIsInCloudKey``).
    public var isNetworkAccessAllowed = false
    /// Deliver exactly one image on the calling thread before returning.
    public var isSynchronous = false
    /// Progress of a download of the original; not called for local originals.
    public var progressHandler: PHAssetImageProgressHandler?
    /// Opportunistic mode may deliver a second, better degraded image before the final one.
    public var allowSecondaryDegradedImage = false

    public override init() {
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHImageRequestOptions()
        copy.version = version
        copy.deliveryMode = deliveryMode
        copy.resizeMode = resizeMode
        copy.normalizedCropRect = normalizedCropRect
        copy.isNetworkAccessAllowed = isNetworkAccessAllowed
        copy.isSynchronous = isSynchronous
        copy.progressHandler = progressHandler
        copy.allowSecondaryDegradedImage = allowSecondaryDegradedImage
        return copy
    }
}
