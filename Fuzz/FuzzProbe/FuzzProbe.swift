// libFuzzer target: MediaProbe.probe(data:filenameExtension:), the public entry point an import
// runs on a file's bytes, libvips included.
//
// The first input byte picks the file name extension (it matters for TIFF-based RAW files,
// whose magic is TIFF's, and for QuickTime files that don't start with `ftyp`); the rest is the
// file. Everything a real probe does runs: format sniffing, the structural checks, libvips'
// header read (libjpeg, libpng, libwebp, libheif, giflib), the EXIF and XMP parsers, the RAW and
// video readers. libvips and the codecs are not instrumented, so the fuzzer is guided by the
// Swift side only; a crash inside them still counts.
import Foundation
import Imaging

private let zone = TimeZone(identifier: "Europe/Dublin")!  // negative DST in the tz database
private let extensions = ["jpg", "png", "heic", "avif", "tif", "nef", "cr2", "dng", "raf", "cr3", "mov", "mp4", "webp", "gif", "3gp", "orf"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProbe(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 1 else { return 0 }
    let filenameExtension = extensions[Int(data[0]) % extensions.count]
    let file = Data(bytes: data + 1, count: size - 1)
    _ = try? MediaProbe.probe(data: file, filenameExtension: filenameExtension, defaultTimeZone: zone)
    return 0
}
