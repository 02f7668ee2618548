import Foundation
import PhotosLocking
import PhotosTestSupport
import Testing

@testable import Photos

/// Files that belong to nothing, in every folder the library owns: found by the check,
/// removed by the repair (originals moved aside, never deleted).
@Suite("Stray files")
struct OrphanFileTests {
    @Test func checkFindsThemEverywhereAndRepairRemovesOrMovesThem() throws {
        let temporary = try TemporaryLibrary()
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("a.jpg"), width: 300, height: 200)
        var identifier = ""
        try temporary.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)!.placeholderForCreatedAsset!.localIdentifier
        }
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject })
        // A real edit and a real thumbnail: they belong to the asset.
        let output = PHContentEditingOutput(contentEditingInput: try #require(EditInput.request(asset)))
        try PHBasicAdjustments(quarterTurns: 1).render(imageAt: photo, to: output.renderedContentURL)
        output.adjustmentData = PHBasicAdjustments(quarterTurns: 1).adjustmentData
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        _ = try temporary.library.makeDerivatives(previews: false)
        #expect(try temporary.library.checkConsistency().isConsistent)

        let gone = "0BADC0DE-0000-4000-8000-000000000000"
        let strays = [
            "renders/\(asset.uuid.prefix(1))/\(asset.uuid)_1700000000000.jpg",  // a render a killed revert left
            "derivatives/0/\(gone)_thumbnail.jpg",
            "cache/remote/0/\(gone)_1.jpg",
            "tmp/4194301-7/staged.jpg",  // a process that is gone
            "originals/0/\(gone).jpg",
        ]
        for stray in strays {
            let url = temporary.url.appendingPathComponent(stray)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("stray".utf8).write(to: url)
        }
        let report = try temporary.library.checkConsistency()
        let found = report.problems.filter { $0.kind == .orphanFile }.map(\.detail)
        #expect(found.count == strays.count, "\(found)")
        for stray in strays { #expect(found.contains { $0.hasPrefix(stray) }, "\(stray) in \(found)") }

        let repair = try temporary.library.repairOrphanFiles()
        #expect(Set(repair.removed) == Set(strays.dropLast()))
        #expect(repair.recovered.count == 1 && repair.recovered[0].from == strays.last)
        let moved = temporary.url.appendingPathComponent(repair.recovered[0].to)
        #expect(try Data(contentsOf: moved) == Data("stray".utf8), "the stray original is kept, moved aside")
        #expect(try temporary.library.checkConsistency(verifyingContents: true).isConsistent)
        // The asset's own edit and thumbnail are still there.
        #expect(PHAssetResource.assetResources(for: asset).map(\.type).contains(.fullSizePhoto))
        #expect(temporary.library.derivativeCacheStatus().thumbnails == 1)
    }
}

/// A content-editing input, waited for.
enum EditInput {
    static func request(_ asset: PHAsset) -> PHContentEditingInput? {
        let done = DispatchSemaphore(value: 0)
        let input = Mutex<UncheckedSendable<PHContentEditingInput?>>(UncheckedSendable(nil))
        asset.requestContentEditingInput(with: nil) { value, _ in
            input.withLock { $0 = UncheckedSendable(value) }
            done.signal()
        }
        done.wait()
        return input.withLock { $0.value }
    }
}
