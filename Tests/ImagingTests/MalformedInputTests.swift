import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// Issue 18: damaged files are refused when probed, with a reason naming what was wrong, and
/// no real file is refused for it.
@Suite("Malformed inputs")
struct MalformedInputTests {
    @Test("every malformed kind is refused when probed, naming what was wrong")
    func refusedWithReason() throws {
        let folder = try TemporaryFolder()
        let inputs = try MalformedInputs.refusable()
        #expect(inputs.count >= 35)
        for input in inputs {
            let url = try input.write(into: folder.url)
            do {
                let metadata = try MediaProbe.probe(fileAt: url)
                Issue.record("\(input.name) (\(input.damage)) was accepted as \(metadata.pixelWidth)×\(metadata.pixelHeight)")
            } catch {
                #expect(error.code == .corrupt, "\(input.name): \(error)")
                #expect(error.message.hasPrefix(url.path), "\(input.name): \(error.message)")
                #expect(
                    error.message.contains(input.expectedReason ?? ""),
                    "\(input.name) (\(input.damage)): expected '\(input.expectedReason ?? "")' in: \(error.message)")
            }
        }
    }

    @Test("the reasons say where: a PNG's bad chunk, a TIFF's loop, a HEIC's item, a movie's chunk")
    func reasonsNamePlaces() throws {
        let folder = try TemporaryFolder()
        func reason(_ name: String) throws -> String {
            let input = try #require(try MalformedInputs.all().first { $0.name == name })
            let url = try input.write(into: folder.url)
            do {
                _ = try MediaProbe.probe(fileAt: url)
                return "accepted"
            } catch {
                return String(error.message.dropFirst(url.path.count + 1))
            }
        }
        #expect(try reason("png-idat-crc").hasPrefix("is a damaged PNG: chunk IDAT at offset "))
        #expect(try reason("png-idat-crc").contains("CRC mismatch (stored 0x"))
        #expect(try reason("png-1x2000000") == "is a damaged PNG: IHDR claims 1 × 2000000 pixels: an aspect ratio of 2000000 : 1, more than the 100 : 1 this library shows")
        #expect(try reason("tiff-ifd-loop").hasPrefix("is a damaged TIFF file: the IFD chain loops: IFD0 links back to IFD0 at offset "))
        let cr2 = try reason("cr2-64-bytes")
        #expect(cr2.hasPrefix("is a truncated CR2 file: IFD0 at offset 16 has "), "\(cr2)")
        #expect(try reason("heic-extent-past-end").contains("'s data at offset"))
        #expect(try reason("mp4-stco-past-end").hasPrefix("is a truncated MP4 video: chunk 1 of track 1 ('vide') is at offset "))
        #expect(try reason("jpeg-no-image-data").hasPrefix("is a damaged JPEG: the scan (SOS) ending at offset "))
    }

    @Test("a probe of the bytes in memory refuses them as the file probe does")
    func inMemory() throws {
        for input in try MalformedInputs.refusable() {
            #expect(throws: ImagingError.self, "\(input.name)") {
                try MediaProbe.probe(data: input.data, filenameExtension: input.fileExtension)
            }
        }
    }

    @Test("aspect ratios up to 100 : 1 are accepted; a side of 0 and anything wider are not")
    func dimensionLimits() throws {
        #expect(MediaDimensions.problem(width: 100, height: 1) == nil)
        #expect(MediaDimensions.problem(width: 1, height: 100) == nil)
        #expect(MediaDimensions.problem(width: 16_320, height: 12_240) == nil)
        #expect(MediaDimensions.problem(width: 101, height: 1) != nil)
        #expect(MediaDimensions.problem(width: 0, height: 10) == "a side of 0 pixels")
        let folder = try TemporaryFolder()
        let wide = try folder.write(try TestImages.png(width: 1000, height: 10), to: "wide.png")
        #expect(try MediaProbe.probe(fileAt: wide).pixelWidth == 1000)
        let wider = try folder.write(try TestImages.png(width: 1010, height: 10), to: "wider.png")
        #expect(throws: ImagingError.self) { try MediaProbe.probe(fileAt: wider) }
    }

    /// The real files: every photo and video in `.fixtures/` and the corpus' decodable media is
    /// accepted; of the corpus' odd fixtures (`_fixtures/`: truncated, corrupt, edge cases), each
    /// one refused fails to render too, and each one accepted renders.
    @Test("no false refusals: every real photo and video is accepted, and every refused odd file can't be rendered either")
    func realFiles() throws {
        let manager = FileManager.default
        let corpus = MalformedInputs.corpus
        guard manager.fileExists(atPath: corpus.path), Fixtures.available else {
            Issue.record("no corpus at \(corpus.path) or no fixtures: run `make fixtures`")
            return
        }
        func files(_ folder: URL) throws -> [URL] {
            try manager.contentsOfDirectory(atPath: folder.path).sorted()
                .filter { !$0.hasSuffix(".tsv") && !$0.hasPrefix(".") }
                .map { folder.appendingPathComponent($0) }
                .filter { var directory: ObjCBool = false; return manager.fileExists(atPath: $0.path, isDirectory: &directory) && !directory.boolValue }
        }
        let media = try files(corpus) + files(Fixtures.folder) + files(Fixtures.folder.appendingPathComponent("kphotoalbum"))
        #expect(media.count > 100)
        for url in media {
            #expect(throws: Never.self, "\(url.lastPathComponent)") { try MediaProbe.probe(fileAt: url) }
        }
        var refused: [String] = [], unrenderable: [String] = []
        for url in try files(corpus.appendingPathComponent("_fixtures")) + files(Fixtures.folder.appendingPathComponent("corrupt")) {
            let accepted: Bool
            do {
                let metadata = try MediaProbe.probe(fileAt: url)
                accepted = !metadata.isVideo
            } catch {
                refused.append("\(url.lastPathComponent): \(error.message)")
                accepted = false
                // Refused: libvips can't render it either (else the check refused a good file).
                if let thumbnail = try? VipsImage.thumbnail(fileAt: url, width: 256, height: 256, crop: true) {
                    Issue.record("\(url.lastPathComponent) was refused (\(error.message)) but renders \(thumbnail.width)×\(thumbnail.height)")
                }
            }
            if accepted {
                do {
                    _ = try VipsImage.thumbnail(fileAt: url, width: 256, height: 256, crop: true)
                } catch {
                    unrenderable.append("\(url.lastPathComponent): \(error.message)")
                }
            }
        }
        #expect(unrenderable.isEmpty, "accepted but unrenderable: \(unrenderable)")
        print("Malformed inputs: \(refused.count) corpus fixtures refused:\n  " + refused.joined(separator: "\n  "))
    }
}
