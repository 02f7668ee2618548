import Imaging

extension UIImage {
    /// How an image's stored pixels are turned to show them upright. Raw values are UIKit's.
    public enum Orientation: Int, Sendable, CaseIterable {
        case up = 0
        case down = 1
        case left = 2
        case right = 3
        case upMirrored = 4
        case downMirrored = 5
        case leftMirrored = 6
        case rightMirrored = 7

        /// The UIKit orientation of an EXIF one (as `UIImage(data:)` reads it). Linux addition.
        public init(_ orientation: CGImagePropertyOrientation) {
            switch orientation {
            case .up: self = .up
            case .upMirrored: self = .upMirrored
            case .down: self = .down
            case .downMirrored: self = .downMirrored
            case .leftMirrored: self = .leftMirrored
            case .right: self = .right
            case .rightMirrored: self = .rightMirrored
            case .left: self = .left
            }
        }

        /// The EXIF orientation (1...8) with the same meaning.
        var exifValue: Int {
            switch self {
            case .up: 1
            case .upMirrored: 2
            case .down: 3
            case .downMirrored: 4
            case .leftMirrored: 5
            case .right: 6
            case .rightMirrored: 7
            case .left: 8
            }
        }

        /// Whether showing the image upright turns it a quarter.
        var swapsWidthAndHeight: Bool {
            switch self {
            case .left, .right, .leftMirrored, .rightMirrored: true
            default: false
            }
        }

        func applied(to image: VipsImage) throws(ImagingError) -> VipsImage {
            try image.applyingOrientation(exifValue)
        }
    }
}

extension CGImagePropertyOrientation {
    /// The EXIF orientation with the same meaning as a UIKit one. Linux addition (Apple's sample
    /// code writes this initializer itself).
    public init(_ orientation: UIImage.Orientation) {
        self = CGImagePropertyOrientation(rawValue: UInt32(orientation.exifValue)) ?? .up
    }
}
