public import Foundation
import Imaging
import PhotosLocking

/// How an image fits a target size. Raw values are Apple's.
public enum PHImageContentMode: Int, Sendable, CaseIterable {
    case aspectFit = 0
    case aspectFill = 1
    public static let `default` = PHImageContentMode.aspectFit
}

/// Identifies a `PHLivePhoto.request(...)` so it can be cancelled.
public typealias PHLivePhotoRequestID = Int32
public let PHLivePhotoRequestIDInvalid: PHLivePhotoRequestID = 0
/// Info key: the `Error` that stopped a Live Photo request.
public let PHLivePhotoInfoErrorKey = "PHLivePhotoInfoErrorKey"
/// Info key: `true` when the delivered Live Photo is a low-quality stand-in.
public let PHLivePhotoInfoIsDegradedKey = "PHLivePhotoInfoIsDegradedKey"
/// Info key: `true` when the request was cancelled.
public let PHLivePhotoInfoCancelledKey = "PHLivePhotoInfoCancelledKey"

/// A Live Photo: a still photo and the short video around it, shown together.
///
/// Linux: a value naming its two files and the photo's size. ``request(withResourceFileURLs:placeholderImage:targetSize:contentMode:resultHandler:)``
/// checks the files (one photo, one video) and delivers on a background queue. Playback
/// belongs to a UI, which Linux servers don't have; the web gallery plays the paired video.
public final class PHLivePhoto: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    /// The size of the still photo, in pixels.
    public let size: CGSize
    /// The still photo's file.
    let photoURL: URL
    /// The paired video's file.
    let videoURL: URL
    /// The library asset it was requested for, if any.
    let assetLocalIdentifier: String?

    init(size: CGSize, photoURL: URL, videoURL: URL, assetLocalIdentifier: String? = nil) {
        self.size = size
        self.photoURL = photoURL
        self.videoURL = videoURL
        self.assetLocalIdentifier = assetLocalIdentifier
        super.init()
    }

    private static let requests = Mutex<(next: Int32, cancelled: Set<Int32>)>((1, []))

    /// Makes a Live Photo from a photo file and a video file (in either order). The handler
    /// runs once with the Live Photo (or `nil` and `PHLivePhotoInfoErrorKey`); when a
    /// `placeholderImage` is given it runs first with `nil` and `PHLivePhotoInfoIsDegradedKey`
    /// set, as Apple's delivers the placeholder first. `targetSize` and `contentMode` don't
    /// change the result here.
    @discardableResult
    public class func request(
        withResourceFileURLs fileURLs: [URL], placeholderImage image: UIImage?, targetSize: CGSize,
        contentMode: PHImageContentMode, resultHandler: @escaping (PHLivePhoto?, [AnyHashable: Any]) -> Void
    ) -> PHLivePhotoRequestID {
        let id = requests.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        // Apple's handler is not @Sendable; its calls are made in order from this one task.
        let handler = UncheckedSendable(resultHandler)
        DispatchQueue.global().async {
            let resultHandler = handler.value
            if image != nil { resultHandler(nil, [PHLivePhotoInfoIsDegradedKey: true]) }
            if requests.withLock({ $0.cancelled.remove(id) != nil }) {
                resultHandler(nil, [PHLivePhotoInfoCancelledKey: true])
                return
            }
            switch make(fileURLs) {
            case .success(let livePhoto): resultHandler(livePhoto, [PHLivePhotoInfoIsDegradedKey: false])
            case .failure(let error): resultHandler(nil, [PHLivePhotoInfoErrorKey: error])
            }
        }
        return id
    }

    /// Cancels a request that hasn't delivered yet; its handler gets `PHLivePhotoInfoCancelledKey`.
    public class func cancelRequest(withRequestID requestID: PHLivePhotoRequestID) {
        _ = requests.withLock { $0.cancelled.insert(requestID) }
    }

    static func make(_ fileURLs: [URL]) -> Result<PHLivePhoto, PHPhotosError> {
        var photo: (URL, MediaMetadata)?
        var video: URL?
        for url in fileURLs {
            do {
                let metadata = try MediaProbe.probe(fileAt: url)
                if metadata.format.isVideo { video = url } else { photo = (url, metadata) }
            } catch {
                return .failure(PHPhotosError(.invalidResource, "Can't use \(url.path) in a Live Photo: \(error)"))
            }
        }
        guard let photo, let video, fileURLs.count == 2 else {
            return .failure(PHPhotosError(.invalidResource, "A Live Photo needs exactly one photo and one video file, got \(fileURLs.map(\.lastPathComponent))"))
        }
        let size = CGSize(width: photo.1.orientedPixelWidth, height: photo.1.orientedPixelHeight)
        return .success(PHLivePhoto(size: size, photoURL: photo.0, videoURL: video))
    }

    // MARK: - NSCopying, NSSecureCoding

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(Double(size.width), forKey: "width")
        coder.encode(Double(size.height), forKey: "height")
        coder.encode(photoURL.path, forKey: "photo")
        coder.encode(videoURL.path, forKey: "video")
    }

    public convenience init?(coder: NSCoder) {
        guard let photo = coder.decodeObject(forKey: "photo") as? String, let video = coder.decodeObject(forKey: "video") as? String else {
            return nil
        }
        self.init(
            size: CGSize(width: coder.decodeDouble(forKey: "width"), height: coder.decodeDouble(forKey: "height")),
            photoURL: URL(fileURLWithPath: photo), videoURL: URL(fileURLWithPath: video))
    }
}

extension PHAsset {
    /// How a Live Photo plays back (header-level enum of Apple's SDK).
    public enum PlaybackVariation: Int, Sendable, CaseIterable {
        case none = 0
        case loop = 1
        case bounce = 2
        case longExposure = 3
    }

    /// Who adjusted an asset (header-level enum of Apple's SDK).
    public enum AdjustmentsState: Int, Sendable, CaseIterable {
        case none = 0
        case userAdjusted = 1
        case cameraAutoAdjusted = 2
    }
}
