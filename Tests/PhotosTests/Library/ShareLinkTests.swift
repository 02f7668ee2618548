import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Public links at the library's level: what they open, and what can't be made into one. On
/// both engines.
@Suite("Public links")
struct ShareLinkTests {
    typealias Household = PersonLibraryTests.Household

    @Test func aLinkOpensWhatItsMakerSeesUntilRevokedOrExpired() throws {
        let house = try Household()
        let bens = try house.add(to: house.ben, named: "ben", day: 4)
        let anas = house.ana.withCurrent { PHAsset.fetchAssets(with: nil).map { $0 } }
        let (link, secret) = try house.ana.createShareLink(assets: anas, title: "Mine", password: "link password")
        #expect(link.hasPassword && !link.allowsDownload && link.identifier.hasPrefix("ln_") && secret.hasPrefix("pl_"))
        let grant = try #require(try house.whole.shareLinkGrant(forSecret: secret))
        #expect(grant.assetIdentifiers == Set(anas.map(\.localIdentifier)) && grant.owner?.name == "Ana")
        #expect(PHPhotoLibrary.checkShareLinkPassword("link password", of: grant))
        #expect(!PHPhotoLibrary.checkShareLinkPassword("wrong password", of: grant))
        #expect(try house.whole.shareLinkGrant(forSecret: "pl_guessed") == nil)
        // Ana can't link Ben's photo: her library doesn't show it.
        let his = house.whole.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil).map { $0 } }
        let refused = try #require(throws: PHPhotosError.self) { try house.ana.createShareLink(assets: his, title: "His") }
        #expect(refused.code == .identifierNotFound)
        #expect(throws: PHPhotosError.self) { try house.ana.createShareLink(title: "Nothing") }
        #expect(throws: PHPhotosError.self) { try house.ana.createShareLink(assets: anas, title: "Short", password: "short") }
        // Ben can't revoke Ana's; she can.
        #expect(try !house.ben.revokeShareLink(withIdentifier: link.identifier))
        #expect(try house.ana.revokeShareLink(withIdentifier: link.identifier))
        #expect(try house.whole.shareLinkGrant(forSecret: secret) == nil)
        let (_, expired) = try house.ana.createShareLink(assets: anas, title: "Old", expiration: Date(timeIntervalSinceNow: -1))
        #expect(try house.whole.shareLinkGrant(forSecret: expired) == nil)
        // The secret and the password are kept only as hashes.
        let stored = try house.temporary.texts("SELECT secretHash || ' ' || COALESCE(passwordHash, '') FROM shareLink")
        #expect(stored.allSatisfy { !$0.contains("pl_") && !$0.contains("link password") })
    }
}
