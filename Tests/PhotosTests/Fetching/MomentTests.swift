import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Moments")
struct MomentTests {
    static let day: TimeInterval = 86_400
    static let base = Date(timeIntervalSince1970: 1_577_836_800 + 10 * 3600)  // 2020-01-01 10:00 UTC

    static func asset(_ offset: TimeInterval, _ lat: Double? = nil, _ lon: Double? = nil) -> SyntheticAsset {
        var asset = SyntheticAsset(creationDate: base.addingTimeInterval(offset))
        asset.latitude = lat
        asset.longitude = lon
        return asset
    }

    static func moments(_ temporary: TemporaryLibrary) -> [[String]] {
        temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil).map { moment in
                PHAsset.fetchAssets(in: moment, options: nil).map(\.localIdentifier)
            }
        }
    }

    @Test func groupsByTimeGapAndLocationJump() throws {
        let temporary = try TemporaryLibrary()
        let a = [
            Self.asset(0, 48.85, 2.35), Self.asset(600, 48.86, 2.34),  // Paris, 10 minutes apart
            Self.asset(1200, 51.50, -0.12),  // London 10 minutes later: a jump
            Self.asset(3 * Self.day),  // three days later, no location
            Self.asset(3 * Self.day + 3600),
        ]
        try temporary.seed(a)
        #expect(Self.moments(temporary) == [[a[0], a[1]], [a[2]], [a[3], a[4]]].map { $0.map(\.localIdentifier) })
        try temporary.library.withCurrent {
            let moments = PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil)
            let paris = try #require(moments.firstObject)
            #expect(paris.assetCollectionType == .moment)
            #expect(paris.startDate == a[0].creationDate && paris.endDate == a[1].creationDate)
            let center = try #require(paris.approximateLocation?.coordinate)
            #expect(abs(center.latitude - 48.855) < 1e-9 && abs(center.longitude - 2.345) < 1e-9)
            #expect(paris.estimatedAssetCount == 2)
            #expect(moments[2].approximateLocation == nil)
        }
    }

    @Test func keptUpToDateAsAssetsArriveAndLeave() throws {
        let temporary = try TemporaryLibrary()
        let first = [Self.asset(0), Self.asset(8 * 3600)]  // 8 hours apart: two moments
        try temporary.seed(first)
        #expect(Self.moments(temporary).count == 2)
        let originalFirstMoment = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil)[0].localIdentifier
        }
        // A photo in between bridges the gap: one moment, keeping the first one's identifier.
        let bridge = Self.asset(4 * 3600)
        try temporary.seed([bridge])
        #expect(Self.moments(temporary) == [[first[0].localIdentifier, bridge.localIdentifier, first[1].localIdentifier]])
        let merged = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil)[0].localIdentifier
        }
        #expect(merged == originalFirstMoment)
        // Deleting it splits them again.
        let bridgeAsset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [bridge.localIdentifier], options: nil).firstObject })
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([bridgeAsset]) }
        #expect(Self.moments(temporary) == [[first[0].localIdentifier], [first[1].localIdentifier]])
        // Moving a date joins it to another moment.
        let second = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [first[1].localIdentifier], options: nil).firstObject })
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: second).creationDate = Self.base.addingTimeInterval(60) }
        #expect(Self.moments(temporary) == [[first[0].localIdentifier, first[1].localIdentifier]])
    }

    @available(*, deprecated, message: "exercises the deprecated moment-list API")
    @Test func clustersAndYears() throws {
        let temporary = try TemporaryLibrary()
        let assets = [
            Self.asset(0), Self.asset(6 * 3600),  // two moments on one day: one cluster
            Self.asset(10 * Self.day),  // a lone moment ten days later: another cluster
            Self.asset(400 * Self.day),  // next year
        ]
        try temporary.seed(assets)
        try temporary.library.withCurrent {
            let clusters = PHCollectionList.fetchCollectionLists(with: .momentList, subtype: .momentListCluster, options: nil)
            #expect(clusters.count == 3)
            let firstCluster = try #require(clusters.firstObject)
            #expect(PHCollection.fetchCollections(in: firstCluster, options: nil).count == 2)
            let years = PHCollectionList.fetchCollectionLists(with: .momentList, subtype: .momentListYear, options: nil)
            #expect(years.map(\.localizedTitle) == ["2020", "2021"])
            #expect(PHCollection.fetchCollections(in: years[0], options: nil).count == 3)
            let lastMoment = try #require(PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil).lastObject)
            #expect(PHCollectionList.fetchMomentLists(with: .momentListYear, containingMoment: lastMoment, options: nil).map(\.localizedTitle) == ["2021"])
            #expect(PHCollectionList.fetchCollectionListsContaining(lastMoment, options: nil).count == 2)
            #expect(PHAsset.fetchKeyAssets(in: lastMoment, options: nil)?.count == 1)
        }
    }
}
