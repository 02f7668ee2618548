import Foundation

extension MediaProbe.Context {
    /// Header-only probe through libvips, EXIF parsed in Swift.
    func probeWithVips(format: MediaFormat) throws(ImagingError) -> MediaMetadata {
        let image: VipsImage
        do {
            image = try openImage()
        } catch {
            if error.code == .unreadable { throw error }
            throw ImagingError(.decodeFailed, "\(name) looks like \(format.rawValue.uppercased()) but libvips cannot read it: \(error.message)", url: url)
        }
        var metadata = MediaMetadata(
            format: format, pixelWidth: image.width, pixelHeight: image.height,
            orientation: image.orientation, frameCount: image.pageCount, hasAlpha: image.hasAlpha)
        if format.isHEIF, let shown = HEIFStructure.primaryGeometry(in: source), shown.turnedBeforeSized,
            shown.width == image.height, shown.height == image.width
        {
            // libheif's size unturned by the item's `irot` (see HEIFStructure.PrimaryGeometry):
            // the image decodes turned, to the size it shows at.
            (metadata.pixelWidth, metadata.pixelHeight) = (shown.width, shown.height)
        }
        var exifBlob = image.exifData.map { [UInt8]($0) }
        var png: PNGStructure?
        if format == .png {
            png = PNGStructure(source: source)
            if exifBlob == nil { exifBlob = png?.exif }
            if let frames = png?.animationFrames, frames > 0 { metadata.frameCount = frames }
        }
        if let exifBlob, let tiff = TIFFParser.exifBlob(exifBlob) {
            apply(ExifMetadata(tiff, defaultTimeZone: defaultTimeZone), to: &metadata)
        }
        metadata.descriptive = DescriptiveMetadata(xmp: image.xmpData, iptc: image.iptcData)
        let xmp = image.xmpData.map { String(decoding: $0, as: UTF8.self) }
        if let xmp, XMPDates.isPanorama(xmp) { metadata.isPanorama = true }
        if metadata.captureDate == nil { fillCaptureDate(&metadata, xmp: xmp, png: png, format: format) }
        return metadata
    }

    /// Files without an EXIF date: XMP's (editors' exports), an image sequence's movie header
    /// (HEIF bursts, AVIF sequences, in UTC), then PNG's tIME (last modified, UTC).
    private func fillCaptureDate(_ metadata: inout MediaMetadata, xmp: String?, png: PNGStructure?, format: MediaFormat) {
        if let xmp, let found = XMPDates.captureDate(xmp, defaultTimeZone: defaultTimeZone) {
            metadata.captureDate = found.date
            metadata.captureTimeZoneOffset = found.offset
            return
        }
        if [.heic, .heif, .avif].contains(format) {
            let parser = ISOBMFFParser(source: source)
            if let moov = parser.topLevel().boxes.first(where: { $0.type == "moov" }),
                let date = QuickTimeMetadata(parser: parser, moov: moov, defaultTimeZone: defaultTimeZone).creationDate
            {
                metadata.captureDate = date
                return
            }
        }
        if let time = png?.modificationTime { metadata.captureDate = time }
    }

    func apply(_ exif: ExifMetadata, to metadata: inout MediaMetadata) {
        metadata.make = exif.make
        metadata.model = exif.model
        metadata.lensModel = exif.lensModel
        metadata.software = exif.software
        metadata.userComment = exif.userComment
        metadata.captureDate = exif.captureDate
        metadata.captureTimeZoneOffset = exif.captureTimeZoneOffset
        metadata.location = exif.location
        let rendered = exif.customRendered
        metadata.isHDR = exif.apple?.isHDR == true || [2, 3, 7].contains(rendered ?? 0)
        metadata.isPanorama = rendered == 6
        metadata.isPortrait = exif.apple?.isPortrait == true || [7, 8].contains(rendered ?? 0)
        metadata.isFrontCamera = exif.apple?.isFrontCamera == true
            || exif.lensModel?.range(of: "front", options: .caseInsensitive) != nil
        metadata.burstIdentifier = exif.apple?.burstUUID
        metadata.contentIdentifier = exif.apple?.contentIdentifier
    }

    /// The longest side of an image libvips can hold (`VIPS_MAX_COORD`): a TIFF directory giving
    /// more is damaged, not a photo.
    static let maximumSide = 10_000_000

    /// TIFF and TIFF-based RAW: the file's own IFDs, parsed in Swift; libvips is not used (it
    /// cannot read most RAW files, and may hand them to ImageMagick, which decodes everything).
    func probeTIFF(format: MediaFormat) throws(ImagingError) -> MediaMetadata {
        guard let parser = TIFFParser(source: source, base: 0) else {
            throw corrupt("is not a valid TIFF structure")
        }
        if let problem = parser.structureProblem(checkingImageTags: format == .tiff) {
            let truncated = problem.contains("outside the file") || problem.contains("past the end")
            throw corrupt("is a \(truncated ? "truncated" : "damaged") \(format.rawValue.uppercased()) file: \(problem)")
        }
        let tiff = parser.parse()
        guard !tiff.imageDirectories.isEmpty else {
            throw corrupt("is a damaged \(format.rawValue.uppercased()) file: its first image directory cannot be read")
        }
        var stripEnd: Int64 = 0
        for directory in tiff.imageDirectories {
            // Strips, tiles and the embedded JPEG preview must all lie inside the file.
            for (offsetsTag, countsTag) in [(UInt16(0x0111), UInt16(0x0117)), (0x0144, 0x0145), (0x0201, 0x0202)] {
                let offsets = directory[offsetsTag]?.ints ?? [], counts = directory[countsTag]?.ints ?? []
                for (offset, count) in zip(offsets, counts) {
                    let (end, overflow) = Int64(offset).addingReportingOverflow(Int64(count))
                    guard offset >= 0, count >= 0, !overflow else {
                        throw corrupt("is a damaged \(format.rawValue.uppercased()) file: image data at offset \(offset), \(count) bytes long, cannot be in a file")
                    }
                    stripEnd = max(stripEnd, end)
                }
            }
        }
        if stripEnd > source.size {
            throw corrupt("is a truncated \(format.rawValue.uppercased()) file: image data runs to byte \(stripEnd) of \(source.size)")
        }
        if format != .tiff, format != .dng, RawPreview.largestJPEG(in: source, format: format) == nil {
            // Shown through its embedded JPEG preview: libvips can't decode the raw data.
            throw corrupt("is a damaged \(format.rawValue.uppercased()) file: it has no readable embedded JPEG preview to show")
        }
        let exif = ExifMetadata(tiff, defaultTimeZone: defaultTimeZone)
        var width = 0, height = 0
        if format == .tiff {
            width = tiff.ifd0[ExifMetadata.Tag.imageWidth]?.int ?? 0
            height = tiff.ifd0[ExifMetadata.Tag.imageLength]?.int ?? 0
        } else if let w = exif.pixelXDimension, let h = exif.pixelYDimension {
            (width, height) = (w, h)
        } else {
            // The largest image directory is the raw image (or the full-size preview). Areas are
            // compared as doubles: sizes come from the file (a LONG8 of 2^40 each overflows Int).
            for directory in tiff.imageDirectories {
                let w = directory[ExifMetadata.Tag.imageWidth]?.int ?? 0
                let h = directory[ExifMetadata.Tag.imageLength]?.int ?? 0
                if w > 0, h > 0, Double(w) * Double(h) > Double(width) * Double(height) { (width, height) = (w, h) }
            }
        }
        guard width > 0, height > 0 else {
            throw corrupt("is a damaged \(format.rawValue.uppercased()) file: no image size in its directories")
        }
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            throw corrupt("is a damaged \(format.rawValue.uppercased()) file: its image size \(width)×\(height) is over \(Self.maximumSide) pixels a side")
        }
        let extraSamples = tiff.ifd0[0x0152] != nil
        var metadata = MediaMetadata(
            format: format, pixelWidth: width, pixelHeight: height, orientation: exif.orientation ?? 1,
            frameCount: 1, hasAlpha: format == .tiff && extraSamples)
        apply(exif, to: &metadata)
        return metadata
    }

    /// Fujifilm RAF: metadata from the EXIF of the embedded JPEG preview.
    func probeRAF() throws(ImagingError) -> MediaMetadata {
        guard let preview = RawPreview.largestJPEG(in: source, format: .raf) else {
            throw corrupt("is a damaged RAF file: no embedded JPEG preview")
        }
        let previewSource = DataSource(preview.jpeg)
        let jpeg = JPEGStructure(source: previewSource)
        let tiff = jpeg.exifSegment.flatMap { TIFFParser.exifBlob($0) }
        let exif = tiff.map { ExifMetadata($0, defaultTimeZone: defaultTimeZone) } ?? ExifMetadata()
        var metadata = MediaMetadata(
            format: .raf, pixelWidth: exif.pixelXDimension ?? 0, pixelHeight: exif.pixelYDimension ?? 0,
            orientation: exif.orientation ?? 1)
        if metadata.pixelWidth == 0, let image = try? VipsImage(data: preview.jpeg, access: .sequential) {
            (metadata.pixelWidth, metadata.pixelHeight) = (image.width, image.height)
        }
        apply(exif, to: &metadata)
        return metadata
    }

    /// Canon CR3: an ISO-BMFF file whose `moov` holds a Canon `uuid` box with TIFF structures
    /// CMT1 (IFD0), CMT2 (Exif IFD) and CMT4 (GPS IFD).
    func probeCR3() throws(ImagingError) -> MediaMetadata {
        let parser = ISOBMFFParser(source: source)
        let (boxes, overrun) = parser.topLevel()
        guard !overrun, let moov = boxes.first(where: { $0.type == "moov" }) else {
            throw corrupt("is a truncated or damaged CR3 file (no complete 'moov' box)")
        }
        let canon: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
        var tiff = TIFFStructure()
        if let uuid = parser.children(of: moov).first(where: { $0.type == "uuid" && $0.uuid == canon }) {
            for box in parser.children(of: uuid) {
                guard let bytes = parser.payload(box), let part = TIFFParser.exifBlob(bytes) else { continue }
                switch box.type {
                case "CMT1": tiff.imageDirectories = part.imageDirectories; tiff.bigEndian = part.bigEndian
                case "CMT2": tiff.exif = part.ifd0
                case "CMT4": tiff.gps = part.ifd0
                default: break
                }
            }
        }
        let exif = ExifMetadata(tiff, defaultTimeZone: defaultTimeZone)
        var metadata = MediaMetadata(
            format: .cr3, pixelWidth: exif.pixelXDimension ?? tiff.ifd0[0x0100]?.int ?? 0,
            pixelHeight: exif.pixelYDimension ?? tiff.ifd0[0x0101]?.int ?? 0, orientation: exif.orientation ?? 1)
        apply(exif, to: &metadata)
        return metadata
    }
}
