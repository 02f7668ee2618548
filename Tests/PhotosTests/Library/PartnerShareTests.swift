import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Partner sharing: one person shares their photos (all, or from a date on) with another, who
/// sees them read-only and may show them in their own timeline. On both engines.
@Suite("Partner sharing")
struct PartnerShareTests {
    typealias Household = PersonLibraryTests.Household

    @Test func aPartnerSeesWhatIsSharedFromItsDateOnReadOnlyAndChoosesTheTimeline() throws {
        let house = try Household()  // Ana's first photo: May 1st
        let may5 = try house.add(to: house.ana, named: "ana", day: 5)
        let hidden = try house.add(to: house.ana, named: "hidden", day: 6)
        try house.ana.performChangesAndWait {
            PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [hidden], options: nil).firstObject!).isHidden = true
        }
        let bens = try house.add(to: house.ben, named: "ben", day: 5)
        // 2024-05-03 00:00 UTC: after May 1st, before May 5th in any time zone.
        try house.ana.sharePhotos(withPartner: "ben", since: Date(timeIntervalSince1970: 1_714_694_400))

        let shared = house.ben.withCurrent { PHAsset.fetchAssets(sharedByPartner: "Ana").map(\.localIdentifier) }
        #expect(shared == [may5], "from May 3rd on, never a hidden one")
        #expect(PersonLibraryTests.assets(house.ben) == [bens], "not in his timeline until he says so")
        #expect(try Self.search(house.ben, "jpg") == [bens], "nor in his searches")
        #expect(try house.ben.showPartnerPhotosInTimeline("ana", true))
        #expect(PersonLibraryTests.assets(house.ben) == [may5, bens] || PersonLibraryTests.assets(house.ben) == [bens, may5])
        #expect(try Self.search(house.ben, "jpg") == [may5, bens], "his searches see his timeline")
        #expect(try Self.search(house.ana, "jpg") == [may5, house.anasFirst], "hers: her own, not hidden")
        // By identifier, too (a thumbnail's request); read-only.
        house.ben.withCurrent { #expect(PHAsset.fetchAssets(withLocalIdentifiers: [may5, house.anasFirst], options: nil).count == 1) }
        let favorite = try #require(throws: PHPhotosError.self) {
            try house.ben.performChangesAndWait {
                PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [may5], options: nil).firstObject!).isFavorite = true
            }
        }
        #expect(favorite.code == .identifierNotFound)
        // One way: Ana sees nothing of Ben's.
        #expect(house.ana.withCurrent { PHAsset.fetchAssets(sharedByPartner: "ben").count } == 0)
        #expect(!PersonLibraryTests.assets(house.ana).contains(bens))
        let (made, received) = try house.ben.partnerShares()
        #expect(made.isEmpty && received.map { "\($0.owner.name) \($0.isInPartnersTimeline)" } == ["Ana true"])
        // Ended: gone from his timeline and his view of her photos.
        #expect(try house.ana.stopSharingPhotos(withPartner: "Ben"))
        #expect(PersonLibraryTests.assets(house.ben) == [bens])
        #expect(try Self.search(house.ben, "jpg") == [bens])
        #expect(house.ben.withCurrent { PHAsset.fetchAssets(sharedByPartner: "Ana").count } == 0)
    }

    /// What a search of `library` finds, as a set.
    static func search(_ library: PHPhotoLibrary, _ text: String) throws -> Set<String> {
        Set(try library.withCurrent { try PHAsset.fetchAssets(matching: text, options: nil) }.map(\.localIdentifier))
    }

    @Test func partnerSharingIsBetweenPeople() throws {
        let house = try Household()
        let error = try #require(throws: PHPhotosError.self) { try house.whole.sharePhotos(withPartner: "ben") }
        #expect(error.code == .changeNotSupported)
        #expect(throws: PHPhotosError.self) { try house.ana.sharePhotos(withPartner: "Nobody") }
        #expect(throws: PHPhotosError.self) { try house.ana.sharePhotos(withPartner: "ana") }
    }
}
