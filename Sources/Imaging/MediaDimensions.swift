/// The sizes of image and video this library accepts: a photo it can't show in a grid cell or a
/// detail view is refused when it is probed, not accepted and drawn as a blank.
///
/// Linux addition. The limits:
/// - **At least 1 × 1.** A zero side is damage.
/// - **An aspect ratio of at most 100 : 1** (either way). The widest real photos are stitched
///   panoramas, about 10 : 1 (a 360° phone panorama is 4 : 1 to 8 : 1); a scrolling screenshot
///   reaches 30 : 1. Beyond 100 : 1 a square grid thumbnail would have to scale one side by
///   more than 100 against the other, and a header claiming 1 × 2,000,000 or 100,000 × 1
///   pixels is a damaged or hostile file (libpng's own default limit is 1,000,000 pixels a side).
/// - The pixel count is limited at import by `PHAssetImporter.Options.maximumPixelCount` (250
///   megapixels; sharp's default `limitInputPixels` is 268 MP), a decompression-bomb limit that
///   admits the largest phone sensors (200 MP).
public enum MediaDimensions {
    /// The widest aspect ratio accepted, long side over short side.
    public static let maximumAspectRatio = 100

    /// Why `width` × `height` pixels can't be shown, or `nil` when they can.
    public static func problem(width: Int, height: Int) -> String? {
        guard width >= 1, height >= 1 else { return "a side of 0 pixels" }
        let long = max(width, height), short = min(width, height)
        if long > short * maximumAspectRatio {
            return "an aspect ratio of \(long / short) : 1, more than the \(maximumAspectRatio) : 1 this library shows"
        }
        return nil
    }
}
