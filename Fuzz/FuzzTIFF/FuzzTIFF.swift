// libFuzzer target: the EXIF/TIFF parser, as MediaProbe feeds it.
//
// The input is either an EXIF blob (what libvips hands over for a JPEG or WebP, a PNG's eXIf
// chunk, HEIF's Exif item, a CR3's CMT boxes) or a whole TIFF / TIFF-based RAW file. Both paths
// run on every input: the blob through `TIFFParser.exifBlob` and `ExifMetadata` (dates, GPS,
// the Apple maker note); a file that starts with a TIFF header through MediaProbe's own TIFF
// probe (DNG detection, strip bounds, image size) under a RAW and a TIFF extension, and the
// embedded-preview search thumbnails of RAW files use.
import Foundation
@testable import Imaging

private let zone = TimeZone(identifier: "America/St_Johns")!  // a half-hour offset, with DST

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let tiff = TIFFParser.exifBlob(bytes) {
        _ = ExifMetadata(tiff, defaultTimeZone: zone)
    }
    guard TIFFParser.isTIFFHeader(bytes, at: 0) else { return 0 }
    let source = DataSource(bytes)
    for filenameExtension in ["nef", "tif"] {
        _ = try? probeContext(source, filenameExtension: filenameExtension).probe()
    }
    _ = RawPreview.largestJPEG(in: source, format: .nef)
    return 0
}

/// MediaProbe's context over bytes in memory, with libvips left out: the Swift parsers are what
/// this target exercises.
private func probeContext(_ source: DataSource, filenameExtension: String) -> MediaProbe.Context {
    MediaProbe.Context(
        source: source, url: nil, name: "<fuzz>", filenameExtension: filenameExtension, defaultTimeZone: zone,
        openImage: { () throws(ImagingError) -> VipsImage in throw ImagingError(.decodeFailed, "libvips is not used here", url: nil) })
}
