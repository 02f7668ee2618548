import Foundation
import PhotosTestSupport
import Testing

@testable import CoreLocation

@Suite("Gazetteer")
struct GazetteerTests {
    /// A few real GeoNames rows around Lisbon and Paris, deliberately out of order (the loader
    /// sorts files that aren't), with CRLF and LF line ends.
    static let sample = [
        "# test gazetteer",
        "# columns: name\tlatitude\tlongitude\tcountryCode\tadmin1\tadmin2Code\tfeatureCode\tpopulation",
        "Paris\t48.85341\t2.34880\tFR\tÎle-de-France\t75\tPPLC\t2138551",
        "Sintra\t38.80097\t-9.37826\tPT\tLisbon\t1111\tPPLA3\t26193",
        "Lisbon\t38.71667\t-9.13333\tPT\tLisbon\t1106\tPPLC\t517802\r",
        "Alfama\t38.71120\t-9.12772\tPT\tLisbon\t1106\tPPLX\t2471",
        "Benfica\t38.75087\t-9.20220\tPT\tLisbon\t1106\tPPL\t36985",
        "Amadora\t38.75382\t-9.23083\tPT\tLisbon\t1115\tPPLA2\t175136",
        "Cacilhas\t38.68790\t-9.14870\tPT\tSetúbal\t1503\tPPL\t6494",
        "Nukuʻalofa\t-21.13938\t-175.20180\tTO\tTongatapu\t\tPPLC\t22400",
        "Date Line East\t-21.10000\t179.95000\tFJ\t\t\tPPL\t1500",
    ].joined(separator: "\n") + "\n"

    static func write(_ text: String) throws -> URL {
        let folder = try TestImages.temporaryDirectory("gazetteer-tests")
        let file = folder.appendingPathComponent("gazetteer.tsv")
        try Data(text.utf8).write(to: file)
        return file
    }

    static func load(_ text: String) throws -> Gazetteer {
        let file = try write(text)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return try Gazetteer(contentsOf: file)
    }

    @Test func loadsAFileAndFindsTheNearestTown() throws {
        let gazetteer = try Self.load(Self.sample)
        #expect(gazetteer.count == 9)
        // Central Lisbon, 1.6 km from Alfama: the city alone.
        #expect(
            gazetteer.nearestPlace(latitude: 38.7223, longitude: -9.1393)
                == Place(name: "Lisbon", admin1: "Lisbon", countryCode: "PT"))
        #expect(gazetteer.nearestPlace(latitude: 38.7980, longitude: -9.3880)?.name == "Sintra")
        #expect(gazetteer.nearestPlace(latitude: 38.7540, longitude: -9.2310)?.name == "Amadora")
        // Across the river: Cacilhas is nearer than Lisbon's centre but a different town.
        #expect(gazetteer.nearestPlace(latitude: 38.6880, longitude: -9.1480)?.name == "Cacilhas")
        let paris = try #require(gazetteer.nearestPlace(latitude: 48.8606, longitude: 2.3376))
        #expect(paris == Place(name: "Paris", admin1: "Île-de-France", countryCode: "FR"))
        // A village 1.5 km away doesn't outweigh a big city 2.5 km away; at the village, it does.
        let village = try Self.load(Self.sample + "Village\t48.8700\t2.3000\tFR\tÎle-de-France\t92\tPPL\t1200\n")
        #expect(village.nearestPlace(latitude: 48.8705, longitude: 2.3005)?.name == "Village")
        #expect(village.nearestPlace(latitude: 48.8640, longitude: 2.3180)?.name == "Paris")
    }

    @Test func districtsOnlyCloseToThem() throws {
        let gazetteer = try Self.load(Self.sample)
        // A city section (PPLX) within its reach names the district.
        #expect(
            gazetteer.nearestPlace(latitude: 38.7115, longitude: -9.1280)
                == Place(name: "Lisbon", district: "Alfama", admin1: "Lisbon", countryCode: "PT"))
        // 4 km from Alfama: no district.
        #expect(gazetteer.nearestPlace(latitude: 38.7330, longitude: -9.1600)?.district == nil)
        // A smaller town of Lisbon's own municipality, within Lisbon's reach, is a district.
        #expect(
            gazetteer.nearestPlace(latitude: 38.7510, longitude: -9.2030)
                == Place(name: "Lisbon", district: "Benfica", admin1: "Lisbon", countryCode: "PT"))
        // Only city sections around: the nearest names the place.
        let sections = try Self.load("Alfama\t38.71120\t-9.12772\tPT\tLisbon\t1106\tPPLX\t2471\n")
        #expect(sections.nearestPlace(latitude: 38.7100, longitude: -9.1300)?.name == "Alfama")
    }

    @Test func nothingFarFromEveryTown() throws {
        let gazetteer = try Self.load(Self.sample)
        #expect(gazetteer.nearestPlace(latitude: 38.4, longitude: -9.8) == nil)  // 35 km off Lisbon, at sea
        #expect(gazetteer.nearestPlace(latitude: 30, longitude: -40) == nil)  // mid-Atlantic
        #expect(gazetteer.nearestPlace(latitude: .nan, longitude: 0) == nil)
        #expect(gazetteer.nearestPlace(latitude: 91, longitude: 0) == nil)
        #expect(gazetteer.nearestPlace(latitude: 90, longitude: 180) == nil)
        #expect(gazetteer.nearestPlace(latitude: -90, longitude: -180) == nil)
    }

    @Test func searchesAcrossTheDateLine() throws {
        let gazetteer = try Self.load(Self.sample)
        #expect(gazetteer.nearestPlace(latitude: -21.1, longitude: -179.99)?.name == "Date Line East")
        #expect(gazetteer.nearestPlace(latitude: -21.14, longitude: -175.2)?.name == "Nukuʻalofa")
    }

    @Test func skipsMalformedLines() throws {
        let text = [
            "",
            "# comment\twith\ttabs",
            "No coordinates",
            "Bad latitude\tnorth\t-9.1",
            "Out of range\t95.0\t-9.1",
            "Out of range too\t38.7\t-190",
            "\t38.7\t-9.1\tPT",  // no name
            "Two fields\t38.7",
            "Exponent\t3.8e1\t-9.1",
            "Double point\t38..7\t-9.1",
            "Sign only\t-\t-9.1",
            "Bad population\t38.7\t-9.13\tPT\t\t\tPPL\tmany",  // kept, population 0
            "Minimal\t10.5\t20.25",
            "Extra fields\t-10.5\t-20.25\tXX\tRegion\t1\tPPL\t5000\textra\tmore",
            "\r",
            "No final newline\t0.5\t0.5",
        ].joined(separator: "\n")
        let gazetteer = try Self.load(text)
        #expect(gazetteer.count == 4)
        #expect(gazetteer.nearestPlace(latitude: 38.7, longitude: -9.13)?.name == "Bad population")
        #expect(gazetteer.nearestPlace(latitude: 10.5, longitude: 20.25) == Place(name: "Minimal", countryCode: ""))
        #expect(
            gazetteer.nearestPlace(latitude: -10.5, longitude: -20.25)
                == Place(name: "Extra fields", admin1: "Region", countryCode: "XX"))
        #expect(gazetteer.nearestPlace(latitude: 0.5, longitude: 0.5)?.name == "No final newline")
        #expect(try Self.load("").count == 0)
        #expect(try Self.load("").nearestPlace(latitude: 0, longitude: 0) == nil)
        // Bytes that aren't UTF-8 are replaced when decoded, not a crash.
        let invalid = Gazetteer(bytes: [0xFF, 0xFE] + Array("\t1\t1\n\t\t\t".utf8))
        #expect(invalid.count == 1)
        #expect(invalid.nearestPlace(latitude: 1, longitude: 1)?.name == "\u{FFFD}\u{FFFD}")
    }

    @Test func missingFileThrows() {
        #expect(throws: (any Error).self) {
            try Gazetteer(contentsOf: URL(fileURLWithPath: "/nonexistent/gazetteer.tsv"))
        }
    }

    @Test func defaultLocation() {
        #expect(Gazetteer.defaultURL(environment: ["PHOTOS_GAZETTEER": "/x/g.tsv", "HOME": "/h"]).path == "/x/g.tsv")
        #expect(
            Gazetteer.defaultURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"]).path == "/data/photos/gazetteer.tsv")
        #expect(Gazetteer.defaultURL(environment: ["HOME": "/h"]).path == "/h/.local/share/photos/gazetteer.tsv")
        #expect(
            Gazetteer.defaultURL(environment: ["PHOTOS_GAZETTEER": "", "XDG_DATA_HOME": "relative", "HOME": "/h"]).path
                == "/h/.local/share/photos/gazetteer.tsv")
    }

    /// The file `scripts/fetch-gazetteer.sh` writes (`make deps`), when it is there.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Gazetteer.defaultURL().path)))
    func realGazetteer() throws {
        let places = try Gazetteer(contentsOf: Gazetteer.defaultURL())
        #expect(places.count > 100_000)

        let lisbon = try #require(places.nearestPlace(latitude: 38.7139, longitude: -9.1394))
        #expect(lisbon.name == "Lisbon" && lisbon.countryCode == "PT" && lisbon.admin1 == "Lisbon")
        let paris = try #require(places.nearestPlace(latitude: 48.8566, longitude: 2.3522))
        #expect(paris.name == "Paris" && paris.countryCode == "FR" && paris.admin1 == "Île-de-France")
        let tokyo = try #require(places.nearestPlace(latitude: 35.6762, longitude: 139.6503))
        #expect(tokyo.name == "Tokyo" && tokyo.countryCode == "JP")
        #expect(places.nearestPlace(latitude: 51.5007, longitude: -0.1246)?.name == "London")
        #expect(places.nearestPlace(latitude: 40.7580, longitude: -73.9855)?.district == "Hell's Kitchen")
        #expect(places.nearestPlace(latitude: 30, longitude: -40) == nil)  // mid-Atlantic
        #expect(places.nearestPlace(latitude: -80, longitude: 0) == nil)  // Antarctica
    }
}
