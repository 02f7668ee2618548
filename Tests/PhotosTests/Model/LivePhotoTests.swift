import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

@Suite("PHLivePhoto")
struct LivePhotoTests {
    /// A 64x48 JPEG still and a 2-second MOV beside it.
    static func files(_ temporary: TemporaryLibrary) throws -> (photo: URL, video: URL) {
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("IMG_0001.JPG"), width: 64, height: 48)
        var movie = TestMovie()
        movie.brand = .mov
        let video = temporary.scratch.appendingPathComponent("IMG_0001.MOV")
        try movie.data().write(to: video)
        return (photo, video)
    }

    /// Every delivery of one request, in order.
    static func deliveries(
        _ urls: [URL], placeholder: UIImage? = nil, cancel: Bool = false
    ) async -> [(PHLivePhoto?, [AnyHashable: Any])] {
        final class Box: @unchecked Sendable {  // guarded by `lock`
            let lock = Mutex<Void>(())
            var deliveries: [(PHLivePhoto?, [AnyHashable: Any])] = []
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let id = PHLivePhoto.request(
            withResourceFileURLs: urls, placeholderImage: placeholder, targetSize: .zero, contentMode: .aspectFit
        ) { livePhoto, info in
            box.lock.withLock { _ in box.deliveries.append((livePhoto, info)) }
            let final = info[PHLivePhotoInfoIsDegradedKey] as? Bool != true || livePhoto != nil
            if final { done.signal() }
        }
        #expect(id != PHLivePhotoRequestIDInvalid)
        if cancel { PHLivePhoto.cancelRequest(withRequestID: id) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        return box.lock.withLock { _ in box.deliveries }
    }

    @Test func aPhotoAndAVideoMakeALivePhotoWithTheStillsSize() async throws {
        let temporary = try TemporaryLibrary()
        let (photo, video) = try Self.files(temporary)
        let results = await Self.deliveries([video, photo])
        #expect(results.count == 1)
        let livePhoto = try #require(results.first?.0)
        #expect(livePhoto.size == CGSize(width: 64, height: 48))
        #expect(results[0].1[PHLivePhotoInfoIsDegradedKey] as? Bool == false)

        let resources = PHAssetResource.assetResources(for: livePhoto)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(resources.map(\.originalFilename) == ["IMG_0001.JPG", "IMG_0001.MOV"])
        #expect(resources[0].uniformTypeIdentifier == "public.jpeg")
        #expect(resources[1].uniformTypeIdentifier == "com.apple.quicktime-movie")
    }

    @Test func aPlaceholderIsDeliveredFirstAsDegraded() async throws {
        let temporary = try TemporaryLibrary()
        let (photo, video) = try Self.files(temporary)
        let placeholder = try #require(UIImage(data: try TestImages.jpeg(width: 8, height: 6)))
        let results = await Self.deliveries([photo, video], placeholder: placeholder)
        #expect(results.count == 2)
        #expect(results.first?.0 == nil)
        #expect(results.first?.1[PHLivePhotoInfoIsDegradedKey] as? Bool == true)
        #expect(results.last?.0 != nil)
    }

    @Test func twoPhotosAreRefusedWithAnErrorNamingTheFiles() async throws {
        let temporary = try TemporaryLibrary()
        let (photo, _) = try Self.files(temporary)
        let other = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("other.jpg"))
        let results = await Self.deliveries([photo, other])
        #expect(results.count == 1)
        #expect(results[0].0 == nil)
        let error = try #require(results[0].1[PHLivePhotoInfoErrorKey] as? PHPhotosError)
        #expect(error.code == .invalidResource)
        #expect("\(error)".contains("other.jpg"))
    }

    @Test func aCancelledRequestSaysSo() async throws {
        let temporary = try TemporaryLibrary()
        let (photo, video) = try Self.files(temporary)
        // The cancel may land after delivery; either outcome is one final call, and a
        // cancelled one carries the key and no Live Photo.
        let results = await Self.deliveries([photo, video], cancel: true)
        #expect(results.count == 1)
        if results[0].1[PHLivePhotoInfoCancelledKey] as? Bool == true {
            #expect(results[0].0 == nil)
        } else {
            #expect(results[0].0 != nil)
        }
    }

    @Test func secureCodingRoundTrips() throws {
        let livePhoto = PHLivePhoto(
            size: CGSize(width: 4032, height: 3024), photoURL: URL(fileURLWithPath: "/a/IMG.HEIC"),
            videoURL: URL(fileURLWithPath: "/a/IMG.MOV"))
        let data = try NSKeyedArchiver.archivedData(withRootObject: livePhoto, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: PHLivePhoto.self, from: data))
        #expect(decoded.size == livePhoto.size)
        #expect(decoded.photoURL == livePhoto.photoURL)
        #expect(decoded.videoURL == livePhoto.videoURL)
    }
}
