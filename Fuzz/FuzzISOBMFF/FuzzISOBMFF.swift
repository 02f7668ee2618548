// libFuzzer target: the ISO-BMFF box walker as HEIC/HEIF/AVIF and CR3 files meet it.
//
// The paths a probe takes through an ISO-BMFF image: the format from the ftyp brands (the magic
// bytes MediaFormat sniffs), the structural checks (every top-level box inside the file; `meta`
// with `pitm`, `iinf` and `iloc`; the primary item and its tiles of an image type, with data;
// every item's extents inside the file or `idat`), the capture date of an image sequence from its `moov`, and a Canon CR3's EXIF
// from the TIFF structures in its `moov/uuid` CMT boxes.
import Foundation
@testable import Imaging

private let zone = TimeZone(identifier: "Australia/Lord_Howe")!  // a half-hour DST shift

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISOBMFF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let source = DataSource(bytes)
    _ = MediaFormat.detect(header: Array(bytes.prefix(MediaFormat.sniffLength)), filenameExtension: "heic")
    let context = MediaProbe.Context(
        source: source, url: nil, name: "<fuzz>", filenameExtension: "heic", defaultTimeZone: zone,
        openImage: { () throws(ImagingError) -> VipsImage in throw ImagingError(.decodeFailed, "libvips is not used here", url: nil) })
    _ = try? context.checkStructure(format: .heic)
    let parser = ISOBMFFParser(source: source)
    let (boxes, _) = parser.topLevel()
    if let ftyp = boxes.first(where: { $0.type == "ftyp" }) {
        _ = MediaFormat.classify(brands: parser.brands(ftyp))
    }
    if let moov = boxes.first(where: { $0.type == "moov" }) {
        _ = QuickTimeMetadata(parser: parser, moov: moov, defaultTimeZone: zone).creationDate
    }
    _ = try? context.probeCR3()
    return 0
}
