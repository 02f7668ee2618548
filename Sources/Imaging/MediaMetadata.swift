public import Foundation

/// What a probe learned about a photo or video without decoding its pixels.
public struct MediaMetadata: Sendable, Equatable {
    /// The container format, from the file's magic bytes.
    public var format: MediaFormat
    /// Width of the stored pixels, before any orientation is applied.
    public var pixelWidth: Int
    /// Height of the stored pixels, before any orientation is applied.
    public var pixelHeight: Int
    /// The EXIF orientation (1...8) to apply to the stored pixels to show them upright; 1 when the
    /// file has none. For HEIC it is what remains after libheif applied `irot`/`imir` (so
    /// usually 1); for video it is the track matrix as its EXIF equivalent (90° → 6, 180° → 3,
    /// 270° → 8).
    public var orientation: Int
    /// When the photo or video was taken; `nil` if the file does not say.
    public var captureDate: Date?
    /// The capture time's offset from UTC in seconds east, only when the file records it
    /// (EXIF OffsetTime*, QuickTime creationdate with an offset).
    public var captureTimeZoneOffset: Int?
    /// Where it was taken, when the file records a valid position.
    public var location: GPSCoordinate?
    /// Camera maker (EXIF Make).
    public var make: String?
    /// Camera model (EXIF Model).
    public var model: String?
    /// Lens model (EXIF LensModel).
    public var lensModel: String?
    /// The software that wrote the file (EXIF Software).
    public var software: String?
    /// EXIF UserComment, decoded (iOS screenshots carry "Screenshot").
    public var userComment: String?
    /// Length in seconds; 0 for still images.
    public var duration: TimeInterval
    /// Frames per second of the video track; `nil` for stills.
    public var frameRate: Double?
    /// Number of frames (pages) in an animated image; 1 for stills, video frame count for video
    /// when known.
    public var frameCount: Int
    /// True when the image has an alpha channel.
    public var hasAlpha: Bool
    /// An HDR merge: Apple's maker note (HDRImageType 3) or EXIF CustomRendered 2, 3 or 7.
    public var isHDR = false
    /// A panorama: CustomRendered 6, or XMP `GPano` projection / panorama-viewer flags.
    public var isPanorama = false
    /// A depth-effect (Portrait) photo: Apple's ImageCaptureType 2, or CustomRendered 7 or 8.
    public var isPortrait = false
    /// Taken with the front camera: Apple's maker note, or a lens model naming it.
    public var isFrontCamera = false
    /// The burst it belongs to: Apple's BurstUUID.
    public var burstIdentifier: String?
    /// The key pairing a Live Photo's still and movie: Apple's ContentIdentifier (maker note
    /// tag 0x0011 in the still, `com.apple.quicktime.content.identifier` in the movie).
    public var contentIdentifier: String?
    /// How Apple's camera recorded a video (`com.apple.photos.captureMode`), when it says.
    public var captureMode: String?
    /// Title, caption and keywords from the file's XMP and IPTC (``DescriptiveMetadata``).
    public var descriptive = DescriptiveMetadata()

    /// Creates metadata; every optional field defaults to absent.
    public init(
        format: MediaFormat, pixelWidth: Int, pixelHeight: Int, orientation: Int = 1,
        captureDate: Date? = nil, captureTimeZoneOffset: Int? = nil, location: GPSCoordinate? = nil,
        make: String? = nil, model: String? = nil, lensModel: String? = nil, software: String? = nil,
        userComment: String? = nil, duration: TimeInterval = 0, frameRate: Double? = nil,
        frameCount: Int = 1, hasAlpha: Bool = false
    ) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.captureDate = captureDate
        self.captureTimeZoneOffset = captureTimeZoneOffset
        self.location = location
        self.make = make
        self.model = model
        self.lensModel = lensModel
        self.software = software
        self.userComment = userComment
        self.duration = duration
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.hasAlpha = hasAlpha
    }

    /// True for orientations 5...8, whose upright image is the stored one turned a quarter.
    public var swapsDimensions: Bool { (5 ... 8).contains(orientation) }
    /// Width as displayed, after orientation.
    public var orientedPixelWidth: Int { swapsDimensions ? pixelHeight : pixelWidth }
    /// Height as displayed, after orientation.
    public var orientedPixelHeight: Int { swapsDimensions ? pixelWidth : pixelHeight }
    /// True for a GIF, WebP or PNG with more than one frame.
    public var isAnimated: Bool { !format.isVideo && frameCount > 1 }
    /// True for video formats.
    public var isVideo: Bool { format.isVideo }
}
