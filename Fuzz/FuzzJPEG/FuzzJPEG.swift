// libFuzzer target: the JPEG marker walk and what MediaProbe reads from it.
//
// Before libvips opens a JPEG, MediaProbe's structural checks walk its segments to the first scan
// (each inside the file, a frame header with a size and 1 to 4 components, quantization tables,
// the Huffman and quantization tables the first scan decodes with: JPEGDecodingTables) and look
// for image data and the end-of-image marker after it; the EXIF libvips hands over is
// the APP1 payload this walk finds, parsed by the TIFF reader. RAW previews are walked with an end
// (a JPEG inside a larger file), so the input is also walked as an embedded JPEG cut short.
import Foundation
@testable import Imaging

private let zone = TimeZone(identifier: "Asia/Kathmandu")!  // a 45-minute offset

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let source = DataSource(bytes)
    let context = MediaProbe.Context(
        source: source, url: nil, name: "<fuzz>", filenameExtension: "jpg", defaultTimeZone: zone,
        openImage: { () throws(ImagingError) -> VipsImage in throw ImagingError(.decodeFailed, "libvips is not used here", url: nil) })
    _ = try? context.checkStructure(format: .jpeg)
    let jpeg = JPEGStructure(source: source)
    if let exif = jpeg.exifSegment, let tiff = TIFFParser.exifBlob(exif) {
        _ = ExifMetadata(tiff, defaultTimeZone: zone)
    }
    let end = Int64(size) - Int64(size / 3)
    let embedded = JPEGStructure(source: source, start: 0, end: end)
    if let scan = embedded.scanDataOffset {
        _ = JPEGStructure.hasEndOfImage(source: source, scanDataOffset: scan, end: end)
    }
    return 0
}
