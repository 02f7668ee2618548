public import Foundation
import PhotosLocking

/// An image manager that also prepares images ahead of need: a gallery starts caching the
/// images around the visible ones (and stops as it scrolls away), so requesting them later
/// returns from memory without decoding.
///
/// Preheated images are keyed exactly as requests are (asset, target size, content mode and
/// options, as on Apple platforms): a later request hits only with the same arguments. They are
/// decoded at a lower priority than requests for visible images, on the same pool.
///
/// Linux: preheated images live in the memory cache of the asset's library, which every manager
/// shares (bounded by bytes, least recently used first out), not in a per-manager store;
/// `stopCachingImages` drops preheats that have not started and leaves decoded images to the
/// cache's eviction.
public class PHCachingImageManager: PHImageManager, @unchecked Sendable {
    // @unchecked Sendable: the preheated set sits behind a Mutex.
    /// Apple: prepare high-quality images (true, the default) or faster, lower-quality ones.
    /// Linux: images are always decoded with shrink-on-load at the size asked for, which is both;
    /// the value is kept but changes nothing.
    public var allowsCachingHighQualityImages = true

    /// Preheats this manager started and not stopped: how many times, and which loader runs them.
    private let preheated = Mutex<[ImageKey: (loader: ImageLoader, count: Int)]>([:])

    public override init() {
        super.init()
    }

    /// Starts preparing images of `assets` for requests with these arguments. Assets whose
    /// images can't be made (videos, missing files) are skipped; their requests report why.
    public func startCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?
    ) {
        for plan in Self.plans(for: assets, targetSize: targetSize, contentMode: contentMode, options: options) {
            preheated.withLock { $0[plan.key, default: (plan.loader, 0)].count += 1 }
            plan.loader.preheat(plan.key, render: plan.render)
        }
    }

    /// Stops preparing images of `assets` for these arguments (a decode already running
    /// finishes and stays cached).
    public func stopCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?
    ) {
        for plan in Self.plans(for: assets, targetSize: targetSize, contentMode: contentMode, options: options) {
            let held = preheated.withLock { preheated -> Bool in
                guard let held = preheated[plan.key] else { return false }
                preheated[plan.key] = held.count > 1 ? (held.loader, held.count - 1) : nil
                return true
            }
            if held { plan.loader.stopPreheating(plan.key) }
        }
    }

    /// Whether this manager is preparing (or has prepared and not stopped) the image of
    /// `asset` for these arguments. For tests.
    func isCaching(_ asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?) -> Bool {
        guard let plan = Self.plans(for: [asset], targetSize: targetSize, contentMode: contentMode, options: options).first else {
            return false
        }
        return preheated.withLock { $0[plan.key] != nil }
    }

    /// The request plans (keys and renders) for these arguments, leaving out assets whose
    /// images can't be made.
    private static func plans(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?
    ) -> [ImageRequestPlan] {
        let options = (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions()
        // try?: an asset whose image can't be made is not prepared; a request for it reports why.
        return assets.compactMap { try? ImageRequestPlan(asset: $0, targetSize: targetSize, contentMode: contentMode, options: options) }
    }

    /// Stops every preparation this manager started.
    public func stopCachingImagesForAllAssets() {
        let held = preheated.withLock { preheated in
            defer { preheated.removeAll() }
            return preheated
        }
        for (key, held) in held {
            for _ in 0..<held.count { held.loader.stopPreheating(key) }
        }
    }
}
