import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Predicates on which FuzzPredicate (Fuzz/, docs/reliability.md) found the fetch's SQL and
/// `evaluate(with:)` disagreeing, or the fetch failing to run: each must now select exactly the
/// assets in-memory evaluation selects.
@Suite("Fetching with predicates: fuzzing finds")
struct PredicateFuzzFindingsTests {
    /// Rows with the values the findings turn on: missing burst identifiers, identifiers that
    /// differ only in case or accents, a creation date with a fraction of a second.
    static func library() throws -> TemporaryLibrary {
        let temporary = try TemporaryLibrary()
        func asset(_ burst: String?, created: Double?, subtypes: PHAssetMediaSubtype = []) -> SyntheticAsset {
            var asset = SyntheticAsset(mediaSubtypes: subtypes, creationDate: created.map(Date.init(timeIntervalSince1970:)))
            asset.burstIdentifier = burst
            return asset
        }
        try temporary.seed([
            asset("Café-1", created: 1_600_000_000, subtypes: [.photoHDR, .photoLive]),
            asset("CAFE-1", created: nil, subtypes: .photoScreenshot),
            asset("cafe-1", created: 1_234_567_890.123),
            asset(nil, created: 0, subtypes: .photoScreenshot),
            asset("Été", created: -946_684_800),
        ])
        return temporary
    }

    /// The fetch of `format` and the assets `evaluate(with:)` selects, by local identifier.
    static func compare(_ format: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let predicate = try NSPredicate(validatingFormat: format, argumentArray: nil)
        let options = PHFetchOptions()
        options.predicate = predicate
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        try options.validate(for: PHAsset.self)
        let result = PHAsset.fetchAssets(with: options)
        #expect(result.fetchError == nil, "\(format): \(result.fetchError?.localizedDescription ?? "")", sourceLocation: sourceLocation)
        let fetched = Set(result.map(\.localIdentifier))
        let all = PredicateFetchTests.everything()
        let expected = Set(all.filter { predicate.evaluate(with: $0) }.map(\.localIdentifier))
        #expect(fetched == expected, "\(format): SQL \(fetched.count) vs memory \(expected.count)", sourceLocation: sourceLocation)
    }

    @Test("a masked key IN an empty list, or a list with nil, runs (it bound one argument too many or too few)", arguments: [
        "(mediaSubtypes & 4) IN {}", "NOT (mediaSubtypes & 4) IN {}", "(mediaSubtypes & 4) IN {nil, 4}",
        "(mediaSubtypes & 4) IN {nil}", "(mediaSubtypes & 4) IN {nil} OR burstIdentifier IN {nil, 'x'}",
    ])
    func maskedMembership(_ format: String) throws {
        let temporary = try Self.library()
        try temporary.library.withCurrent { try Self.compare(format) }
    }

    @Test("[c] and [d] leave nil alone: burstIdentifier ==[c] nil is true where it is missing", arguments: [
        "burstIdentifier ==[c] nil", "burstIdentifier !=[cd] NULL", "nil ==[d] burstIdentifier", "NOT (burstIdentifier <>[c] nil)",
    ])
    func optionsWithNil(_ format: String) throws {
        let temporary = try Self.library()
        try temporary.library.withCurrent { try Self.compare(format) }
    }

    @Test("IN and BETWEEN fold strings with [c] and [d] as == and < do", arguments: [
        "burstIdentifier IN[c] {'cafe-1'}", "burstIdentifier IN[cd] {'CAFE-1', nil}", "NOT burstIdentifier IN[d] {'Cafe-1'}",
        "burstIdentifier BETWEEN[c] {'CAFE-1', 'café'}", "burstIdentifier BETWEEN[cd] {'cafe', 'cafe-1'}",
        "NOT burstIdentifier BETWEEN[c] {'a', 'CAFE-1'}",
    ])
    func foldedLists(_ format: String) throws {
        let temporary = try Self.library()
        try temporary.library.withCurrent { try Self.compare(format) }
    }

    @Test("identifiers compared with [c] fold the local identifier, in ==, != and IN; BETWEEN on them is refused like <")
    func identifiersWithOptions() throws {
        let temporary = try Self.library()
        try temporary.library.withCurrent {
            let identifier = try #require(PredicateFetchTests.everything().first?.localIdentifier.lowercased())
            for format in [
                "SELF ==[c] '\(identifier)'", "localIdentifier ==[cd] '\(identifier)'", "SELF !=[c] '\(identifier)'",
                "SELF IN[cd] {'\(identifier)', 'x'}", "SELF == '\(identifier)'", "localIdentifier ==[c] nil",
            ] {
                try Self.compare(format)
            }
            let between = PHFetchOptions()
            between.predicate = NSPredicate(format: "SELF BETWEEN {'', 'z'}")
            #expect(throws: PHPredicateError.self) { try between.validate(for: PHAsset.self) }
        }
    }

    @Test("dates compare as the store keeps them, seconds since 1970, fractions included", arguments: [
        #"creationDate == CAST(256260690.123, "NSDate")"#, #"creationDate != CAST(256260690.123, "NSDate")"#,
        #"creationDate >= CAST(256260690.123, "NSDate")"#, #"creationDate < CAST(256260690.123, "NSDate")"#,
        #"creationDate BETWEEN {CAST(256260690.123, "NSDate"), CAST(621692800, "NSDate")}"#,
    ])
    func fractionalDates(_ format: String) throws {
        let temporary = try Self.library()
        try temporary.library.withCurrent { try Self.compare(format) }
    }

    @Test("a & mask no Int64 holds is no value, in SQL as in memory (SQLite saturated it)", arguments: [
        "(mediaType & -1e308) != NULL", "(mediaSubtypes & 1e19) == 0", "(mediaSubtypes & 2.9) == 2", "(mediaSubtypes & -0.5) == 0",
    ])
    func hugeMasks(_ format: String) throws {
        let temporary = try Self.library()
        try temporary.library.withCurrent { try Self.compare(format) }
    }

    @Test("a string with a NUL character is refused by fetches: SQLite would cut it there", arguments: [
        #"burstIdentifier BETWEEN[cd] {'\0\0cafe', 'cafe-2'}"#, #"burstIdentifier CONTAINS '\0'"#, #"burstIdentifier == 'cafe-1\0x'"#,
        #"SELF IN {'\0'}"#,
    ])
    func nulInStrings(_ format: String) throws {
        let predicate = try NSPredicate(validatingFormat: format, argumentArray: nil)
        let options = PHFetchOptions()
        options.predicate = predicate
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        do {
            try options.validate(for: PHAsset.self)
        } catch {
            #expect(error.message.contains("a string with a NUL character can't be fetched"))
        }
    }
}
