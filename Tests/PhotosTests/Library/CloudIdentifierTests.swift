import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Cloud identifiers: an asset's UUID and its original's SHA-256, mapped both ways with
/// Apple's per-identifier results, found again in another library by the photo's bytes.
@Suite("PHCloudIdentifier")
struct CloudIdentifierTests {
    static func add(_ file: URL, to library: PHPhotoLibrary) throws -> String {
        var identifier: String?
        try library.performChangesAndWait {
            identifier = PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: file)?.placeholderForCreatedAsset?.localIdentifier
        }
        return try #require(identifier)
    }

    @Test func identifiersMapBothWaysWithApplesErrors() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let file = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("a.jpg"), width: 40, height: 30)
        let other = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("b.jpg"), width: 30, height: 40)
        let first = try Self.add(file, to: library)
        let second = try Self.add(other, to: library)

        let unknown = "6A0D1D0B-0000-4000-8000-000000000000/L0/001"
        let mappings = library.cloudIdentifierMappings(forLocalIdentifiers: [first, second, unknown])
        #expect(mappings.count == 3)
        let cloud = try mappings[first]!.get()
        let fields = cloud.stringValue.split(separator: ":").map(String.init)
        #expect(fields.count == 3 && fields[1] == "001")
        #expect(first.hasPrefix(fields[0]))
        #expect(fields[2] == (try ContentHash.sha256(ofFileAt: file)))
        do {
            _ = try mappings[unknown]!.get()
            Issue.record("an unknown identifier mapped")
        } catch PHPhotosError.identifierNotFound {
        }

        let cloudSecond = try mappings[second]!.get()
        let back = library.localIdentifierMappings(for: [cloud, cloudSecond, PHCloudIdentifier(stringValue: "nonsense")])
        #expect(try back[cloud]?.get() == first)
        #expect(try back[cloudSecond]?.get() == second)
        #expect(throws: PHPhotosError.self) { try back[PHCloudIdentifier(stringValue: "nonsense")]?.get() }
        #expect(PHCloudIdentifier(stringValue: cloud.stringValue) == cloud)

        // Archived and read back as Apple's clients keep them.
        let archived = try NSKeyedArchiver.archivedData(withRootObject: cloud, requiringSecureCoding: true)
        let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: PHCloudIdentifier.self, from: archived)
        #expect(restored == cloud)
    }

    @Test func anotherLibraryFindsThePhotoByItsBytes() throws {
        let a = try TemporaryLibrary()
        let b = try TemporaryLibrary()
        let file = try TestImages.writeJPEG(to: a.scratch.appendingPathComponent("shared.jpg"), width: 48, height: 32)
        let inA = try Self.add(file, to: a.library)
        let cloud = try a.library.cloudIdentifierMappings(forLocalIdentifiers: [inA])[inA]!.get()

        #expect(throws: PHPhotosError.self) { try b.library.localIdentifierMappings(for: [cloud])[cloud]?.get() }
        let inB = try Self.add(file, to: b.library)
        #expect(inB != inA)
        #expect(try b.library.localIdentifierMappings(for: [cloud])[cloud]?.get() == inB)

        // Two assets with the same bytes: Apple's multipleIdentifiersFound, naming both.
        let copy = b.scratch.appendingPathComponent("copy.jpg")
        try FileManager.default.copyItem(at: file, to: copy)
        let again = try Self.add(copy, to: b.library)
        let result = b.library.localIdentifierMappings(for: [cloud])[cloud]
        do {
            _ = try result?.get()
            Issue.record("two matches mapped to one")
        } catch let error as PHPhotosError where error.code == .multipleIdentifiersFound {
            #expect(Set(error.localIdentifiers) == [inB, again])
        }
    }
}
