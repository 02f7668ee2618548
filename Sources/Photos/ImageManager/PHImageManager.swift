public import Foundation
import Imaging
import PhotosStore
import PhotosLocking

/// Loads images of assets at any size: decoded with shrink-on-load, upright, sRGB, cached in
/// memory and shared by requests.
///
/// Delivery follows Apple's contract (see ``PHImageRequestOptionsDeliveryMode``):
/// `.opportunistic` delivers a degraded image first when the final one is not cached and a
/// cheaper one is at hand, then the final one; `.highQualityFormat` exactly one final image,
/// never a degraded one; `.fastFormat` exactly one, the cheaper one (marked degraded) when at
/// hand, else the final one. `isSynchronous` delivers exactly one image on the calling thread
/// before returning (with `.fastFormat` the cheaper one when at hand, else the final one).
///
/// The cheaper image is another, smaller size of the same asset in the memory cache, else the
/// thumbnail the file itself carries (a JPEG's EXIF IFD1 thumbnail, a HEIC's `thmb` item, a
/// RAW's smallest preview; see `EmbeddedThumbnail`), read without decoding the photo, upright,
/// centre-cropped to an `aspectFill` target, scaled down to the target but never up: as on
/// Apple's platforms the degraded image may be much smaller than asked (160 × 120 is common).
/// Linux differences: a file without an embedded thumbnail (a scan, a PNG, an edit's render)
/// has no degraded image, so `.opportunistic` then delivers only the final one and
/// `.fastFormat` renders it; requests with a `normalizedCropRect`, for videos, and for remote
/// originals not fetched yet get no embedded thumbnail. Identical requests in flight share one decode; decodes
/// run on a pool the size of the machine's cores; cancelling stops a decode nobody else waits
/// for.
///
/// Linux: result handlers of asynchronous requests run on the manager's ``deliveryQueue``, a
/// serial background queue unless set (Apple calls them on the main thread; a server has no
/// main run loop to wait on); set it to `DispatchQueue.main` where the process runs the main
/// queue. Handlers of one request run in order. Handlers are declared as Apple declares them,
/// without `@Sendable`. As on Apple platforms,
/// an `.opportunistic` request whose image is already in memory is answered synchronously,
/// before `requestImage` returns, on the calling thread, unless that is the main thread.
public class PHImageManager: NSObject, @unchecked Sendable {
    // @unchecked Sendable: the request table sits behind a Mutex; the rest is immutable.
    private static let shared = PHImageManager()

    /// Where asynchronous requests' result handlers are called: a serial background queue of
    /// the manager's own unless set.
    ///
    /// Linux addition. Apple calls image handlers on the main thread; set this to
    /// `DispatchQueue.main` to do the same, in a process that runs the main queue (an `async`
    /// main, `dispatchMain()` or a run loop), for ported code whose handlers update main-actor
    /// state. Set it before making requests: each delivery goes to the queue set at that time.
    public var deliveryQueue: DispatchQueue {
        get { deliveryQueueSetting.withLock { $0 } }
        set { deliveryQueueSetting.withLock { $0 = newValue } }
    }
    private let deliveryQueueSetting: Mutex<DispatchQueue>

    private struct Pending {
        var key: ImageKey
        /// The loader of the asset's library, which renders it.
        var loader: ImageLoader
        var handler: ResultHandler
    }

    /// Asynchronous requests waiting for their final image.
    private let requests = Mutex<[PHImageRequestID: Pending]>([:])
    /// Video and Live Photo requests in flight.
    let mediaRequests = MediaRequests()
    private static let nextRequestID = Atomic<Int32>(1)

    /// The options of a request that passes none (never modified).
    private static let defaultOptions = PHImageRequestOptions()

    /// A new request identifier, never `PHInvalidImageRequestID`.
    static func makeRequestID() -> PHImageRequestID {
        while true {
            let id = nextRequestID.wrappingAdd(1, ordering: .relaxed).oldValue
            if id > 0 { return id }
        }
    }

    /// The shared manager.
    public class func `default`() -> PHImageManager { shared }

    public override init() {
        deliveryQueueSetting = Mutex(DispatchQueue(label: "PHImageManager.delivery", qos: .userInitiated))
        super.init()
    }

    /// Requests an image of `asset` for `targetSize` pixels (``PHImageManagerMaximumSize`` for
    /// the full size); `resultHandler` gets the image and an info dictionary with Apple's keys
    /// (``PHImageResultIsDegradedKey``, ``PHImageResultRequestIDKey``, ``PHImageErrorKey``,
    /// ``PHImageCancelledKey``, ``PHImageResultIsInCloudKey``).
    @discardableResult
    public func requestImage(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?,
        resultHandler: @escaping (UIImage?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let resultHandler = ResultHandler(resultHandler)
        // Read now, never after returning: no copy needed (a memory-cache hit allocates nothing more).
        let options = options ?? Self.defaultOptions
        let requestID = Self.makeRequestID()
        let plan: ImageRequestPlan
        do throws(PHPhotosError) {
            plan = try ImageRequestPlan(asset: asset, targetSize: targetSize, contentMode: contentMode, options: options)
        } catch {
            deliver(nil, info: Self.info(requestID, degraded: false, error: error), synchronously: options.isSynchronous, resultHandler)
            return requestID
        }
        if options.isSynchronous {
            requestSynchronously(plan, requestID: requestID, options: options, resultHandler: resultHandler)
            return requestID
        }
        let loader = plan.loader
        if let cached = loader.cache.image(for: plan.key) {
            // As on Apple platforms, an opportunistic request whose image is in memory gets it
            // before `requestImage` returns, on the calling thread (unless that is the main thread).
            let now = options.deliveryMode == .opportunistic && !Thread.isMainThread
            deliver(cached, info: Self.info(requestID, degraded: false), synchronously: now, resultHandler)
            return requestID
        }
        if options.deliveryMode != .highQualityFormat {
            if let standIn = plan.degradedImage() {
                deliver(standIn, info: Self.info(requestID, degraded: true), synchronously: false, resultHandler)
                if options.deliveryMode == .fastFormat { return requestID }
            } else if plan.mayHaveEmbeddedThumbnail {
                // The file's own thumbnail is read first (a millisecond), then the render starts:
                // the degraded image always comes before the final one.
                requests.withLock { $0[requestID] = Pending(key: plan.key, loader: loader, handler: resultHandler) }
                let fast = options.deliveryMode == .fastFormat
                Self.embeddedQueue.async { [weak self] in
                    let found = plan.embeddedDegradedImage()
                    guard let self else { return }
                    let pending = self.requests.withLock { requests -> Bool in
                        guard requests[requestID] != nil else { return false }  // cancelled
                        if let found {
                            self.deliver(found, info: Self.info(requestID, degraded: true), synchronously: false, resultHandler)
                            if fast { requests[requestID] = nil }
                        }
                        return !(fast && found != nil)
                    }
                    // `.fastFormat` renders only when the file carries no thumbnail.
                    if pending { self.startLoad(plan, requestID: requestID, resultHandler: resultHandler) }
                }
                return requestID
            }
        }
        requests.withLock { $0[requestID] = Pending(key: plan.key, loader: loader, handler: resultHandler) }
        startLoad(plan, requestID: requestID, resultHandler: resultHandler)
        return requestID
    }

    /// Where embedded thumbnails are read for asynchronous requests (a file read and a small
    /// decode each, so not on the caller's thread nor the render pool).
    private static let embeddedQueue = DispatchQueue(label: "PHImageManager.embedded", qos: .userInitiated, attributes: .concurrent)

    /// Renders (or joins the render of) a pending request's final image and delivers it.
    private func startLoad(_ plan: ImageRequestPlan, requestID: PHImageRequestID, resultHandler: ResultHandler) {
        plan.loader.load(plan.key, requestID: requestID, priority: .visible, render: plan.render) { [weak self] result in
            guard let self else { return }
            let wanted = self.requests.withLock { $0.removeValue(forKey: requestID) != nil }
            guard wanted else { return }
            switch result {
            case .success(let image):
                self.deliver(image, info: Self.info(requestID, degraded: false), synchronously: false, resultHandler)
            case .failure(let error):
                self.deliver(nil, info: Self.info(requestID, degraded: false, error: error), synchronously: false, resultHandler)
            }
        }
    }

    private func requestSynchronously(
        _ plan: ImageRequestPlan, requestID: PHImageRequestID, options: PHImageRequestOptions,
        resultHandler: ResultHandler
    ) {
        let cache = plan.loader.cache
        if let cached = cache.image(for: plan.key) {
            resultHandler.call(cached, Self.info(requestID, degraded: false))
            return
        }
        if options.deliveryMode == .fastFormat, let standIn = plan.degradedImage() ?? plan.embeddedDegradedImage() {
            resultHandler.call(standIn, Self.info(requestID, degraded: true))
            return
        }
        do throws(PHPhotosError) {
            let image = try plan.render()
            cache.insert(image, for: plan.key)
            resultHandler.call(image, Self.info(requestID, degraded: false))
        } catch {
            resultHandler.call(nil, Self.info(requestID, degraded: false, error: error))
        }
    }

    /// Cancels a request: a decode nobody else waits for stops before it starts, and the
    /// handler is called once more with ``PHImageCancelledKey`` (unless the final image was
    /// already delivered). Synchronous requests can't be cancelled. Video, export-session and
    /// Live Photo requests are cancelled the same way (a download or render in progress stops).
    public func cancelImageRequest(_ requestID: PHImageRequestID) {
        if mediaRequests.cancel(requestID) { return }
        guard let pending = requests.withLock({ $0.removeValue(forKey: requestID) }) else { return }
        pending.loader.cancel(requestID: requestID, key: pending.key)
        var info = Self.info(requestID, degraded: false)
        info[PHImageCancelledKey] = NSNumber(value: true)
        deliver(nil, info: info, synchronously: false, pending.handler)
    }

    // MARK: Delivery

    static func info(_ requestID: PHImageRequestID, degraded: Bool, error: PHPhotosError? = nil) -> [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [
            PHImageResultRequestIDKey: NSNumber(value: requestID),
            PHImageResultIsDegradedKey: NSNumber(value: degraded),
            PHImageResultIsInCloudKey: NSNumber(value: false),
        ]
        if let error {
            info[PHImageErrorKey] = error
            // Not on this machine: Apple's "in iCloud" flag, for any remote store.
            if error.code == .networkAccessRequired || error.code == .networkError { info[PHImageResultIsInCloudKey] = NSNumber(value: true) }
        }
        return info
    }

    private func deliver(
        _ image: UIImage?, info: [AnyHashable: Any], synchronously: Bool,
        _ handler: ResultHandler
    ) {
        if synchronously {
            handler.call(image, info)
            return
        }
        let info = UncheckedInfo(value: info)
        deliveryQueue.async { handler.call(image, info.value) }
    }
}

/// A request's result handler on its way to the delivery queue.
///
/// Apple declares the handlers of `PHImageManager` without `@Sendable` (they run on the main
/// thread there), so app code may hand in closures that capture ordinary state.
struct ResultHandler: @unchecked Sendable {
    // @unchecked Sendable: the closure is only ever called, one delivery at a time (on the
    // manager's serial delivery queue, or on the caller's thread before `requestImage` returns),
    // never run concurrently with itself; what it captures is the caller's to guard, as on
    // Apple's platforms.
    let call: (UIImage?, [AnyHashable: Any]?) -> Void
    init(_ call: @escaping (UIImage?, [AnyHashable: Any]?) -> Void) { self.call = call }
}

/// An info dictionary crossing to the delivery queue (its values are NSNumbers and errors).
struct UncheckedInfo: @unchecked Sendable {
    let value: [AnyHashable: Any]
}
