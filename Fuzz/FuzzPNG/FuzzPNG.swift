// libFuzzer target: the PNG chunk walk and what MediaProbe reads from it.
//
// MediaProbe's structural checks refuse a damaged PNG (IHDR first and valid, every chunk inside
// the file with a valid type and CRC-32, PLTE for palette images, one run of IDAT, IEND), and it
// reads the EXIF from an eXIf chunk or from ImageMagick's "Raw profile type exif" text chunks
// (tEXt, zTXt and iTXt, the compressed ones inflated through GLib's zlib), the modification time
// from tIME and the frame count from acTL. The EXIF found goes through the TIFF reader as in a
// real probe.
import Foundation
@testable import Imaging

private let zone = TimeZone(identifier: "Pacific/Chatham")!  // +12:45/+13:45

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let source = DataSource(bytes)
    let context = MediaProbe.Context(
        source: source, url: nil, name: "<fuzz>", filenameExtension: "png", defaultTimeZone: zone,
        openImage: { () throws(ImagingError) -> VipsImage in throw ImagingError(.decodeFailed, "libvips is not used here", url: nil) })
    _ = try? context.checkStructure(format: .png)
    let png = PNGStructure(source: source)
    if let exif = png.exif, let tiff = TIFFParser.exifBlob(exif) {
        _ = ExifMetadata(tiff, defaultTimeZone: zone)
    }
    _ = (png.modificationTime, png.animationFrames)
    return 0
}
