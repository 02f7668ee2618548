/// A photo or video file format this library recognises.
public enum MediaFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, webp, heic, heif, avif, gif, tiff, jxl
    case cr2, cr3, nef, arw, dng, raf, orf, rw2
    case mp4, mov, m4v
    case threeGP = "3gp"

    /// Apple's Uniform Type Identifier for the format ("public.jpeg", "com.apple.quicktime-movie", ...).
    public var uniformTypeIdentifier: String {
        switch self {
        case .jpeg: "public.jpeg"
        case .png: "public.png"
        case .webp: "org.webmproject.webp"
        case .heic: "public.heic"
        case .heif: "public.heif"
        case .avif: "public.avif"
        case .gif: "com.compuserve.gif"
        case .tiff: "public.tiff"
        case .jxl: "public.jpeg-xl"
        case .cr2: "com.canon.cr2-raw-image"
        case .cr3: "com.canon.cr3-raw-image"
        case .nef: "com.nikon.raw-image"
        case .arw: "com.sony.arw-raw-image"
        case .dng: "com.adobe.raw-image"
        case .raf: "com.fuji.raw-image"
        case .orf: "com.olympus.raw-image"
        case .rw2: "com.panasonic.rw2-raw-image"
        case .mp4: "public.mpeg-4"
        case .mov: "com.apple.quicktime-movie"
        case .m4v: "com.apple.m4v-video"
        case .threeGP: "public.3gpp"
        }
    }

    /// The extension Apple's `UTType.preferredFilenameExtension` gives, without the dot.
    public var preferredFilenameExtension: String {
        switch self {
        case .threeGP: "3gp"
        default: rawValue
        }
    }

    /// Every extension (lower case, no dot) that names this format.
    public var filenameExtensions: [String] {
        switch self {
        case .jpeg: ["jpeg", "jpg", "jpe", "jfif"]
        case .png: ["png", "apng"]
        case .webp: ["webp"]
        case .heic: ["heic", "heics"]
        case .heif: ["heif", "heifs", "hif"]
        case .avif: ["avif", "avifs"]
        case .gif: ["gif"]
        case .tiff: ["tiff", "tif"]
        case .jxl: ["jxl"]
        case .cr2: ["cr2"]
        case .cr3: ["cr3"]
        case .nef: ["nef", "nrw"]
        case .arw: ["arw", "srf", "sr2"]
        case .dng: ["dng"]
        case .raf: ["raf"]
        case .orf: ["orf"]
        case .rw2: ["rw2"]
        case .mp4: ["mp4"]
        case .mov: ["mov", "qt"]
        case .m4v: ["m4v"]
        case .threeGP: ["3gp", "3gpp", "3g2"]
        }
    }

    /// The format a file extension names (case-insensitive, with or without the dot), if any.
    public init?(filenameExtension: String) {
        var ext = filenameExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        guard let match = Self.allCases.first(where: { $0.filenameExtensions.contains(ext) }) else {
            return nil
        }
        self = match
    }

    /// The format with this Uniform Type Identifier, if any.
    public init?(uniformTypeIdentifier: String) {
        guard let match = Self.allCases.first(where: { $0.uniformTypeIdentifier == uniformTypeIdentifier }) else {
            return nil
        }
        self = match
    }

    /// True for movie formats (mp4, mov, m4v, 3gp).
    public var isVideo: Bool {
        switch self {
        case .mp4, .mov, .m4v, .threeGP: true
        default: false
        }
    }

    /// True for camera RAW formats.
    public var isRAW: Bool {
        switch self {
        case .cr2, .cr3, .nef, .arw, .dng, .raf, .orf, .rw2: true
        default: false
        }
    }

    /// True for still-image formats (everything that is not a video).
    public var isImage: Bool { !isVideo }

    /// True for RAW formats whose container is TIFF (parsed in Swift, not opened with libvips).
    var isTIFFBasedRAW: Bool {
        switch self {
        case .cr2, .nef, .arw, .dng, .orf, .rw2: true
        default: false
        }
    }

    /// True for the still-image formats libheif decodes (HEIF, HEIC, AVIF).
    var isHEIF: Bool {
        switch self {
        case .heic, .heif, .avif: true
        default: false
        }
    }

    /// True for formats stored in ISO base media (ftyp) boxes.
    var isISOBMFF: Bool {
        switch self {
        case .heic, .heif, .avif, .cr3, .mp4, .mov, .m4v, .threeGP: true
        default: false
        }
    }
}
