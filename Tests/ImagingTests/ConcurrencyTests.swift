import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// libvips from many Swift tasks at once: lazy initialisation, probes, thumbnails, encoders.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("32 parallel probes and thumbnails of shared and separate images")
    func parallel() async throws {
        let folder = try TemporaryFolder()
        var urls: [URL] = []
        for i in 0 ..< 8 {
            urls.append(try TestImages.writeJPEG(
                to: folder.file("p\(i).jpg"), width: 300 + i * 10, height: 200, exif: ExifBuilder(orientation: i % 2 == 0 ? 1 : 6)))
        }
        let shared = try VipsImage.noisyGradient(width: 256, height: 256)
        let results = try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
            for i in 0 ..< 32 {
                let url = urls[i % urls.count]
                group.addTask {
                    let m = try MediaProbe.probe(fileAt: url)
                    let thumb = try VipsImage.thumbnail(fileAt: url, width: 64, height: 64)
                    // Encoding the same image from many tasks must not interfere.
                    let jpeg = try shared.jpegData(quality: 70)
                    #expect(try VipsImage(data: jpeg).width == 256)
                    return (m.orientedPixelWidth, thumb.width, thumb.height)
                }
            }
            var all: [(Int, Int, Int)] = []
            for try await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 32)
        for (width, thumbWidth, thumbHeight) in results {
            #expect(width == 200 ? thumbHeight == 64 && thumbWidth < 64 : thumbWidth == 64 && thumbHeight < 64)
        }
    }
}
