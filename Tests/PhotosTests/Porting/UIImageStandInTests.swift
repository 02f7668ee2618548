import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The members photo code uses on the images PhotoKit hands back, with UIKit's meaning.
@Suite("UIImage and CGImage stand-ins")
struct UIImageStandInTests {
    @Test func imagesFromDataKeepTheirOrientationAndStoredPixels() throws {
        var exif = ExifBuilder()
        exif.orientation = 6
        let jpeg = try TestImages.jpeg(width: 120, height: 80, exif: exif)
        let image = try #require(UIImage(data: jpeg))
        #expect(image.imageOrientation == .right)
        #expect(image.scale == 1)
        #expect(image.size == CGSize(width: 80, height: 120))
        let bitmap = try #require(image.cgImage)
        // As on Apple's platforms, the bitmap is the stored pixels, not turned.
        #expect(bitmap.width == 120)
        #expect(bitmap.height == 80)
        #expect(bitmap.bitsPerComponent == 8)
        #expect(bitmap.bitsPerPixel == 24)
        #expect(bitmap.bytesPerRow == 360)
        #expect(bitmap.alphaInfo == .none)
        #expect(bitmap.dataProvider?.data?.count == 120 * 80 * 3)

        // Encoding applies the orientation to the pixels.
        let png = try #require(image.pngData())
        let upright = try #require(UIImage(data: png))
        #expect(upright.size == CGSize(width: 80, height: 120))
        #expect(upright.imageOrientation == .up)
        let encoded = try #require(image.jpegData(compressionQuality: 0.9))
        let fromJPEG = try #require(UIImage(data: encoded))
        #expect(fromJPEG.size == CGSize(width: 80, height: 120))
        #expect(UIImage(data: Data("not an image".utf8)) == nil)
    }

    @Test func scaleDividesTheSizeInPoints() throws {
        let png = try TestImages.png(width: 64, height: 48)
        let image = try #require(UIImage(data: png, scale: 2))
        #expect(image.scale == 2)
        #expect(image.size == CGSize(width: 32, height: 24))
        #expect(image.cgImage?.width == 64)
    }

    @Test func bitmapsRoundTripAndCrop() throws {
        let image = try #require(UIImage(data: try TestImages.png(width: 64, height: 48)))
        let bitmap = try #require(image.cgImage)
        let copy = UIImage(cgImage: bitmap)
        #expect(copy.size == CGSize(width: 64, height: 48))
        #expect(copy.cgImage?.dataProvider?.data == bitmap.dataProvider?.data)
        let turned = UIImage(cgImage: bitmap, scale: 1, orientation: .left)
        #expect(turned.size == CGSize(width: 48, height: 64))
        let turnedPNG = try #require(turned.pngData())
        #expect(UIImage(data: turnedPNG)?.size == CGSize(width: 48, height: 64))

        let corner = try #require(bitmap.cropping(to: CGRect(x: 60, y: 40, width: 10, height: 10)))
        #expect(corner.width == 4)
        #expect(corner.height == 8)
        let bytes = try #require(corner.dataProvider?.data)
        let original = try #require(bitmap.dataProvider?.data)
        // The crop's first pixel is the original's pixel (60, 40).
        let offset = 40 * bitmap.bytesPerRow + 60 * 3
        #expect(Array(bytes.prefix(3)) == Array(original[offset..<(offset + 3)]))
        #expect(bitmap.cropping(to: CGRect(x: 100, y: 100, width: 5, height: 5)) == nil)
    }

    @Test func imagesFromTheManagerAreUpright() throws {
        let temporary = try TemporaryLibrary()
        let asset = try KeyValueReadingTests.importedPhoto(temporary)
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        var delivered: UIImage?
        PHImageManager.default().requestImage(
            for: asset, targetSize: PHImageManagerMaximumSize, contentMode: .default, options: options
        ) { image, _ in delivered = image }
        let image = try #require(delivered)
        #expect(image.imageOrientation == .up)
        #expect(image.size == CGSize(width: 80, height: 120))
        #expect(image.cgImage?.width == 80)
        #expect(image.cgImage?.height == 120)
    }
}

/// `requestImageData(for:options:resultHandler:)`, deprecated since iOS 13 and still called.
/// Called through a protocol so this file builds without a deprecation warning, as an app
/// supporting older systems would guard it.
protocol LegacyImageDataRequesting {
    @discardableResult
    func requestImageData(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, UIImage.Orientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID
}

extension PHImageManager: LegacyImageDataRequesting {}

@Suite("PHImageManager.requestImageData")
struct LegacyImageDataTests {
    @Test func deliversTheOriginalBytesWithUIKitsOrientation() throws {
        let temporary = try TemporaryLibrary()
        let asset = try KeyValueReadingTests.importedPhoto(temporary)
        let manager: any LegacyImageDataRequesting = PHImageManager.default()
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        var result: (Data?, String?, UIImage.Orientation)?
        manager.requestImageData(for: asset, options: options) { data, type, orientation, _ in
            result = (data, type, orientation)
        }
        let (data, type, orientation) = try #require(result)
        #expect(type == "public.jpeg")
        #expect(orientation == .right)
        let original = try Data(contentsOf: temporary.scratch.appendingPathComponent("IMG_0042.JPG"))
        #expect(data == original)
    }
}
