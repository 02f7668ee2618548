import Foundation
import PhotosLocking
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

/// libvips keeps one error buffer for the process: failures on several threads at once must each
/// be told with their own words (another failure's, made at the same moment, may come with them:
/// see `VipsRuntime.keepingReasons`).
@Suite("Concurrent failures")
struct ConcurrentFailureTests {
    @Test("each of many failures at once names its own damage")
    func eachFailureKeepsItsReason() throws {
        let folder = try TemporaryFolder()
        // Two kinds of damage libvips words differently: a scan naming a Huffman table never
        // defined, and a JPEG cut inside its scan (read with fail-on-truncation).
        let huffman = try MalformedInputs.undecodableJPEG().write(into: folder.url)
        let whole = try TestImages.writeJPEG(to: folder.file("whole.jpg"), width: 640, height: 480)
        let bytes = try Data(contentsOf: whole)
        let truncated = folder.file("truncated.jpg")
        try bytes.prefix(bytes.count * 2 / 3).write(to: truncated)

        let reasons = Mutex<[(kind: String, message: String)]>([])
        let done = DispatchGroup()
        for thread in 0 ..< 6 {
            done.enter()
            Thread {
                defer { done.leave() }
                let (kind, url) = thread % 2 == 0 ? ("huffman", huffman) : ("truncated", truncated)
                for _ in 0 ..< 25 {
                    do {
                        _ = try VipsImage.thumbnail(fileAt: url, width: 64, height: 64)
                        reasons.withLock { $0.append((kind, "(rendered)")) }
                    } catch {
                        reasons.withLock { $0.append((kind, "\(error)")) }
                    }
                }
            }.start()
        }
        done.wait()
        let all = reasons.withLock { $0 }
        #expect(all.count == 150)
        let huffmanWords = all.filter { $0.kind == "huffman" }.map(\.message)
        let truncatedWords = all.filter { $0.kind == "truncated" }.map(\.message)
        let huffmanMissing = huffmanWords.filter { !$0.contains("Huffman table") }
        #expect(huffmanMissing.isEmpty, "\(huffmanMissing.count) of \(huffmanWords.count) without their reason, e.g. \(huffmanMissing.first ?? "")")
        let truncatedMissing = truncatedWords.filter { !$0.contains("Premature end") }
        #expect(truncatedMissing.isEmpty, "\(truncatedMissing.count) of \(truncatedWords.count) without their reason, e.g. \(truncatedMissing.first ?? "")")
    }
}
