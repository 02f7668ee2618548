import CoreLocation
import Testing

@testable import PhotosStore

@Suite("Moment place names")
struct MomentPlaceNamesTests {
    @Test func momentTitles() {
        let lisbon = Place(name: "Lisbon", countryCode: "PT")
        let alfama = Place(name: "Lisbon", district: "Alfama", countryCode: "PT")
        let sintra = Place(name: "Sintra", countryCode: "PT")
        #expect(MomentPlaceNames(places: []) == MomentPlaceNames())
        #expect(MomentPlaceNames(places: [lisbon, lisbon]) == MomentPlaceNames(title: "Lisbon", locationNames: ["Lisbon"]))
        #expect(
            MomentPlaceNames(places: [alfama, lisbon, alfama])
                == MomentPlaceNames(title: "Lisbon - Alfama", locationNames: ["Lisbon"]))
        #expect(MomentPlaceNames(places: [alfama, lisbon]).title == "Lisbon")  // half isn't most
        #expect(
            MomentPlaceNames(places: [sintra, alfama, lisbon, sintra, sintra])
                == MomentPlaceNames(title: "Sintra & Lisbon", locationNames: ["Sintra", "Lisbon"]))
        #expect(MomentPlaceNames.byFrequency(["b", "a", "c", "a", "c"]) == ["a", "c", "b"])
        #expect(MomentPlaceNames.decode(MomentPlaceNames.encode(["Lisbon", "A/B \"C\""])) == ["Lisbon", "A/B \"C\""])
        #expect(MomentPlaceNames.encode([]) == nil)
    }
}
