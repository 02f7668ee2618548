import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Moments named from the offline gazetteer. Each library here is opened with a small gazetteer
/// the test writes (its configuration's `gazetteer`), so neither the machine's gazetteer file
/// nor the environment matters, and tests running in parallel don't see each other's.
@Suite("Moment place names")
struct MomentPlaceNameTests {
    static let day: TimeInterval = 86_400
    static let base = Date(timeIntervalSince1970: 1_577_836_800 + 10 * 3600)  // 2020-01-01 10:00 UTC

    /// Real GeoNames rows (see `scripts/fetch-gazetteer.sh`).
    static let gazetteer = [
        "# test gazetteer",
        "Lisbon\t38.71667\t-9.13333\tPT\tLisbon\t1106\tPPLC\t517802",
        "Alfama\t38.71120\t-9.12772\tPT\tLisbon\t1106\tPPLX\t2471",
        "Amadora\t38.75382\t-9.23083\tPT\tLisbon\t1115\tPPLA2\t175136",
        "Sintra\t38.80097\t-9.37826\tPT\tLisbon\t1111\tPPLA3\t26193",
        "Paris\t48.85341\t2.34880\tFR\tÎle-de-France\t75\tPPLC\t2138551",
    ].joined(separator: "\n") + "\n"

    static let lisbon = (38.7223, -9.1393)  // Avenida da Liberdade, 1.6 km from Alfama
    static let alfama = (38.7115, -9.1280)
    static let amadora = (38.7540, -9.2310)  // 8.7 km from `lisbon`: the same moment
    static let sintra = (38.7976, -9.3906)
    static let paris = (48.8584, 2.2945)

    static func asset(_ offset: TimeInterval, _ place: (Double, Double)? = nil) -> SyntheticAsset {
        var asset = SyntheticAsset(creationDate: base.addingTimeInterval(offset))
        asset.latitude = place?.0
        asset.longitude = place?.1
        return asset
    }

    /// A library whose moments are named from the test gazetteer.
    static func library(function: String = #function) throws -> TemporaryLibrary {
        try TemporaryLibrary(configuration: configuration(.custom(testGazetteer())), function: function)
    }

    /// The test gazetteer, read from a file as the machine's is.
    static func testGazetteer() throws -> Gazetteer {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-\(UUID().uuidString).tsv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(gazetteer.utf8).write(to: file)
        return try Gazetteer(contentsOf: file)
    }

    static func configuration(_ gazetteer: GazetteerChoice) -> PHPhotoLibrary.Configuration {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.gazetteer = gazetteer
        return configuration
    }

    /// Each moment's title and location names, in date order.
    @available(*, deprecated, message: "exercises the deprecated moment API")
    static func names(_ temporary: TemporaryLibrary) -> [Names] {
        temporary.library.withCurrent {
            PHAssetCollection.fetchMoments(with: nil).map { Names($0.localizedTitle, $0.localizedLocationNames) }
        }
    }

    struct Names: Equatable, CustomStringConvertible {
        var title: String?
        var locations: [String]
        init(_ title: String?, _ locations: [String]) {
            self.title = title
            self.locations = locations
        }
        var description: String { "\(title ?? "nil") \(locations)" }
    }

    @available(*, deprecated, message: "exercises the deprecated moment API")
    @Test func momentsAreNamedFromTheirAssetsPlaces() throws {
        let temporary = try Self.library()
        let assets = [
            // Day 1: two photos in Lisbon, then one in Amadora.
            Self.asset(0, Self.lisbon), Self.asset(600, Self.lisbon), Self.asset(1200, Self.amadora),
            // Day 2: Alfama, mostly.
            Self.asset(Self.day, Self.alfama), Self.asset(Self.day + 600, Self.lisbon), Self.asset(Self.day + 1200, Self.alfama),
            // Day 4: Paris.
            Self.asset(3 * Self.day, Self.paris),
            // Day 6: no location.
            Self.asset(5 * Self.day),
            // Day 8: at sea, far from any town.
            Self.asset(7 * Self.day, (30, -40)),
        ]
        try temporary.seed(assets)
        #expect(
            Self.names(temporary) == [
                Names("Lisbon & Amadora", ["Lisbon", "Amadora"]),
                Names("Lisbon - Alfama", ["Lisbon"]),
                Names("Paris", ["Paris"]),
                Names(nil, []),
                Names(nil, []),
            ])

        // Clusters list their moments' places, most common first, and have no title.
        try temporary.library.withCurrent {
            let clusters = PHCollectionList.fetchCollectionLists(with: .momentList, subtype: .momentListCluster, options: nil)
            #expect(clusters.count == 4)
            let first = try #require(clusters.firstObject)
            #expect(PHCollection.fetchCollections(in: first, options: nil).count == 2)
            #expect(first.localizedLocationNames == ["Lisbon", "Amadora"])
            #expect(first.localizedTitle == nil)
            #expect(clusters[1].localizedLocationNames == ["Paris"])
            #expect(clusters[2].localizedLocationNames == [])
        }

        // Names follow changes: the Amadora photo leaves, the one at sea moves to Sintra.
        let (amadora, atSea) = try temporary.library.withCurrent {
            let fetched = PHAsset.fetchAssets(withLocalIdentifiers: [assets[2].localIdentifier, assets[8].localIdentifier], options: nil)
            return (try #require(fetched.firstObject), try #require(fetched.lastObject))
        }
        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([amadora])
            PHAssetChangeRequest(for: atSea).location = CLLocation(latitude: Self.sintra.0, longitude: Self.sintra.1)
        }
        #expect(
            Self.names(temporary) == [
                Names("Lisbon", ["Lisbon"]),
                Names("Lisbon - Alfama", ["Lisbon"]),
                Names("Paris", ["Paris"]),
                Names(nil, []),
                Names("Sintra", ["Sintra"]),
            ])
    }

    @available(*, deprecated, message: "exercises the deprecated moment API")
    @Test func creationRequestsNameMomentsToo() throws {
        let temporary = try Self.library()
        let file = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("photo.jpg"))
        try temporary.library.performChangesAndWait {
            let request = PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: file)
            request?.creationDate = Self.base
            request?.location = CLLocation(latitude: Self.sintra.0, longitude: Self.sintra.1)
        }
        #expect(Self.names(temporary) == [Names("Sintra", ["Sintra"])])
    }

    @available(*, deprecated, message: "exercises the deprecated moment API")
    @Test func noGazetteerNoNames() throws {
        let temporary = try TemporaryLibrary(configuration: Self.configuration(.custom(nil)))
        try temporary.seed([Self.asset(0, Self.lisbon), Self.asset(600, Self.alfama)])
        #expect(Self.names(temporary) == [Names(nil, [])])
    }

    /// Moments written while no gazetteer was installed get their names when the library next
    /// opens with one; a moment looked up with no town near is not looked up again.
    @available(*, deprecated, message: "exercises the deprecated moment API")
    @Test func momentsMadeBeforeTheGazetteerAreNamedAtTheNextOpen() throws {
        let temporary = try TemporaryLibrary(configuration: Self.configuration(.custom(nil)))
        try temporary.seed([
            Self.asset(0, Self.lisbon), Self.asset(600, Self.alfama), Self.asset(Self.day, Self.sintra),
            Self.asset(3 * Self.day, (30, -40)), Self.asset(5 * Self.day),
        ])
        #expect(Self.names(temporary) == Array(repeating: Names(nil, []), count: 4))
        #expect(try temporary.openStoreAgain(gazetteer: .custom(nil)).nameUnnamedMoments() == 0, "still no gazetteer")

        let reopened = try temporary.openStoreAgain(gazetteer: .custom(try Self.testGazetteer()))
        #expect(
            Self.names(temporary) == [
                Names("Lisbon", ["Lisbon"]), Names("Sintra", ["Sintra"]), Names(nil, []), Names(nil, []),
            ])
        #expect(try reopened.nameUnnamedMoments() == 0, "named once; the moment at sea is not looked up again")
        let cluster = temporary.library.withCurrent {
            PHCollectionList.fetchCollectionLists(with: .momentList, subtype: .momentListCluster, options: nil).firstObject
        }
        #expect(cluster?.localizedLocationNames == ["Lisbon", "Sintra"])
    }
}
