import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Persistent change history")
struct PersistentHistoryTests {
    @Test func insertedUpdatedDeletedSinceAToken() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        let token = library.currentChangeToken
        let assets = library.withCurrent { Array(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)) }
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: assets[0]).isFavorite = true
            PHAssetChangeRequest.deleteAssets([assets[1]] as NSArray)
        }
        let added = try temporary.seed([SyntheticAsset()])
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "New")
        }
        let changes = Array(try library.fetchPersistentChanges(since: token))
        #expect(changes.count == 3)
        #expect(changes.map(\.changeToken) == changes.map(\.changeToken).sorted())
        #expect(changes.last?.changeToken == library.currentChangeToken)

        let first = try changes[0].changeDetails(for: .asset)
        #expect(first.updatedLocalIdentifiers == [ids[0]])
        #expect(first.deletedLocalIdentifiers == [ids[1]])
        #expect(first.insertedLocalIdentifiers.isEmpty)
        #expect(try changes[1].changeDetails(for: .asset).insertedLocalIdentifiers == Set(added))
        let album = try changes[2].changeDetails(for: .assetCollection)
        #expect(album.insertedLocalIdentifiers.count == 1)
        #expect(album.insertedLocalIdentifiers.first?.hasSuffix("/L0/040") == true)
        #expect(try changes[2].changeDetails(for: .asset).insertedLocalIdentifiers.isEmpty)
        #expect(Array(try library.fetchPersistentChanges(since: library.currentChangeToken)).isEmpty)
    }

    @Test func tokensArchiveAndCompare() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let old = library.currentChangeToken
        try temporary.seed([SyntheticAsset()])
        let new = library.currentChangeToken
        #expect(old < new)
        #expect(old != new)

        let archived = try NSKeyedArchiver.archivedData(withRootObject: new, requiringSecureCoding: true)
        let unarchived = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived))
        #expect(unarchived == new)
        let json = try JSONEncoder().encode(new)
        #expect(try JSONDecoder().decode(PHPersistentChangeToken.self, from: json) == new)
        #expect(Array(try library.fetchPersistentChanges(since: unarchived)).isEmpty)

        let text = new.stringValue
        #expect(PHPersistentChangeToken(stringValue: text) == new)
        #expect(PHPersistentChangeToken(stringValue: old.stringValue).map { $0 < new } == true)
        for bad in ["", "12", ":12", "\(new.libraryIdentifier):", "\(new.libraryIdentifier):-1", "\(new.libraryIdentifier):x1", "a b:3"] {
            #expect(PHPersistentChangeToken(stringValue: bad) == nil, "accepted '\(bad)'")
        }
    }

    @Test func aTokenOlderThanTheHistoryExpires() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        library.persistentChangeHistoryLimit = 3
        let ids = try temporary.seed([SyntheticAsset()])
        let asset = try #require(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil).firstObject })
        let old = library.currentChangeToken
        let oldChanges = Array(try library.fetchPersistentChanges(since: PHPersistentChangeToken(libraryIdentifier: old.libraryIdentifier, position: 0)))
        for index in 0..<6 {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = index % 2 == 0 }
        }
        #expect {
            try library.fetchPersistentChanges(since: old)
        } throws: { ($0 as? PHPhotosError)?.code == .persistentChangeTokenExpired }
        // A change fetched before it left the history can no longer give details.
        #expect {
            try oldChanges.first?.changeDetails(for: .asset)
        } throws: { ($0 as? PHPhotosError)?.code == .persistentChangeDetailsUnavailable }
        let recent = Array(try library.fetchPersistentChanges(since: PHPersistentChangeToken(libraryIdentifier: old.libraryIdentifier, position: library.currentChangeToken.position - 3)))
        #expect(recent.count == 3)
    }

    @Test func aTokenOfAnotherLibraryIsRefused() throws {
        let one = try TemporaryLibrary()
        let other = try TemporaryLibrary()
        #expect {
            try one.library.fetchPersistentChanges(since: other.library.currentChangeToken)
        } throws: { ($0 as? PHPhotosError)?.code == .persistentChangeTokenExpired }
    }
}
