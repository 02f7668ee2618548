import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `value(forKey:)` as apps use it on PhotoKit objects, with the values key-value coding gives
/// on Apple's platforms (numbers as `NSNumber`, so `as? Int`, `as? Int64` and `as? Bool` work).
@Suite("Key-value reads of PhotoKit objects")
struct KeyValueReadingTests {
    static func importedPhoto(_ temporary: TemporaryLibrary, name: String = "IMG_0042.JPG") throws -> PHAsset {
        var exif = ExifBuilder()
        exif.orientation = 6
        let file = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent(name), width: 120, height: 80, exif: exif)
        var identifier: String?
        try temporary.library.performChangesAndWait {
            let request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)
            request?.isFavorite = true
            identifier = request?.placeholderForCreatedAsset?.localIdentifier
        }
        let created = try #require(identifier)
        return try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject })
    }

    @Test func assetsAnswerTheirPropertiesAndFilename() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.importedPhoto(temporary)
        #expect(asset.value(forKey: "filename") as? String == "IMG_0042.JPG")
        #expect(asset.value(forKey: "localIdentifier") as? String == asset.localIdentifier)
        #expect(asset.value(forKey: "mediaType") as? Int == PHAssetMediaType.image.rawValue)
        #expect((asset.value(forKey: "mediaType") as? NSNumber)?.intValue == 1)
        #expect(asset.value(forKey: "pixelWidth") as? Int == 80)
        #expect(asset.value(forKey: "pixelHeight") as? Int64 == 120)
        #expect(asset.value(forKey: "favorite") as? Bool == true)
        #expect(asset.value(forKey: "isFavorite") as? Bool == true)
        #expect(asset.value(forKey: "hidden") as? Bool == false)
        #expect(asset.value(forKey: "creationDate") as? Date == asset.creationDate)
        #expect(asset.value(forKey: "uniformTypeIdentifier") as? String == "public.jpeg")
        #expect(asset.value(forKey: "burstIdentifier") == nil)
        #expect(asset.value(forKey: "duration") as? Double == 0)
        #expect(asset.value(forKeyPath: "localIdentifier") as? String == asset.localIdentifier)
    }

    @Test func resourcesAnswerFileSizeAndLocalAvailability() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.importedPhoto(temporary)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let onDisk = try #require(
            FileManager.default.attributesOfItem(atPath: temporary.scratch.appendingPathComponent("IMG_0042.JPG").path)[.size] as? NSNumber)
        #expect(resource.value(forKey: "fileSize") as? Int64 == onDisk.int64Value)
        #expect(resource.value(forKey: "fileSize") as? Int == onDisk.intValue)
        #expect(resource.value(forKey: "locallyAvailable") as? Bool == true)
        #expect(resource.value(forKey: "originalFilename") as? String == "IMG_0042.JPG")
        #expect(resource.value(forKey: "type") as? Int == PHAssetResourceType.photo.rawValue)
    }

    @Test func collectionsAnswerTheirProperties() throws {
        let temporary = try TemporaryLibrary()
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
        }
        let album = try #require(temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil).firstObject
        })
        #expect(album.value(forKey: "localizedTitle") as? String == "Trip")
        #expect(album.value(forKey: "title") as? String == "Trip")
        #expect(album.value(forKey: "assetCollectionType") as? Int == PHAssetCollectionType.album.rawValue)
        #expect(album.value(forKey: "estimatedAssetCount") as? Int == 0)
        #expect(album.value(forKey: "canContainAssets") as? Bool == true)
    }

    @Test func anUnknownKeyStopsTheProcessAsTheUncaughtExceptionDoes() async {
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            let ids = try temporary.seed([SyntheticAsset()])
            let asset = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil).firstObject }
            _ = asset?.value(forKey: "noSuchKey")
        }
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            let asset = try Self.importedPhoto(temporary)
            _ = PHAssetResource.assetResources(for: asset).first?.value(forKey: "noSuchKey")
        }
    }
}
