/// The EXIF orientation of image data: how to turn the stored pixels to show them upright.
/// Raw values are the EXIF (and Apple's) values.
///
/// Linux: ImageIO is not available; this enum stands in for ImageIO's `CGImagePropertyOrientation`
/// (with Core Graphics here, where Core Image's `oriented(_:)` and PhotoKit both find it).
public enum CGImagePropertyOrientation: UInt32, Sendable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8
}
