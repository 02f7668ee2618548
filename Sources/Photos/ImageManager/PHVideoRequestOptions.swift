public import Foundation

/// Which version of a video to deliver. Raw values are Apple's.
public enum PHVideoRequestOptionsVersion: Int, Sendable, CaseIterable {
    /// With edits applied (the rendered movie of the last edit).
    case current = 0
    /// The original movie, whatever its edits.
    case original = 1
}

/// Which file of a video to deliver. Raw values are Apple's.
///
/// Linux: Apple picks among streams of different quality kept in iCloud. Here
/// `.automatic` and `.highQualityFormat` deliver the version's own file; `.mediumQualityFormat`
/// and `.fastFormat` deliver the library's browser rendition (H.264/AAC MP4, at most 1080p)
/// when one has been made and the version asked for is the current one, else the same file.
public enum PHVideoRequestOptionsDeliveryMode: Int, Sendable, CaseIterable {
    case automatic = 0
    case highQualityFormat = 1
    case mediumQualityFormat = 2
    case fastFormat = 3
}

/// Called while a video's original is downloaded from a remote store: progress 0...1, an
/// error, a flag to stop, info.
public typealias PHAssetVideoProgressHandler = (Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void

/// Options for ``PHImageManager``'s video requests. Copied when a request starts.
public class PHVideoRequestOptions: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: configured before use and copied when a request starts.
    public var version: PHVideoRequestOptionsVersion = .current
    public var deliveryMode: PHVideoRequestOptionsDeliveryMode = .automatic
    /// Fetch originals kept in a remote store; without it such a request fails with
    /// `PHPhotosError.Code.networkAccessRequired` and ``PHImageResultIsInCloudKey``.
    public var isNetworkAccessAllowed = false
    /// Progress of a download of the original; not called for local files.
    public var progressHandler: PHAssetVideoProgressHandler?

    public override init() {
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHVideoRequestOptions()
        copy.version = version
        copy.deliveryMode = deliveryMode
        copy.isNetworkAccessAllowed = isNetworkAccessAllowed
        copy.progressHandler = progressHandler
        return copy
    }
}

/// Options for ``PHImageManager/requestLivePhoto(for:targetSize:contentMode:options:resultHandler:)``.
/// Copied when a request starts.
public class PHLivePhotoRequestOptions: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: configured before use and copied when a request starts.
    /// `.current` pairs the edited still with the edited movie; `.unadjusted` and `.original`
    /// the originals.
    public var version: PHImageRequestOptionsVersion = .current
    /// Linux: every mode delivers one final Live Photo (its files are at hand; there is no
    /// lower-quality stand-in to show first).
    public var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
    public var isNetworkAccessAllowed = false
    public var progressHandler: PHAssetImageProgressHandler?

    public override init() {
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHLivePhotoRequestOptions()
        copy.version = version
        copy.deliveryMode = deliveryMode
        copy.isNetworkAccessAllowed = isNetworkAccessAllowed
        copy.progressHandler = progressHandler
        return copy
    }
}
