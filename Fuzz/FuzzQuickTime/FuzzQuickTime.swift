// libFuzzer target: the QuickTime/MP4 metadata reader, as MediaProbe probes a video.
//
// The probe finds `moov` among the top-level boxes (refusing a truncated file, and a track with a
// chunk outside the file: `stco`/`co64` offsets plus `stsc`/`stsz` sample sizes), then reads the
// movie header, each track (handler, track header matrix, media header, sample tables, sample
// description), QuickTime `keys`/`ilst` metadata in `moov/meta` and `moov/udta/meta`, and the
// classic `©xyz`/`©day`/... user-data atoms (ISO 6709 locations, ISO 8601 dates).
import Foundation
@testable import Imaging

private let zone = TimeZone(identifier: "America/Caracas")!  // a zone whose offset changed by 30 min

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuickTime(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let source = DataSource(bytes)
    _ = MediaFormat.detect(header: Array(bytes.prefix(MediaFormat.sniffLength)), filenameExtension: "mov")
    let context = MediaProbe.Context(
        source: source, url: nil, name: "<fuzz>", filenameExtension: "mov", defaultTimeZone: zone,
        openImage: { () throws(ImagingError) -> VipsImage in throw ImagingError(.decodeFailed, "libvips is not used here", url: nil) })
    _ = try? context.probeVideo(format: .mov)
    return 0
}
