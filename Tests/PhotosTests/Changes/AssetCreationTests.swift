import Foundation
import Imaging
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Creating assets from files")
struct AssetCreationTests {
    static func create(_ temporary: TemporaryLibrary, _ make: () -> PHAssetChangeRequest?) throws -> PHAsset {
        var identifier: String?
        try temporary.library.performChangesAndWait {
            identifier = make()?.placeholderForCreatedAsset?.localIdentifier
        }
        let id = try #require(identifier)
        return try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject })
    }

    @Test func readsSizeDateZoneAndGPSFromEXIF() throws {
        let temporary = try TemporaryLibrary()
        var exif = ExifBuilder(
            make: "Canon", model: "EOS R5", dateTimeOriginal: "2021:07:04 18:30:15", subSecTimeOriginal: "25",
            offsetTimeOriginal: "-07:00", latitude: -33.8568, longitude: 151.2153, altitude: -12.5)
        exif.gpsHorizontalError = 4.5
        let file = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("IMG_0001.JPG"), width: 120, height: 80, exif: exif)
        let asset = try Self.create(temporary) { PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file) }
        #expect(asset.mediaType == .image)
        #expect(asset.playbackStyle == .image)
        #expect(asset.pixelWidth == 120 && asset.pixelHeight == 80)
        // 18:30:15.25 at UTC-7 is 01:30:15.25 UTC the next day.
        let expected = Date(timeIntervalSince1970: 1_625_448_615.25)
        #expect(abs(asset.creationDate!.timeIntervalSince(expected)) < 0.001)
        let location = try #require(asset.location)
        #expect(abs(location.coordinate.latitude + 33.8568) < 1e-6 && abs(location.coordinate.longitude - 151.2153) < 1e-6)
        #expect(abs(location.altitude + 12.5) < 1e-6)
        #expect(location.horizontalAccuracy == 4.5)
        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.count == 1)
        #expect(resources[0].type == .photo)
        #expect(resources[0].originalFilename == "IMG_0001.JPG")
        #expect(resources[0].uniformTypeIdentifier == "public.jpeg")
        #expect(resources[0].fileSize == Int64(try Data(contentsOf: file).count))
        #expect(resources[0].assetLocalIdentifier == asset.localIdentifier)
        // The source is copied, not moved.
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(temporary.originalFiles().count == 1)
        #expect(temporary.temporaryFiles().isEmpty)
    }

    @Test func orientationSixSwapsTheReportedSize() throws {
        let temporary = try TemporaryLibrary()
        let file = try TestImages.writeJPEG(
            to: temporary.scratch.appendingPathComponent("rotated.jpg"), width: 90, height: 60, exif: ExifBuilder(orientation: 6))
        let asset = try Self.create(temporary) { PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file) }
        #expect(asset.pixelWidth == 60 && asset.pixelHeight == 90)
    }

    @Test func realCameraPhotos() throws {
        let temporary = try TemporaryLibrary()
        let nikon = Fixtures.url("sample1.jpg"), panasonic = Fixtures.url("bug143608-comment.jpg")
        let first = try Self.create(temporary) { PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: nikon) }
        #expect(first.pixelWidth == 500 && first.pixelHeight == 375)
        #expect(abs(first.location!.coordinate.latitude - 39.9155555555556) < 1e-9)
        #expect(abs(first.location!.coordinate.longitude - 116.390833333333) < 1e-9)
        let second = try Self.create(temporary) { PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: panasonic) }
        #expect(second.pixelWidth == 428 && second.pixelHeight == 640, "Orientation 6: portrait")
        #expect(second.location == nil)
    }

    @Test func pngWebPAndHEIC() throws {
        let temporary = try TemporaryLibrary()
        let exif = ExifBuilder(dateTimeOriginal: "2019:01:02 03:04:05", offsetTimeOriginal: "+00:00")
        var formats: [(String, Data, String)] = [
            ("a.png", try TestImages.png(width: 30, height: 20, exif: exif), "public.png"),
            ("b.webp", try TestImages.webp(width: 30, height: 20, exif: exif), "org.webmproject.webp"),
        ]
        if VipsImage.canSaveHEIF { formats.append(("c.heic", try TestImages.heic(width: 30, height: 20, exif: exif), "public.heic")) }
        for (name, data, uti) in formats {
            let file = temporary.scratch.appendingPathComponent(name)
            try data.write(to: file)
            let asset = try Self.create(temporary) { PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file) }
            #expect(asset.pixelWidth == 30 && asset.pixelHeight == 20, "\(name)")
            #expect(asset.creationDate == Date(timeIntervalSince1970: 1_546_398_245), "\(name)")
            #expect(PHAssetResource.assetResources(for: asset).first?.uniformTypeIdentifier == uti, "\(name)")
        }
    }

    @Test func videoFromAFile() throws {
        let temporary = try TemporaryLibrary()
        var movie = TestMovie()
        movie.width = 1920
        movie.height = 1080
        movie.rotation = 90
        movie.duration = 7.5
        movie.frameRate = 240
        movie.appleLocation = "+48.8584+002.2945+035.000/"
        movie.appleCreationDate = "2022-05-01T12:00:00+0200"
        movie.brand = .mov
        let file = temporary.scratch.appendingPathComponent("clip.mov")
        try movie.data().write(to: file)
        let asset = try Self.create(temporary) { PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: file) }
        #expect(asset.mediaType == .video)
        #expect(asset.playbackStyle == .video)
        #expect(asset.duration == 7.5)
        #expect(asset.pixelWidth == 1080 && asset.pixelHeight == 1920, "rotated 90°")
        #expect(asset.mediaSubtypes.contains(.videoHighFrameRate), "240 fps is slo-mo")
        #expect(asset.creationDate == Date(timeIntervalSince1970: 1_651_399_200))
        #expect(abs(asset.location!.coordinate.latitude - 48.8584) < 1e-6)
        #expect(PHAssetResource.assetResources(for: asset).first?.type == .video)
        #expect(PHAssetResource.assetResources(for: asset).first?.uniformTypeIdentifier == "com.apple.quicktime-movie")
    }

    @Test func fromImageDataAndUIImage() throws {
        let temporary = try TemporaryLibrary()
        let data = try TestImages.jpeg(width: 40, height: 30, exif: ExifBuilder(userComment: "Screenshot"))
        let image = try #require(UIImage(data: data))
        #expect(image.size == CGSize(width: 40, height: 30))
        #expect(UIImage(data: Data("not an image".utf8)) == nil)
        let png = try #require(image.pngData())
        #expect(UIImage(data: png)?.size == CGSize(width: 40, height: 30))
        let asset = try Self.create(temporary) { PHAssetChangeRequest.creationRequestForAsset(from: image) }
        #expect(asset.pixelWidth == 40)
        #expect(asset.mediaSubtypes.contains(.photoScreenshot))
        let creation = try Self.create(temporary) {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = "from-memory.jpg"
            request.addResource(with: .photo, data: data, options: options)
            request.isFavorite = true
            request.creationDate = Date(timeIntervalSince1970: 1_000_000_000)
            return request
        }
        #expect(creation.isFavorite)
        #expect(creation.creationDate == Date(timeIntervalSince1970: 1_000_000_000))
        #expect(PHAssetResource.assetResources(for: creation).first?.originalFilename == "from-memory.jpg")
    }

    @Test func livePhotoPairAndRAWAlternate() throws {
        let temporary = try TemporaryLibrary()
        let still = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("IMG_1.HEIC.jpg"), width: 40, height: 30)
        var movie = TestMovie()
        movie.duration = 3
        let video = temporary.scratch.appendingPathComponent("IMG_1.MOV")
        try movie.data().write(to: video)
        let live = try Self.create(temporary) {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: still, options: nil)
            request.addResource(with: .pairedVideo, fileURL: video, options: nil)
            return request
        }
        #expect(live.mediaSubtypes.contains(.photoLive))
        #expect(live.playbackStyle == .livePhoto)
        #expect(PHAssetResource.assetResources(for: live).map(\.type) == [.photo, .pairedVideo])
        #expect(PHAssetCreationRequest.supportsAssetResourceTypes([1, 9].map { NSNumber(value: $0) }))
        #expect(PHAssetCreationRequest.supportsAssetResourceTypes([1, 4].map { NSNumber(value: $0) }))
        #expect(!PHAssetCreationRequest.supportsAssetResourceTypes([9].map { NSNumber(value: $0) }))
        #expect(!PHAssetCreationRequest.supportsAssetResourceTypes([2, 2].map { NSNumber(value: $0) }))
    }

    @Test func shouldMoveFileMovesItIn() throws {
        let temporary = try TemporaryLibrary()
        let file = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("move-me.jpg"))
        _ = try Self.create(temporary) {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.shouldMoveFile = true
            request.addResource(with: .photo, fileURL: file, options: options)
            return request
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(temporary.originalFiles().count == 1)
    }
}

@Suite("A failed creation leaves nothing behind")
struct AssetCreationFailureTests {
    static func attempt(_ temporary: TemporaryLibrary, _ files: [URL], move: Bool = false) -> PHPhotosError? {
        do {
            try temporary.library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Should not exist")
                for file in files {
                    let request = PHAssetCreationRequest.forAsset()
                    let options = PHAssetResourceCreationOptions()
                    options.shouldMoveFile = move
                    request.addResource(with: .photo, fileURL: file, options: options)
                }
            }
            return nil
        } catch {
            return error as? PHPhotosError
        }
    }

    static func expectUntouched(_ temporary: TemporaryLibrary) {
        temporary.library.withCurrent {
            #expect(PHAsset.fetchAssets(with: nil).count == 0)
            #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
        }
        #expect(temporary.originalFiles().isEmpty)
        #expect(temporary.temporaryFiles().isEmpty)
    }

    @Test(arguments: ["truncated", "empty", "text", "missing", "directory"])
    func badFileFailsTheWholeBlock(kind: String) throws {
        let temporary = try TemporaryLibrary()
        let good = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("good.jpg"), width: 64, height: 48, noisy: true)
        let bad = temporary.scratch.appendingPathComponent("bad-\(kind).jpg")
        switch kind {
        case "truncated": try TestImages.truncated(try Data(contentsOf: good), keeping: 0.5).write(to: bad)
        case "empty": try Data().write(to: bad)
        case "text": try Data("hello, this is not a photo\n".utf8).write(to: bad)
        case "directory": try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        default: break
        }
        let error = try #require(Self.attempt(temporary, [good, bad]))
        #expect(error.code == .invalidResource)
        #expect(error.message.contains(bad.path), "the message names the file: \(error.message)")
        Self.expectUntouched(temporary)
    }

    /// Issue 33: a JPEG whose Huffman table libjpeg can't build ("Bogus Huffman table
    /// definition") has a header libvips reads; the probe's structure check refuses it, from a
    /// file (copied or moved) and from memory, naming the table, and nothing is written.
    @Test func aBogusHuffmanTableFailsTheWholeBlockNamingIt() throws {
        let temporary = try TemporaryLibrary()
        let good = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("good.jpg"), width: 64, height: 48, noisy: true)
        let bad = try MalformedInputs.bogusHuffmanJPEG().write(into: temporary.scratch)
        let before = try Data(contentsOf: good)
        for move in [false, true] {
            let error = try #require(Self.attempt(temporary, [good, bad], move: move))
            #expect(error.code == .invalidResource)
            #expect(error.message.hasPrefix("Can't add \(bad.path): "), "\(error.message)")
            #expect(error.message.contains("is a damaged JPEG: the Huffman table DC 0 (DHT at offset 16267) is bogus"), "\(error.message)")
            #expect(try Data(contentsOf: good) == before, "moved: \(move)")
            #expect(FileManager.default.fileExists(atPath: bad.path))
            Self.expectUntouched(temporary)
        }
        let data = try Data(contentsOf: bad)
        let error = #expect(throws: PHPhotosError.self) {
            try temporary.library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: data, options: nil)
            }
        }
        #expect(error?.code == .invalidResource)
        #expect(error?.message.contains("is bogus: its counts of codes by length") == true, "\(error?.message ?? "")")
        Self.expectUntouched(temporary)
    }

    @Test func aMovedFileComesBackWhenTheBlockFails() throws {
        let temporary = try TemporaryLibrary()
        let good = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("good.jpg"))
        let before = try Data(contentsOf: good)
        let bad = temporary.scratch.appendingPathComponent("bad.jpg")
        try Data("nope".utf8).write(to: bad)
        #expect(Self.attempt(temporary, [good, bad], move: true) != nil)
        #expect(try Data(contentsOf: good) == before, "the moved file is back where it was")
        Self.expectUntouched(temporary)
    }

    @Test func aFailingStoreCommitRollsTheFilesBack() throws {
        // Two creation requests can't both add the same album twice; instead make the
        // transaction fail after the files were staged: edit an asset that doesn't exist.
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset()])
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([asset]) }
        let good = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("good.jpg"))
        let error = #expect(throws: PHPhotosError.self) {
            try temporary.library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: good)
                PHAssetChangeRequest(for: asset).isFavorite = true
            }
        }
        #expect(error?.code == .identifierNotFound)
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 0)
        #expect(temporary.originalFiles().isEmpty)
        #expect(temporary.temporaryFiles().isEmpty)
    }
}
