import Foundation

/// The JPEG previews camera RAW files embed, for thumbnails libvips cannot make from the RAW
/// data itself (Debian's libvips has no libraw; CR2's raw IFD is lossless JPEG).
enum RawPreview {
    struct Preview {
        var jpeg: Data
        /// The orientation still to apply to the decoded preview (1 when the preview's own EXIF
        /// carries an orientation, which libvips applies itself).
        var orientation: Int
    }

    static let maxPreviewBytes: Int64 = 64 << 20

    /// The largest decodable (baseline or progressive) JPEG embedded in a RAW file.
    static func largestJPEG(in source: any ByteSource, format: MediaFormat) -> Preview? {
        let (candidates, rawOrientation) = self.candidates(in: source, format: format)
        let usable = candidates.filter { candidate in
            guard candidate.length > 2, candidate.length <= maxPreviewBytes, candidate.offset >= 0,
                  candidate.offset <= source.size - candidate.length else { return false }
            let jpeg = JPEGStructure(source: source, start: candidate.offset, end: candidate.offset + candidate.length)
            return !jpeg.truncatedHeader && !jpeg.isLossless
        }
        guard let best = usable.max(by: { $0.length < $1.length }),
              let bytes = source.bytes(at: best.offset, count: Int(best.length)) else { return nil }
        let own = JPEGStructure(source: DataSource(bytes)).exifSegment
            .flatMap { TIFFParser.exifBlob($0) }?.ifd0[0x0112]?.int
        let ownOrientation = own.map { (2 ... 8).contains($0) } ?? false
        return Preview(jpeg: Data(bytes), orientation: ownOrientation ? 1 : rawOrientation)
    }

    /// Where a RAW file's embedded JPEGs may be (offset, length; unchecked), and the RAW's own
    /// orientation (IFD0's, 1 when none).
    static func candidates(in source: any ByteSource, format: MediaFormat) -> (candidates: [(offset: Int64, length: Int64)], orientation: Int) {
        var candidates: [(offset: Int64, length: Int64)] = []
        var rawOrientation = 1
        switch format {
        case .raf:
            if let offset = source.u32be(84), let length = source.u32be(88) {
                candidates.append((Int64(offset), Int64(length)))
            }
        case _ where format.isTIFFBasedRAW:
            guard let parser = TIFFParser(source: source, base: 0) else { return ([], 1) }
            let tiff = parser.parse()
            if let o = tiff.ifd0[0x0112]?.int, (1 ... 8).contains(o) { rawOrientation = o }
            for directory in tiff.imageDirectories {
                if let offset = directory[0x0201]?.int, let length = directory[0x0202]?.int {
                    candidates.append((Int64(offset), Int64(length)))
                }
                let compression = directory[0x0103]?.int
                if compression == 6 || compression == 7,
                   let offsets = directory[0x0111]?.ints, let counts = directory[0x0117]?.ints,
                   offsets.count == 1, counts.count == 1 {
                    candidates.append((Int64(offsets[0]), Int64(counts[0])))
                }
            }
        default:
            break
        }
        return (candidates, rawOrientation)
    }
}
