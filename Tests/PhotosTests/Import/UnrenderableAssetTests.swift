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

    @Test("an import that makes thumbnails, and `cache warm`, record what fails to render; a render that works forgets it")
    func importAndWarmRecordFailures() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let bad = try MalformedInputs.undecodableJPEG().write(into: temporary.scratch)
        let good = temporary.scratch.appendingPathComponent("good.jpg")
        try TestImages.writeJPEG(to: good, width: 300, height: 200, noisy: true)
        var options = PHAssetImporter.Options()
        options.makesThumbnails = true
        #expect(PHAssetImporter(library: library, options: options).importFiles(at: [bad, good]).imported.count == 2)
        let listed = try library.checkConsistency().problems
        #expect(listed.map(\.kind) == [.unrenderable], "\(listed)")

        let warmed = try library.makeDerivatives()
        #expect(warmed.failed == 1 && warmed.made == 0, "\(warmed)")
        #expect(try library.checkConsistency().problems.map(\.kind) == [.unrenderable])

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
