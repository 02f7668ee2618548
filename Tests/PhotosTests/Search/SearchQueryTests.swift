import Foundation
import Photos
import Testing

/// `PHSearchQuery`: what people type, read into words, times and kinds (issue 37).
@Suite("Search queries")
struct SearchQueryTests {
    /// 2026-12-03: next year (2027) is the last year read as one.
    static let now = Date(timeIntervalSince1970: 1_796_300_000)

    static func query(_ text: String) throws -> PHSearchQuery {
        try PHSearchQuery(text, now: now)
    }

    @Test func wordsAreLoweredFoldedAndTrimmedOfPunctuation() throws {
        #expect(try Self.query("the receipt from the garage").terms == ["receipt", "garage"])
        #expect(try Self.query("Lisboa, CAFÉ! (Ünter)").terms == ["lisboa", "cafe", "unter"])
        #expect(try Self.query("IMG_2041.JPG").terms == ["img_2041.jpg"])
        #expect(try Self.query("  whiteboard\tphoto\n").terms == ["whiteboard"])
    }

    @Test func timesAndKindsAreReadBesideTheWords() throws {
        let beach = try Self.query("beach videos 2019")
        #expect(beach.terms == ["beach"] && beach.years == [2019...2019] && beach.mediaTypes == [.video])
        let june = try Self.query("videos from June")
        #expect(june.terms.isEmpty && june.months == [6] && june.mediaTypes == [.video])
        let lisbon = try Self.query("Lisbon summer 2018-2020")
        #expect(lisbon.terms == ["lisbon"] && lisbon.months == [6, 7, 8] && lisbon.years == [2018...2020])
        let winter = try Self.query("winter dec 2019\u{2013}2021 favourites screenshots")
        #expect(winter.months == [12, 1, 2] && winter.years == [2019...2021] && winter.favoritesOnly)
        #expect(winter.mediaSubtypes == .photoScreenshot && winter.terms.isEmpty)
        let live = try Self.query("live photos of the dog")
        #expect(live.mediaSubtypes == .photoLive && live.mediaTypes.isEmpty && live.terms == ["dog"])
        let concert = try Self.query("live concert panoramas")
        #expect(concert.terms == ["live", "concert"] && concert.mediaSubtypes == .photoPanorama)
    }

    @Test func yearsAreThoseAPhotoCanHave() throws {
        #expect(try Self.query("1826 2027").years == [1826...1826, 2027...2027])
        // Past next year, before the first photograph, reversed or not four digits: words.
        #expect(try Self.query("2041 1700 2021-2019 19 02019").terms == ["2041", "1700", "2021-2019", "19", "02019"])
        #expect(try Self.query("2041").years.isEmpty)
    }

    @Test func quotedPhrasesAreOneTermAndNeverKeywords() throws {
        let query = try Self.query("\"Happy  Birthday\" june \"2019\" \"videos")
        #expect(query.terms == ["happy birthday", "2019", "videos"])
        #expect(query.months == [6] && query.years.isEmpty && query.mediaTypes.isEmpty)
    }

    @Test func operatorsAndSymbolsAreNotTerms() throws {
        let query = try Self.query("cat * - ^ OR NEAR(dog) AND \"\" 😀 ✓")
        #expect(query.terms == ["cat", "or", "near(dog"])
        #expect(try Self.query("*** --- \"\"").isEmpty)
    }

    @Test func onlyJoiningWordsAreSearchedForThemselves() throws {
        #expect(try Self.query("the").terms == ["the"])
        #expect(try Self.query("in the").terms == ["in", "the"])
        #expect(try Self.query("").isEmpty)
    }

    @Test func anAbsurdlyLongQueryIsRefusedNamingTheLimit() throws {
        let long = String(repeating: "word ", count: 20_000)
        #expect {
            try Self.query(long)
        } throws: { error in
            let error = error as? PHPhotosError
            return error?.code == .invalidResource && error?.localizedDescription.contains("at most 1000 bytes") == true
        }
        let fits = String(repeating: "é", count: 500)
        #expect(try Self.query(fits).terms == [String(repeating: "e", count: 500)])
    }
}
