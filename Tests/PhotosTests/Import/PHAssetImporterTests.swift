import Foundation
import Imaging
@testable import Photos
import PhotosTestSupport
import Testing

@Suite("PHAssetImporter")
struct PHAssetImporterTests {
    /// A folder of files for one test.
    struct Folder {
        let url: URL

        init(_ temporary: TemporaryLibrary, _ name: String = "card") throws {
            url = temporary.scratch.appendingPathComponent(name, isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        @discardableResult
        func write(_ data: Data, _ name: String) throws -> URL {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
            return file
        }

        /// A small JPEG whose bytes differ for each `seed`.
        @discardableResult
        func photo(_ name: String, seed: Int = 0) throws -> URL {
            try write(TestImages.jpeg(width: 64 + seed, height: 48), name)
        }
    }

    static func assets(_ library: PHPhotoLibrary) -> [PHAsset] {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        return library.withCurrent { Array(PHAsset.fetchAssets(with: options)) }
    }

    static func resources(_ asset: PHAsset, _ library: PHPhotoLibrary) -> [PHAssetResourceType] {
        library.withCurrent { PHAssetResource.assetResources(for: asset).map(\.type) }
    }

    @Test func theSameBytesUnderAnyNameAreImportedOnce() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let first = try folder.photo("IMG_0001.JPG")
        let report = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(report.imported.count == 1)
        guard case .imported(let identifier, .image) = report.items.first?.outcome else {
            Issue.record("not imported: \(report.items)")
            return
        }

        // Again, and a copy under another name in another folder, and a copy beside the first in the same run.
        let other = try Folder(temporary, "backup")
        try FileManager.default.copyItem(at: first, to: other.url.appendingPathComponent("renamed.jpg"))
        let again = PHAssetImporter(library: library).importFiles(at: [folder.url, other.url])
        #expect(again.imported.isEmpty)
        #expect(again.duplicates.count == 2)
        #expect(again.items.allSatisfy { $0.outcome == .duplicateOfAsset(localIdentifier: identifier, isInRecentlyDeleted: false) })
        #expect(Self.assets(library).count == 1)
        #expect(temporary.temporaryFiles().isEmpty, "no staged copy left behind")

        // Two copies in one import: whichever is read first is imported, the other named its duplicate.
        let pair = try Folder(temporary, "pair")
        let a = try pair.photo("a.jpg", seed: 3)
        let b = pair.url.appendingPathComponent("b.jpg")
        try FileManager.default.copyItem(at: a, to: b)
        let both = PHAssetImporter(library: library).importFiles(at: [pair.url])
        let winner = try #require(both.imported.first?.files.first)
        #expect(both.imported.count == 1 && [a, b].contains(winner))
        #expect(both.duplicates.map(\.outcome) == [.duplicateOfFile(winner)])

        // Allowed on request.
        var options = PHAssetImporter.Options()
        options.allowsDuplicates = true
        #expect(PHAssetImporter(library: library, options: options).importFiles(at: [first]).imported.count == 1)
        #expect(Self.assets(library).count == 3)
    }

    @Test func aDuplicateInRecentlyDeletedSaysSo() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let file = try folder.photo("IMG_0002.JPG", seed: 1)
        #expect(PHAssetImporter(library: library).importFiles(at: [file]).imported.count == 1)
        let asset = try #require(Self.assets(library).first)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        let report = PHAssetImporter(library: library).importFiles(at: [file])
        #expect(report.items.first?.outcome == .duplicateOfAsset(localIdentifier: asset.localIdentifier, isInRecentlyDeleted: true))
    }

    @Test func sameNamedFilesBecomeLivePhotosAndRawPairs() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        var live = TestMovie()
        live.brand = .mov
        live.duration = 2.8
        try folder.photo("IMG_0100.jpg", seed: 5)
        try folder.write(live.data(), "IMG_0100.MOV")
        var long = TestMovie()
        long.duration = 30
        try folder.photo("IMG_0200.JPG", seed: 6)
        try folder.write(long.data(), "IMG_0200.MOV")
        try folder.photo("DSC_0300.JPG", seed: 7)
        try folder.write(RawFiles.nef(), "DSC_0300.NEF")

        let report = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(report.failures.isEmpty, "\(report.failures)")
        let assets = Self.assets(library)
        #expect(assets.count == 4, "live photo, photo + separate long video, photo with RAW")
        let byName = Dictionary(uniqueKeysWithValues: library.withCurrent {
            assets.map { asset in (PHAssetResource.assetResources(for: asset)[0].originalFilename, asset) }
        })
        let livePhoto = try #require(byName["IMG_0100.jpg"])
        #expect(livePhoto.mediaSubtypes.contains(.photoLive))
        #expect(Self.resources(livePhoto, library) == [.photo, .pairedVideo])
        let photo = try #require(byName["IMG_0200.JPG"])
        #expect(!photo.mediaSubtypes.contains(.photoLive))
        #expect(byName["IMG_0200.MOV"]?.mediaType == .video)
        let rawPair = try #require(byName["DSC_0300.JPG"])
        #expect(Set(Self.resources(rawPair, library)) == [.photo, .alternatePhoto])
    }

    @Test func badFilesAreListedWithTheirReasonAndTheRestImported() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let good = try folder.photo("good.jpg", seed: 9)
        let empty = try folder.write(Data(), "empty.jpg")
        let cut = try folder.write(TestImages.truncated(try TestImages.jpeg(width: 300, height: 200, noisy: true), keeping: 0.5), "cut.jpg")
        let text = try folder.write(Data("not a photo at all".utf8), "notes.jpg")
        let bomb = try folder.write(try TestImages.pngClaiming(width: 100_000, height: 100_000), "bomb.png")
        let dangling = folder.url.appendingPathComponent("gone.jpg")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent/photo.jpg")
        // A link from a subfolder back to the folder itself: searched once, not forever.
        let sub = folder.url.appendingPathComponent("sub", isDirectory: true)
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sub.appendingPathComponent("loop").path, withDestinationPath: folder.url.path)

        let report = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(report.imported.map(\.files) == [[good]])
        func reason(_ url: URL) -> String? {
            report.items.first { $0.files.first?.lastPathComponent == url.lastPathComponent }.flatMap {
                if case .failed(let reason) = $0.outcome { reason } else { nil }
            }
        }
        #expect(reason(empty)?.contains("empty (0 bytes)") == true, "\(String(describing: reason(empty)))")
        #expect(reason(cut)?.contains("truncated") == true, "\(String(describing: reason(cut)))")
        #expect(reason(text)?.contains("not a photo or video") == true, "\(String(describing: reason(text)))")
        #expect(reason(bomb)?.contains("100000×100000 pixels") == true, "\(String(describing: reason(bomb)))")
        #expect(reason(dangling)?.contains("No such file") == true, "\(String(describing: reason(dangling)))")
        #expect(report.items.contains { $0.files.first?.lastPathComponent == "loop" })
        #expect(Self.assets(library).count == 1)
        #expect(temporary.temporaryFiles().isEmpty)
    }

    @Test func aCancelledImportKeepsWhatItCommittedAndResumes() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let files = try (0..<40).map { try folder.photo(String(format: "IMG_%04d.JPG", $0), seed: $0) }
        var options = PHAssetImporter.Options()
        options.batchSize = 5
        options.maximumConcurrentFiles = 1
        let importer = PHAssetImporter(library: library, options: options)
        let report = importer.importFiles(at: [folder.url]) { progress in
            if progress.importedAssets >= 5 { importer.cancel() }
        }
        #expect(report.wasCancelled)
        #expect(!report.notReached.isEmpty)
        let committed = Self.assets(library).count
        #expect(committed == report.imported.count)
        #expect(committed >= 5 && committed < 40)
        #expect(report.imported.count + report.notReached.count + report.duplicates.count == 40)

        // Again: the rest is imported, what was committed is recognised.
        let resumed = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(!resumed.wasCancelled)
        #expect(resumed.duplicates.count == committed)
        #expect(resumed.imported.count == 40 - committed)
        let names = library.withCurrent { Self.assets(library).map { PHAssetResource.assetResources(for: $0)[0].originalFilename } }
        #expect(Set(names) == Set(files.map(\.lastPathComponent)))
        #expect(temporary.temporaryFiles().isEmpty)
    }

    @Test func progressCountsEveryFileAndByte() throws {
        let temporary = try TemporaryLibrary()
        let folder = try Folder(temporary)
        for index in 0..<12 { try folder.photo("p\(index).jpg", seed: index) }
        try folder.write(Data(), "zero.jpg")
        var last: PHImportProgress?
        let report = PHAssetImporter(library: temporary.library).importFiles(at: [folder.url]) { last = $0 }
        let final = try #require(last)
        #expect(report.imported.count == 12)
        #expect(final.totalFiles == 13)
        #expect(final.processedFiles == 13)
        #expect(final.processedBytes == final.totalBytes)
        #expect(final.importedAssets == 12)
        #expect(final.failedFiles == 1)
    }

    @Test func subtypesComeFromWhatTheFilesSay() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        func apple(_ note: ExifBuilder.AppleMakerNote) -> ExifBuilder {
            var exif = ExifBuilder(make: "Apple", model: "iPhone 15")
            exif.appleMakerNote = note
            return exif
        }
        try folder.write(TestImages.jpegWithRawExif(apple(.init(hdrImageType: 3))), "hdr.jpg")
        try folder.write(TestImages.jpegWithRawExif(apple(.init(imageCaptureType: 2)), width: 66), "portrait.jpg")
        try folder.write(TestImages.jpegWithRawExif(apple(.init(frontFacingCamera: true)), width: 68), "selfie.jpg")
        try folder.write(TestImages.jpeg(width: 300, height: 100, exif: ExifBuilder(make: "Canon", model: "EOS R6")), "sweep.jpg")
        try folder.write(TestImages.png(width: 90, height: 60), "screen.png")
        try folder.write(TestImages.jpeg(width: 70, height: 50, exif: ExifBuilder(make: "Canon", model: "EOS R6")), "plain.jpg")
        #expect(PHAssetImporter(library: library).importFiles(at: [folder.url]).imported.count == 6)

        let byName = Dictionary(uniqueKeysWithValues: library.withCurrent {
            Self.assets(library).map { (PHAssetResource.assetResources(for: $0)[0].originalFilename, $0) }
        })
        #expect(byName["hdr.jpg"]?.mediaSubtypes == .photoHDR)
        #expect(byName["portrait.jpg"]?.mediaSubtypes == .photoDepthEffect)
        #expect(byName["sweep.jpg"]?.mediaSubtypes == .photoPanorama)
        #expect(byName["screen.png"]?.mediaSubtypes == .photoScreenshot)
        #expect(byName["plain.jpg"]?.mediaSubtypes == [])
        #expect(byName["selfie.jpg"]?.mediaSubtypes == [])
        let selfies = library.withCurrent { () -> [String] in
            guard let album = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumSelfPortraits, options: nil).firstObject
            else { return [] }
            return PHAsset.fetchAssets(in: album, options: nil).map(\.localIdentifier)
        }
        #expect(selfies == [byName["selfie.jpg"]?.localIdentifier])
    }

    @Test func appleContentIdentifiersDecideLivePhotoPairs() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        func still(_ identifier: String, seed: Int) throws -> Data {
            var exif = ExifBuilder(make: "Apple", model: "iPhone 15")
            exif.appleMakerNote = .init(contentIdentifier: identifier)
            return try TestImages.jpegWithRawExif(exif, width: 64 + seed)
        }
        func movie(_ identifier: String, seconds: TimeInterval) -> Data {
            var movie = TestMovie()
            movie.brand = .mov
            movie.duration = seconds
            movie.appleKeys = ["com.apple.quicktime.content.identifier": identifier]
            return movie.data()
        }
        let a = "AAAAAAAA-0000-4000-8000-000000000001", b = "BBBBBBBB-0000-4000-8000-000000000002"
        try folder.write(try still(a, seed: 1), "IMG_0001.JPG")
        try folder.write(movie(a, seconds: 6), "IMG_0001.MOV")  // long, but the same key: paired
        try folder.write(try still(a, seed: 2), "IMG_0002.JPG")
        try folder.write(movie(b, seconds: 2), "IMG_0002.MOV")  // short, but another key: apart
        let report = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(report.failures.isEmpty, "\(report.failures)")
        let assets = Self.assets(library)
        #expect(assets.count == 3)
        let live = assets.filter { $0.mediaSubtypes.contains(.photoLive) }
        #expect(live.count == 1)
        let names = library.withCurrent { live.first.map { PHAssetResource.assetResources(for: $0).map(\.originalFilename) } }
        #expect(names == ["IMG_0001.JPG", "IMG_0001.MOV"])
    }

    @Test func appleBurstsCollapseToTheirSharpestFrame() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let burst = "5E1C0F3A-1111-4222-8333-944455556666"
        for index in 0..<4 {
            var exif = ExifBuilder(make: "Apple", model: "iPhone 15", dateTimeOriginal: "2024:06:01 10:00:0\(index)")
            exif.appleMakerNote = .init(burstUUID: burst)
            // Frame 2 is the sharp one: noise has far more edges than a smooth gradient.
            let image = try TestImages.image(width: 200, height: 150, noisy: index == 2).jpegData(quality: 90 - index)
            try folder.write(TestImages.splice(exif, into: image), "IMG_000\(index).JPG")
        }
        let report = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(report.imported.count == 4)
        #expect(report.burstCount == 1)

        let shown = library.withCurrent { Array(PHAsset.fetchAssets(with: nil)) }
        #expect(shown.count == 1, "a burst shows as its representative")
        let representative = try #require(shown.first)
        #expect(representative.representsBurst)
        #expect(representative.burstIdentifier == burst)
        #expect(representative.burstSelectionTypes == .autoPick)
        #expect(library.withCurrent { PHAssetResource.assetResources(for: representative)[0].originalFilename } == "IMG_0002.JPG")

        let all = PHFetchOptions()
        all.includeAllBurstAssets = true
        let members = library.withCurrent { Array(PHAsset.fetchAssets(withBurstIdentifier: burst, options: all)) }
        #expect(members.count == 4)
        // Keeping another frame (a user pick) shows it too.
        let other = try #require(members.first { !$0.representsBurst })
        try library.performChangesAndWait { PHAssetChangeRequest(for: other).burstSelectionTypes = .userPick }
        #expect(library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 2)
    }

    @Test func quickFramesFromOneCameraAreDetectedAsABurst() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        func frame(_ name: String, time: String, subSeconds: String, model: String = "EOS R6", seed: Int) throws {
            let exif = ExifBuilder(make: "Canon", model: model, dateTimeOriginal: "2024:06:01 \(time)", subSecTimeOriginal: subSeconds)
            try folder.write(try TestImages.jpeg(width: 120, height: 80, exif: exif, quality: 80 + seed), name)
        }
        try frame("A1.JPG", time: "10:00:00", subSeconds: "10", seed: 1)
        try frame("A2.JPG", time: "10:00:00", subSeconds: "30", seed: 2)
        try frame("A3.JPG", time: "10:00:00", subSeconds: "55", seed: 3)
        try frame("A4.JPG", time: "10:00:09", subSeconds: "00", seed: 4)  // 8.5 s later: not in the burst
        try frame("B1.JPG", time: "10:00:00", subSeconds: "20", model: "EOS R5", seed: 5)  // another camera
        let report = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(report.imported.count == 5)
        #expect(report.burstCount == 1)
        let all = PHFetchOptions()
        all.includeAllBurstAssets = true
        let assets = library.withCurrent { Array(PHAsset.fetchAssets(with: all)) }
        let names = library.withCurrent { Dictionary(uniqueKeysWithValues: assets.map { (PHAssetResource.assetResources(for: $0)[0].originalFilename, $0) }) }
        let identifier = try #require(names["A1.JPG"]?.burstIdentifier)
        #expect(names["A2.JPG"]?.burstIdentifier == identifier && names["A3.JPG"]?.burstIdentifier == identifier)
        #expect(names["A4.JPG"]?.burstIdentifier == nil && names["B1.JPG"]?.burstIdentifier == nil)
        #expect(assets.filter(\.representsBurst).count == 1)
        #expect(library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 3, "the burst's representative, A4 and B1")
    }

    @Test func gridThumbnailsAreMadeWhileImporting() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        // Stored 900×600 with orientation 6: upright it is 600×900.
        let file = try folder.write(TestImages.jpeg(width: 900, height: 600, exif: ExifBuilder(orientation: 6), noisy: true), "portrait.jpg")
        var options = PHAssetImporter.Options()
        options.makesThumbnails = true
        let report = PHAssetImporter(library: library, options: options).importFiles(at: [folder.url])
        guard case .imported(let identifier, _) = try #require(report.imported.first).outcome else { return }
        let uuid = String(identifier.prefix(36))
        let derivatives = temporary.url.appendingPathComponent("derivatives/\(uuid.prefix(1))")
        let thumbnail = try VipsImage(contentsOf: derivatives.appendingPathComponent("\(uuid)_thumbnail.jpg"))
        #expect((thumbnail.width, thumbnail.height) == (256, 256))
        #expect(thumbnail.exifData == nil)
        #expect(!FileManager.default.fileExists(atPath: derivatives.appendingPathComponent("\(uuid)_preview.jpg").path))
        #expect(temporary.temporaryFiles().isEmpty)

        // Both kinds from one decode: the preview upright and not enlarged.
        let both = try StandardDerivative.render([.preview, .thumbnail], photoAt: file)
        let preview = try VipsImage(data: try #require(both[.preview]))
        #expect((preview.width, preview.height) == (600, 900))
        let square = try VipsImage(data: try #require(both[.thumbnail]))
        #expect((square.width, square.height) == (256, 256))

        // Without the option, none.
        let plain = try TemporaryLibrary()
        _ = PHAssetImporter(library: plain.library).importFiles(at: [folder.url])
        let made = FileManager.default.enumerator(atPath: plain.url.appendingPathComponent("derivatives").path)?.allObjects ?? []
        #expect(made.compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") }.isEmpty)
    }
}
