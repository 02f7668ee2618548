import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Issue 18: an imported asset is one the library can display. Damaged files are refused at
/// import with a reason; what still fails to render later is recorded, listed by the library
/// check, and forgotten once its current version renders.
@Suite("Unrenderable assets")
struct UnrenderableAssetTests {
    static func assets(_ library: PHPhotoLibrary) -> [PHAsset] {
        library.withCurrent { Array(PHAsset.fetchAssets(with: nil)) }
    }

    /// A 256 px grid thumbnail through the image manager (libvips; ffmpeg for a video's poster
    /// frame), as a gallery cell asks for it.
    static func thumbnail(_ asset: PHAsset, _ library: PHPhotoLibrary) -> Result<UIImage, PHPhotosError> {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = .highQualityFormat
        options.resizeMode = .exact
        var result: Result<UIImage, PHPhotosError> = .failure(PHPhotosError(.invalidResource, "no answer"))
        _ = library.withCurrent {
            PHImageManager.default().requestImage(
                for: asset, targetSize: CGSize(width: 256, height: 256), contentMode: .aspectFill, options: options
            ) { image, info in
                if let image {
                    result = .success(image)
                } else if let error = info?[PHImageErrorKey] as? PHPhotosError {
                    result = .failure(error)
                }
            }
        }
        return result
    }

    @Test("the importer refuses each malformed kind with its reason; every file it accepts renders or is listed")
    func importRefusesMalformedFiles() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = temporary.scratch.appendingPathComponent("malformed", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let inputs = try MalformedInputs.all()
        for input in inputs { try input.write(into: folder) }
        var options = PHAssetImporter.Options()
        options.makesThumbnails = true
        options.allowsDuplicates = true
        let report = PHAssetImporter(library: library, options: options).importFiles(at: [folder])
        #expect(report.items.count == inputs.count)
        for input in inputs {
            let item = try #require(report.items.first { $0.files.first?.lastPathComponent == input.fileName }, "\(input.name)")
            guard let expected = input.expectedReason else { continue }
            switch item.outcome {
            case .failed(let reason):
                #expect(reason.contains(expected), "\(input.name): expected '\(expected)' in: \(reason)")
                #expect(!reason.contains(folder.path), "the report names the file already: \(reason)")
            default:
                Issue.record("\(input.name) (\(input.damage)) was not refused: \(item.outcome)")
            }
        }
        // What got in (damage inside pixel data, which no structural check sees) either renders
        // or is listed by the check.
        let imported = Self.assets(library)
        var unrenderable: Set<String> = []
        for asset in imported {
            if case .failure = Self.thumbnail(asset, library) { unrenderable.insert(asset.localIdentifier) }
        }
        let listed = try library.checkConsistency().problems.filter { $0.kind == .unrenderable }
        #expect(listed.count == unrenderable.count, "\(listed)")
        for identifier in unrenderable {
            #expect(listed.contains { $0.detail.contains(String(identifier.prefix(36))) }, "\(identifier) is not listed")
        }
        #expect(imported.count <= inputs.count - (try MalformedInputs.refusable()).count)
    }

    @Test("a photo that fails to render is listed by the check with the reason, and an edit that renders clears it")
    func failedRenderIsListed() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let url = try MalformedInputs.undecodableJPEG().write(into: temporary.scratch)
        let report = PHAssetImporter(library: library).importFiles(at: [url])
        #expect(report.imported.count == 1, "its structure is sound: \(report.failures.map(\.outcome))")
        #expect(try library.checkConsistency().isConsistent, "nothing known yet: no render was tried")
        let asset = try #require(Self.assets(library).first)

        guard case .failure(let error) = Self.thumbnail(asset, library) else {
            Issue.record("the undecodable JPEG rendered")
            return
        }
        #expect(error.code == .invalidResource)
        let check = try library.checkConsistency()
        #expect(check.problems.map(\.kind) == [.unrenderable], "\(check.problems)")
        let detail = try #require(check.problems.first?.detail)
        #expect(detail.contains(asset.uuid) && detail.contains("originals/"), "\(detail)")
        #expect(detail.contains("Huffman table"), "\(detail)")

        // An edit whose render decodes is the current version now: the record is stale.
        let output = PHContentEditingOutput(contentEditingInput: try ContentEditingTests.input(asset))
        try TestImages.writeJPEG(to: output.renderedContentURL, width: 64, height: 48)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: ContentEditingTests.format, formatVersion: "1.0", data: Data("redrawn".utf8))
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        #expect(try library.checkConsistency().isConsistent)
    }

    /// Every file under a folder of the library (relative paths).
    static func files(under folder: String, of temporary: TemporaryLibrary) -> [String] {
        let root = temporary.url.appendingPathComponent(folder)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files
    }

    /// A JPEG whose header reads but whose pixels don't (`input`; by default one whose scan
    /// names a Huffman table never defined), and a sound one, in the scratch folder.
    static func badAndGood(in temporary: TemporaryLibrary, _ input: MalformedInput? = nil) throws -> (bad: URL, good: URL) {
        let bad = try (input ?? MalformedInputs.undecodableJPEG()).write(into: temporary.scratch)
        let good = temporary.scratch.appendingPathComponent("good.jpg")
        try TestImages.writeJPEG(to: good, width: 300, height: 200, noisy: true)
        return (bad, good)
    }

    /// Why an import of `bad` and `good` with `options` refused `bad`; `good` must be imported.
    static func refusal(
        of bad: URL, besides good: URL, _ library: PHPhotoLibrary, _ options: PHAssetImporter.Options
    ) throws -> String {
        let report = PHAssetImporter(library: library, options: options).importFiles(at: [bad, good])
        #expect(report.imported.map(\.files) == [[good]])
        let refused = try #require(report.failures.first, "\(report.items.map(\.outcome))")
        #expect(refused.files == [bad])
        guard case .failed(let reason) = refused.outcome else { return "not refused: \(refused.outcome)" }
        return reason
    }

    @Test("an import that makes thumbnails refuses a photo whose pixels don't decode, in the decoder's words, and keeps nothing of it")
    func importWithThumbnailsRefusesUndecodable() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let (bad, good) = try Self.badAndGood(in: temporary)
        var options = PHAssetImporter.Options()
        options.makesThumbnails = true
        let reason = try Self.refusal(of: bad, besides: good, library, options)
        #expect(reason.hasPrefix("its image can't be decoded: "), "\(reason)")
        #expect(reason.contains("Huffman table"), "libvips' words: \(reason)")
        #expect(!reason.contains(bad.path), "the report names the file already: \(reason)")
        // Nothing of it stays: no row, no original, no thumbnail, no staged copy.
        #expect(Self.assets(library).count == 1)
        #expect(temporary.originalFiles().count == 1)
        #expect(Self.files(under: "derivatives", of: temporary).count == 1)
        #expect(Self.files(under: "tmp", of: temporary).isEmpty)
        #expect(try library.checkConsistency().isConsistent)
    }

    /// Issue 33: a plain import decodes nothing, but the probe reads the tables decoding needs,
    /// so a JPEG whose Huffman table is bogus (its header reads) is refused with the reason
    /// `--thumbnails` gives in the decoder's words, here naming the table; nothing of it stays.
    @Test("a plain import refuses a JPEG whose Huffman table no decoder can build, naming it, and keeps nothing of it")
    func plainImportRefusesBogusHuffmanTable() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let (bad, good) = try Self.badAndGood(in: temporary, MalformedInputs.bogusHuffmanJPEG())
        for inPlace in [false, true] {
            var options = PHAssetImporter.Options()
            options.referencesFiles = inPlace
            options.allowsDuplicates = true
            let reason = try Self.refusal(of: bad, besides: good, library, options)
            #expect(
                reason == "is a damaged JPEG: the Huffman table DC 0 (DHT at offset 16267) is bogus: its counts of codes by length "
                    + "(0 3 4 1 1 1 1 1 0 0 0 0 0 0 0 0) make no prefix code, running out of codes at 3 bits", "\(reason)")
        }
        #expect(Self.assets(library).count == 2)
        #expect(temporary.originalFiles().count == 1, "the copied good photo; the other is referenced")
        #expect(Self.files(under: "tmp", of: temporary).isEmpty)
        #expect(try library.checkConsistency().isConsistent)
    }

    @Test("Sony HIF files libvips can't decode, and one with its HEVC data bit-flipped, import with thumbnails and render")
    func sonyHIFImportAndRender() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let inputs = try MalformedInputs.sonyHIF()
        let urls = try inputs.map { try $0.write(into: temporary.scratch) }
        var options = PHAssetImporter.Options()
        options.makesThumbnails = true
        let report = PHAssetImporter(library: library, options: options).importFiles(at: urls)
        #expect(report.imported.count == inputs.count, "\(report.failures.map(\.outcome))")
        #expect(try library.checkConsistency().isConsistent, "no render failure recorded")
        for asset in Self.assets(library) {
            guard case .success(let image) = Self.thumbnail(asset, library) else {
                Issue.record("\(asset.localIdentifier) does not render")
                continue
            }
            #expect(image.size.width == 256 && image.size.height == 256)
        }
        // The portrait one is as tall as it shows (libheif 1.15 reports it unturned).
        let portrait = Self.assets(library).filter { $0.pixelHeight > $0.pixelWidth }
        #expect(portrait.map { [$0.pixelWidth, $0.pixelHeight] } == [[4672, 7008]])
        #expect(try library.checkConsistency().isConsistent)
    }

    @Test("`cache warm` records what fails to render; a render that works forgets it")
    func warmRecordsFailures() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let (bad, good) = try Self.badAndGood(in: temporary)
        // Without thumbnails the import decodes nothing: its structure is sound, so it is taken.
        #expect(PHAssetImporter(library: library).importFiles(at: [bad, good]).imported.count == 2)
        #expect(try library.checkConsistency().isConsistent, "nothing known yet: no render was tried")

        let warmed = try library.makeDerivatives()
        #expect(warmed.failed == 1 && warmed.made == 1, "\(warmed)")
        let listed = try library.checkConsistency().problems
        #expect(listed.map(\.kind) == [.unrenderable], "\(listed)")
        #expect(listed.first?.detail.contains("Huffman table") == true, "\(listed)")

        // The file repaired in place: a render that works forgets the failure.
        let asset = try #require(
            Self.assets(library).first { asset in
                library.withCurrent { PHAssetResource.assetResources(for: asset).first?.originalFilename } == bad.lastPathComponent
            })
        let original = try #require(temporary.originalFiles().first { $0.contains(asset.uuid) })
        try TestImages.writeJPEG(to: temporary.url.appendingPathComponent("originals").appendingPathComponent(original), width: 64, height: 48)
        guard case .success = Self.thumbnail(asset, library) else {
            Issue.record("the repaired photo does not render")
            return
        }
        #expect(try library.checkConsistency().problems.allSatisfy { $0.kind != .unrenderable })
    }
}
