import Foundation
import Imaging
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// The edit round trip on real JPEGs: input, an editor's render, commit, versions, resume,
/// revert, and the bad outputs a commit refuses.
@Suite("Content editing")
struct ContentEditingTests {
    static let format = "com.example.crop"

    /// The input for `asset`, waiting for the handler.
    static func input(_ asset: PHAsset, canHandle: @escaping @Sendable (PHAdjustmentData) -> Bool = { _ in false }) throws -> PHContentEditingInput {
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = canHandle
        let result = Mutex<(PHContentEditingInput?, Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        asset.requestContentEditingInput(with: options) { input, _ in
            result.withLock { $0 = (input, Thread.isMainThread) }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 30)
        let (input, onMain) = try #require(result.withLock { $0 })
        #expect(!onMain)
        return try #require(input)
    }

    /// An editor that keeps the left half of the input image.
    static func leftHalf(of input: PHContentEditingInput, recipe: String = "left-half") throws -> PHContentEditingOutput {
        let output = PHContentEditingOutput(contentEditingInput: input)
        let image = try VipsImage(contentsOf: try #require(input.fullSizeImageURL)).autorotated()
        try image.cropped(x: 0, y: 0, width: image.width / 2, height: image.height).jpegData(quality: 90).write(to: output.renderedContentURL)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: format, formatVersion: "1.0", data: Data(recipe.utf8))
        return output
    }

    static func refetched(_ asset: PHAsset, _ library: PHPhotoLibrary) throws -> PHAsset {
        try #require(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject })
    }

    static func image(_ asset: PHAsset, version: PHImageRequestOptionsVersion) -> UIImage? {
        PHImageManagerTests.request(asset, CGSize(width: 200, height: 200)) {
            $0.deliveryMode = .highQualityFormat
            $0.version = version
        }.first?.image
    }

    static func renders(_ temporary: TemporaryLibrary) -> [String] {
        let folder = temporary.url.appendingPathComponent("renders")
        return (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.contains(".") }.sorted()
    }

    @Test func anEditBecomesTheCurrentVersionAndTheOriginalStays() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let asset = try PHImageManagerTests.asset(temporary)
        let originalFile = temporary.url.appendingPathComponent("originals").appendingPathComponent(try #require(temporary.originalFiles().first))
        let originalBytes = try Data(contentsOf: originalFile)
        #expect(Self.image(asset, version: .current)?.size == CGSize(width: 200, height: 150))

        let input = try Self.input(asset)
        #expect(input.adjustmentData == nil)
        #expect(input.fullSizeImageURL?.standardizedFileURL == originalFile.standardizedFileURL)
        #expect(input.displaySizeImage?.size == CGSize(width: 800, height: 600))
        #expect(input.mediaType == .image && input.uniformTypeIdentifier == "public.jpeg")

        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        let output = try Self.leftHalf(of: input)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let changes = recorder.wait(forPosition: library.currentChangeToken.position, after: 0)
        #expect(changes.last?.changeDetails(for: asset)?.assetContentChanged == true)

        let edited = try Self.refetched(asset, library)
        #expect(edited.hasAdjustments && edited.adjustmentFormatIdentifier == Self.format)
        #expect(edited.pixelWidth == 400 && edited.pixelHeight == 600)
        #expect(try Data(contentsOf: originalFile) == originalBytes, "the original is never modified")
        let types = library.withCurrent { PHAssetResource.assetResources(for: edited).map(\.type) }
        #expect(Set(types) == [.photo, .fullSizePhoto, .adjustmentData])

        // Versions: the current one is the left half (red reaches only half way), the others the whole photo.
        let current = try #require(Self.image(edited, version: .current))
        #expect(current.size == CGSize(width: 133, height: 200))
        #expect(Int(current.pixel(x: 131, y: 100)?[0] ?? 255) < 150)
        for version in [PHImageRequestOptionsVersion.unadjusted, .original] {
            let whole = try #require(Self.image(edited, version: version))
            #expect(whole.size == CGSize(width: 200, height: 150))
            #expect(Int(whole.pixel(x: 198, y: 75)?[0] ?? 0) > 205)
        }
        let data = Mutex<(Data?, String?)>((nil, nil))
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        PHImageManager.default().requestImageDataAndOrientation(for: edited, options: options) { bytes, type, _, _ in
            data.withLock { $0 = (bytes, type) }
        }
        #expect(data.withLock { $0.0 } != originalBytes && data.withLock { $0.1 } == "public.jpeg")
    }

    @Test func resumingFollowsWhatTheEditorCanRead() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let asset = try PHImageManagerTests.asset(temporary)
        let output = try Self.leftHalf(of: try Self.input(asset))
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let edited = try Self.refetched(asset, library)
        // An editor that reads the format gets the original and the recipe.
        let resumed = try Self.input(edited) { $0.formatIdentifier == Self.format }
        #expect(resumed.adjustmentData == PHAdjustmentData(formatIdentifier: Self.format, formatVersion: "1.0", data: Data("left-half".utf8)))
        #expect(resumed.fullSizeImageURL?.path.contains("/originals/") == true)
        #expect(resumed.displaySizeImage?.size == CGSize(width: 800, height: 600))
        // One that doesn't gets the rendered version, without data.
        let flattened = try Self.input(edited) { _ in false }
        #expect(flattened.adjustmentData == nil)
        #expect(flattened.fullSizeImageURL?.path.contains("/renders/") == true)
        #expect(flattened.displaySizeImage?.size == CGSize(width: 400, height: 600))

        // A second edit in the same format still reports a content change; the first edit's files go.
        let before = Self.renders(temporary)
        #expect(before.count == 2)
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        let again = try Self.leftHalf(of: resumed, recipe: "left-half again")
        try library.performChangesAndWait { PHAssetChangeRequest(for: edited).contentEditingOutput = again }
        let changes = recorder.wait(forPosition: library.currentChangeToken.position, after: 0)
        #expect(changes.last?.changeDetails(for: edited)?.assetContentChanged == true)
        let after = Self.renders(temporary)
        #expect(after.count == 2 && Set(after).isDisjoint(with: before))
        #expect(try Self.refetched(asset, library).currentAdjustmentData()?.data == Data("left-half again".utf8))
    }

    @Test func revertingBringsTheOriginalBack() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let asset = try PHImageManagerTests.asset(temporary)
        let output = try Self.leftHalf(of: try Self.input(asset))
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        #expect(Self.image(try Self.refetched(asset, library), version: .current)?.size.width == 133)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).revertAssetContentToOriginal() }
        let reverted = try Self.refetched(asset, library)
        #expect(!reverted.hasAdjustments && reverted.adjustmentFormatIdentifier == nil)
        #expect(reverted.pixelWidth == 800 && reverted.pixelHeight == 600)
        #expect(Self.renders(temporary).isEmpty)
        #expect(Self.image(reverted, version: .current)?.size == CGSize(width: 200, height: 150))
        let types = library.withCurrent { PHAssetResource.assetResources(for: reverted).map(\.type) }
        #expect(types == [.photo])
        // Reverting an unedited asset changes nothing.
        try library.performChangesAndWait { PHAssetChangeRequest(for: reverted).revertAssetContentToOriginal() }
        #expect(try Self.refetched(asset, library).modificationDate == reverted.modificationDate)
    }

    @Test func aBadOutputFailsTheBlockAndChangesNothing() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let asset = try PHImageManagerTests.asset(temporary)
        let input = try Self.input(asset)

        func failure(_ make: (PHContentEditingOutput) throws -> Void) throws -> String {
            let output = PHContentEditingOutput(contentEditingInput: input)
            output.adjustmentData = PHAdjustmentData(formatIdentifier: Self.format, formatVersion: "1", data: Data())
            try make(output)
            do {
                try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
            } catch {
                return "\(error)"
            }
            Issue.record("the block committed")
            return ""
        }
        #expect(try failure { _ in }.contains("is missing"))
        #expect(try failure { try Data("not a photo".utf8).write(to: $0.renderedContentURL) }.contains("is not an image"))
        #expect(try failure { output in
            try TestImages.jpeg().write(to: output.renderedContentURL)
            output.adjustmentData = nil
        }.contains("has no adjustmentData"))
        let unchanged = try Self.refetched(asset, library)
        #expect(!unchanged.hasAdjustments && unchanged.pixelWidth == 800)
        #expect(Self.renders(temporary).isEmpty)
        #expect(temporary.temporaryFiles().isEmpty, "staged copies removed")
    }

    @Test func editsReplaceTheDerivatives() throws {
        let temporary = try TemporaryLibrary()
        let asset = try DerivativeUseTests.imported(temporary)
        let thumbnail = DerivativeUseTests.derivative(temporary, asset, .thumbnail)
        #expect(FileManager.default.fileExists(atPath: thumbnail.path))
        let output = try Self.leftHalf(of: try Self.input(asset))
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        #expect(!FileManager.default.fileExists(atPath: thumbnail.path), "stale: made again from the edit on demand")
        let edited = try Self.refetched(asset, temporary.library)
        let square = try #require(DerivativeUseTests.request(edited, CGSize(width: 100, height: 100), .aspectFill, exact: true))
        #expect(square.size == CGSize(width: 100, height: 100))
    }

    /// Two edits in a row, each served at once by the same process: the second's pixels, not
    /// the first's from memory (the second render's resource row can take the first's row id,
    /// so images are keyed by the file they were made from).
    @Test func aSecondEditIsServedNotTheFirstFromMemory() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        var asset = try PHImageManagerTests.asset(temporary)
        func centre() throws -> [Double] {
            let image = try #require(Self.image(asset, version: .current))
            return try VipsImage(data: try #require(image.jpegData(compressionQuality: 1))).pixel(x: 100, y: 75)
        }
        func edit(_ change: (inout PHBasicAdjustments) -> Void) throws {
            let input = try Self.input(asset, canHandle: PHBasicAdjustments.canHandle)
            var recipe = input.adjustmentData.flatMap(PHBasicAdjustments.init(adjustmentData:)) ?? PHBasicAdjustments()
            change(&recipe)
            let output = PHContentEditingOutput(contentEditingInput: input)
            try recipe.render(imageAt: try #require(input.fullSizeImageURL), to: output.renderedContentURL)
            output.adjustmentData = recipe.adjustmentData
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
            asset = try Self.refetched(asset, library)
        }
        let original = try centre()
        try edit { $0.filter = .mono }
        let mono = try centre()
        #expect(abs(mono[0] - mono[1]) <= 2 && abs(mono[1] - mono[2]) <= 2, "\(original) → \(mono)")
        try edit { $0.exposure = 1 }
        let brighter = try centre()
        #expect(brighter[0] > mono[0] + 10, "exposure +1 after mono: \(mono) → \(brighter)")
        #expect(Self.renders(temporary).count == 2, "one render and its adjustment data: \(Self.renders(temporary))")
    }
}
