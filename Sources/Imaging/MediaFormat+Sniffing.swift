extension MediaFormat {
    /// How many leading bytes `detect(header:filenameExtension:)` looks at.
    public static let sniffLength = 64

    /// The format of a file from its first bytes (at least the first 32 should be given), using
    /// the file extension only where the magic bytes cannot tell: TIFF-based RAW files (NEF,
    /// ARW, DNG) start exactly like a TIFF. Returns `nil` for anything unrecognised.
    public static func detect(header b: [UInt8], filenameExtension: String? = nil) -> MediaFormat? {
        let ext = filenameExtension.flatMap(MediaFormat.init(filenameExtension:))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + magic.count && Array(b[offset ..< offset + magic.count]) == magic
        }
        func ascii(_ s: String, at offset: Int = 0) -> Bool { starts(Array(s.utf8), at: offset) }

        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return .webp }
        if ascii("GIF87a") || ascii("GIF89a") { return .gif }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .jxl
        }
        if ascii("FUJIFILMCCD-RAW") { return .raf }
        if ascii("IIRO") || ascii("IIRS") || ascii("MMOR") { return .orf }
        if starts([0x49, 0x49, 0x55, 0x00]) { return .rw2 }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            if ascii("CR", at: 8) { return .cr2 }
            if let ext, ext.isTIFFBasedRAW { return ext }
            return .tiff
        }
        if b.count >= 12, ascii("ftyp", at: 4) {
            return detectISOBMFF(b)
        }
        // QuickTime files from old cameras may start with another top-level atom.
        if b.count >= 8, ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(where: { ascii($0, at: 4) }),
           ext == .mov || ext == .mp4 || ext == .m4v || ext == .threeGP {
            return ext
        }
        return nil
    }

    private static func detectISOBMFF(_ b: [UInt8]) -> MediaFormat? {
        let size = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        let end = min(b.count, max(16, size))
        func brand(_ i: Int) -> String {
            String(decoding: b[i ..< i + 4], as: UTF8.self)
        }
        var brands = [brand(8)]
        var i = 16
        while i + 4 <= end {
            brands.append(brand(i))
            i += 4
        }
        return classify(brands: brands)
    }

    /// The format an ISO-BMFF file's ftyp brands name. The major brand decides, as exiftool
    /// reads it: "heic" is HEIC, "mif1" is HEIF (even with "heic" among the compatible brands)
    /// unless an "avif" brand is listed; "isom" is MP4 (even listing "3gp4"). Only a major
    /// brand this does not know lets the compatible brands decide.
    static func classify(brands: [String]) -> MediaFormat? {
        guard let major = brands.first else { return nil }
        if let format = specific(major) { return format }
        if let format = generic(major) {
            if format == .heif, brands.dropFirst().contains(where: { specific($0) == .avif }) { return .avif }
            return format
        }
        for brand in brands.dropFirst() {
            if let format = specific(brand) { return format }
        }
        for brand in brands.dropFirst() {
            if let format = generic(brand) { return format }
        }
        return nil
    }

    private static func specific(_ brand: String) -> MediaFormat? {
        switch brand {
        // exiftool's reading: only "heic" (and its sequence brand "hevc") is HEIC; the 10-bit,
        // multi-view and scalable HEVC brands (Sony's .HIF is "heix") are HEIF.
        case "heic", "hevc": return .heic
        case "heix", "heim", "heis", "hevx", "hevm", "hevs": return .heif
        case "avif", "avis", "avio": return .avif
        case "crx ": return .cr3
        case "qt  ": return .mov
        case "M4V ", "M4VH", "M4VP": return .m4v
        default:
            if brand.hasPrefix("3gp") || brand.hasPrefix("3g2") || brand.hasPrefix("3ge") || brand.hasPrefix("3gg") {
                return .threeGP
            }
            return nil
        }
    }

    private static func generic(_ brand: String) -> MediaFormat? {
        switch brand {
        case "mif1", "msf1", "mif2", "miaf": return .heif
        case "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9",
             "mp41", "mp42", "avc1", "hvc1", "dash", "mmp4", "MSNV", "f4v ", "XAVC", "NDAS", "mp71":
            return .mp4
        default: return nil
        }
    }
}
