import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Persistent history in a person's library: their own objects' changes and those of others'
/// objects shared with them, nothing of what others keep to themselves, not even that a change
/// happened. On both engines (the PostgreSQL pass runs it too).
@Suite("A person's persistent history")
struct PersonHistoryTests {
    typealias Household = PersonLibraryTests.Household

    /// Every identifier a history lists, by kind, e.g. `inserted` → identifiers.
    static func listed(_ library: PHPhotoLibrary, since token: PHPersistentChangeToken) throws -> (changes: Int, objects: [String: Set<String>]) {
        var objects: [String: Set<String>] = [:]
        var count = 0
        for change in try library.fetchPersistentChanges(since: token) {
            count += 1
            for type in [PHObjectType.asset, .assetCollection, .collectionList] {
                let details = try change.changeDetails(for: type)
                objects["inserted", default: []].formUnion(details.insertedLocalIdentifiers)
                objects["updated", default: []].formUnion(details.updatedLocalIdentifiers)
                objects["deleted", default: []].formUnion(details.deletedLocalIdentifiers)
            }
        }
        return (count, objects)
    }

    @Test func aPersonsHistoryHoldsTheirObjectsAndWhatIsSharedWithThemOnly() throws {
        let house = try Household()
        try house.whole.addPerson(named: "Cy", password: "cy's password")
        let cy = try house.whole.library(forPerson: "Cy")
        let start = house.whole.currentChangeToken
        let bensStart = house.ben.currentChangeToken
        #expect(bensStart.stringValue == start.stringValue, "a person's token is the library's position")

        // Ana: a private photo and album, and a shared album with Ben (viewer) holding her first photo.
        let anasPrivate = try house.add(to: house.ana, named: "ana-private", day: 2)
        var privateAlbum = "", trip = ""
        try house.ana.performChangesAndWait {
            let mine = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Private")
            mine.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [anasPrivate], options: nil))
            privateAlbum = mine.placeholderForCreatedAssetCollection.localIdentifier
        }
        try house.ana.performChangesAndWait {
            let shared = PHAssetCollectionChangeRequest.creationRequestForSharedAlbum(withTitle: "Trip")
            shared.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [house.anasFirst], options: nil))
            shared.addMember("Ben", role: .viewer)
            trip = shared.placeholderForCreatedAssetCollection.localIdentifier
        }
        // Ben: a photo of his own. Ana: a favorite of her private photo, then of the shared one.
        let bens = try house.add(to: house.ben, named: "ben", day: 3)
        try house.ana.performChangesAndWait {
            PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [anasPrivate], options: nil).firstObject!).isFavorite = true
        }
        try house.ana.performChangesAndWait {
            PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [house.anasFirst], options: nil).firstObject!).isFavorite = true
        }
        // Ana deletes her private photo.
        try house.ana.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(PHAsset.fetchAssets(withLocalIdentifiers: [anasPrivate], options: nil))
        }

        let ben = try Self.listed(house.ben, since: bensStart)
        #expect(ben.objects["inserted"]?.contains(bens) == true, "his own photo")
        #expect(ben.objects["inserted"]?.contains(trip) == true, "the album shared with him")
        #expect(ben.objects["updated"]?.contains(house.anasFirst) == true, "the shared photo: joined the album, then a favorite")
        let hidden = [anasPrivate, privateAlbum]
        for kind in ["inserted", "updated", "deleted"] {
            for identifier in hidden { #expect(ben.objects[kind]?.contains(identifier) != true, "Ben's history \(kind) lists \(identifier)") }
        }
        // Three changes are his: his photo, the shared album, the shared photo's favorite.
        #expect(ben.changes == 3, "changes listed to Ben: \(ben.changes)")

        let ana = try Self.listed(house.ana, since: start)
        #expect(ana.objects["inserted"]?.isSuperset(of: [anasPrivate, privateAlbum, trip]) == true)
        #expect(ana.objects["deleted"]?.contains(anasPrivate) == true)
        #expect(ana.objects["inserted"]?.contains(bens) != true && ana.objects["updated"]?.contains(bens) != true, "Ben's own photo")

        // Cy is in nothing: an empty history, though the library changed seven times.
        let cys = try Self.listed(cy, since: start)
        #expect(cys.changes == 0, "\(cys.objects)")
        #expect(try Self.listed(house.whole, since: start).changes == 7)
    }

    @Test func aPartnersPhotosAreInTheirPartnersHistory() throws {
        let house = try Household()
        try house.ana.sharePhotos(withPartner: "Ben", since: nil)
        let start = house.ben.currentChangeToken
        let anas = try house.add(to: house.ana, named: "ana-shared", day: 4)
        let ben = try Self.listed(house.ben, since: start)
        #expect(ben.objects["inserted"] == [anas])
        try house.ana.stopSharingPhotos(withPartner: "Ben")
        let later = house.ben.currentChangeToken
        _ = try house.add(to: house.ana, named: "ana-not-shared", day: 5)
        #expect(try Self.listed(house.ben, since: later).changes == 0)
    }
}
