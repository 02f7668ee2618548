import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Fetches with predicates, as clients write them, and the promise behind them: the SQL the
/// store runs selects exactly the assets in-memory evaluation of the same predicate selects.
@Suite("Fetching with predicates")
struct PredicateFetchTests {
    static let base = Date(timeIntervalSince1970: 1_600_000_000)

    /// 60 assets with varied, partly missing values, including title-like burst identifiers
    /// with accents and case differences.
    static func library(seed: UInt64) throws -> TemporaryLibrary {
        let temporary = try TemporaryLibrary()
        var generator = SeededGenerator(seed: seed)
        let bursts = [nil, nil, "Été", "ete", "ÉTÉ-2", "burst*?", "B1"]
        var assets: [SyntheticAsset] = []
        for _ in 0..<60 {
            var asset = SyntheticAsset(
                mediaType: [.image, .image, .video, .audio].randomElement(using: &generator)!,
                mediaSubtypes: PHAssetMediaSubtype(rawValue: UInt.random(in: 0..<64, using: &generator)),
                creationDate: Bool.random(using: &generator) || true
                    ? base.addingTimeInterval(Double(Int.random(in: -5...5, using: &generator)) * 86_400) : nil,
                isFavorite: Bool.random(using: &generator),
                isHidden: Int.random(in: 0..<5, using: &generator) == 0)
            if Int.random(in: 0..<6, using: &generator) == 0 { asset.creationDate = nil }
            asset.pixelWidth = [640, 1024, 4000, 4032].randomElement(using: &generator)!
            asset.pixelHeight = [480, 768, 3000, 3024].randomElement(using: &generator)!
            asset.duration = asset.mediaType == .video ? Double(Int.random(in: 0...30, using: &generator)) / 2 : 0
            asset.burstIdentifier = bursts.randomElement(using: &generator)!
            assets.append(asset)
        }
        try temporary.seed(assets)
        return temporary
    }

    @Test func clientSpellingsWork() throws {
        let temporary = try Self.library(seed: 1)
        temporary.library.withCurrent {
            let all = Self.everything()
            func count(_ format: String, _ args: Any...) -> Int {
                let options = PHFetchOptions()
                options.includeHiddenAssets = true
                options.includeAllBurstAssets = true
                options.predicate = NSPredicate(format: format, argumentArray: args)
                return PHAsset.fetchAssets(with: options).count
            }
            #expect(count("mediaType = %i", PHAssetMediaType.image.rawValue) == all.filter { $0.mediaType == .image }.count)
            #expect(count("mediaType != %d", PHAssetMediaType.video.rawValue) == all.filter { $0.mediaType != .video }.count)
            #expect(count("(mediaSubtypes & %d) != 0", PHAssetMediaSubtype.photoLive.rawValue) == all.filter { $0.mediaSubtypes.contains(.photoLive) }.count)
            #expect(count("duration < %f", 3.5) == all.filter { $0.duration < 3.5 }.count)
            let ids = all.prefix(7).map(\.localIdentifier)
            #expect(count("localIdentifier IN %@", ids) == 7)
            #expect(count("SELF IN %@", Array(all.prefix(3))) == 3)
            let date = Self.base
            #expect(count("creationDate > %@ OR modificationDate > %@", date as NSDate, Date.distantFuture) == all.filter { ($0.creationDate ?? .distantPast) > date }.count)
            #expect(count("creationDate <= %@ && modificationDate <= %@", date, Date()) == all.filter { $0.creationDate.map { $0 <= date } ?? false }.count)
            #expect(count("favorite == YES") == all.filter(\.isFavorite).count)
            #expect(count("isHidden == NO") == all.filter { !$0.isHidden }.count)
            #expect(count("burstIdentifier != nil") == all.filter { $0.burstIdentifier != nil }.count)
            #expect(count("burstIdentifier BEGINSWITH[cd] %@", "ete") == all.filter { $0.burstIdentifier.map { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).hasPrefix("ete") } ?? false }.count)
            #expect(count("pixelWidth BETWEEN {1000, 4000}") == all.filter { (1000...4000).contains($0.pixelWidth) }.count)
            #expect(count("mediaSubtype == 0") == all.filter { $0.mediaSubtypes.isEmpty }.count, "TLPhotoPicker's spelling")
            #expect(count("%K == %@", "mediaType", 2) == all.filter { $0.mediaType == .video }.count)
            // Predicates and sort descriptors built by key path work too.
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.pixelWidth, ascending: false), NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: true)]
            options.includeHiddenAssets = true
            options.includeAllBurstAssets = true
            let sorted = PHAsset.fetchAssets(with: options).map(\.pixelWidth)
            #expect(sorted == sorted.sorted(by: >))
        }
    }

    @Test func unsupportedKeysAndOperatorsAreReportedWithTheirPosition() throws {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "mediaType == 1 AND fileSize > 10")
        let error = #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        #expect(error?.token == "fileSize")
        #expect(error?.position == 19)
        #expect(error?.format == "mediaType == 1 AND fileSize > 10")
        options.predicate = NSPredicate(format: "title BEGINSWITH 'a'")
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        #expect(throws: Never.self) { try options.validate(for: PHAssetCollection.self) }
        options.predicate = NSPredicate(format: "estimatedAssetCount > 3")
        #expect(throws: Never.self) { try options.validate(for: PHAssetCollection.self) }
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHCollectionList.self) }
        options.predicate = NSPredicate(format: "isFavorite CONTAINS 'x'")
        let operatorError = #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        #expect(operatorError?.token == "CONTAINS")
        options.predicate = NSPredicate(format: "mediaType == 'video'")
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
    }

    @Test func unsupportedKeyStopsTheFetchLikeApplesException() async {
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: "fileSize > 10")
            _ = temporary.library.withCurrent { PHAsset.fetchAssets(with: options) }
        }
    }

    @Test func collectionPredicates() throws {
        let temporary = try TemporaryLibrary()
        try temporary.library.performChangesAndWait {
            for title in ["Été à Paris", "ete", "Winter", "Summer 2020"] {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            }
            _ = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Summer folder")
        }
        temporary.library.withCurrent {
            func titles(_ format: String, sort: String? = nil) -> [String] {
                let options = PHFetchOptions()
                options.predicate = NSPredicate(format: format)
                options.sortDescriptors = sort.map { [NSSortDescriptor(key: $0, ascending: true)] }
                return PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options).compactMap(\.localizedTitle)
            }
            #expect(titles("localizedTitle = %@".replacingOccurrences(of: "%@", with: "'Winter'")) == ["Winter"])
            #expect(titles("title BEGINSWITH[cd] 'ete'", sort: "title") == ["ete", "Été à Paris"])
            #expect(titles("title LIKE[c] 's*20?0'") == ["Summer 2020"])
            #expect(titles("title CONTAINS 'er'", sort: "localizedTitle") == ["Summer 2020", "Winter"])
            let mixed = PHFetchOptions()
            mixed.predicate = NSPredicate(format: "title BEGINSWITH 'Summer'")
            #expect(PHCollection.fetchTopLevelUserCollections(with: mixed).compactMap(\.localizedTitle) == ["Summer 2020", "Summer folder"])
            let smart = PHFetchOptions()
            smart.predicate = NSPredicate(format: "localizedTitle == 'Favorites'")
            #expect(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: smart).count == 1)
        }
    }

    /// All assets, hidden and burst frames included, in row-id order.
    static func everything() -> [PHAsset] {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        return PHAsset.fetchAssets(with: options).sorted { $0.rowID < $1.rowID }
    }

    /// Thousands of random predicates: the store's SQL and in-memory evaluation must select the
    /// same assets, and sorting in SQL must order them as in-memory sorting does.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func sqlAgreesWithInMemoryEvaluation(seed: UInt64) throws {
        let temporary = try Self.library(seed: seed)
        var generator = SeededGenerator(seed: seed &* 7919)
        try temporary.library.withCurrent {
            let all = Self.everything()
            for round in 0..<700 {
                let node = RandomPredicate.node(depth: 3, using: &generator, sample: all)
                let format = node.description
                let predicate = try NSPredicate(validatingFormat: format, argumentArray: nil)
                let options = PHFetchOptions()
                options.includeHiddenAssets = true
                options.includeAllBurstAssets = true
                options.predicate = predicate
                let sortKeys = RandomPredicate.sortKeys(using: &generator)
                options.sortDescriptors = sortKeys.map { NSSortDescriptor(key: $0.key, ascending: $0.ascending) }
                try options.validate(for: PHAsset.self)
                let fetched = PHAsset.fetchAssets(with: options).map(\.localIdentifier)
                let parsed = try predicate.photosPredicateNode()
                var resolved = try options.resolve(for: .asset)
                // Without sort descriptors the natural order is creation date, then row id.
                if resolved.sortKeys.isEmpty { resolved.sortKeys = [SortKey(key: "creationDate", ascending: true)] }
                let expected = InMemoryFetch.apply(resolved, to: all.filter { evaluate(parsed, on: $0) }).map(\.localIdentifier)
                if fetched != expected {
                    Issue.record("round \(round): \(format) sorted by \(sortKeys): SQL \(fetched.count) vs memory \(expected.count)")
                    return
                }
            }
        }
    }
}

/// Random predicate trees over PHAsset's keys, in the shapes clients write.
enum RandomPredicate {
    static func node(depth: Int, using generator: inout SeededGenerator, sample: [PHAsset]) -> PredicateNode {
        if depth > 0, Int.random(in: 0..<3, using: &generator) == 0 {
            let parts = (0..<Int.random(in: 1...3, using: &generator)).map { _ in node(depth: depth - 1, using: &generator, sample: sample) }
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return .and(parts)
            case 1: return .or(parts)
            default: return .not(parts[0])
            }
        }
        return .comparison(comparison(using: &generator, sample: sample))
    }

    static func comparison(using generator: inout SeededGenerator, sample: [PHAsset]) -> PredicateComparison {
        let orderings: [PredicateOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        func key(_ name: String) -> PredicateOperand { .key(name, position: 0) }
        func value(_ value: PredicateValue) -> PredicateOperand { .value(value) }
        let base = PredicateFetchTests.base.timeIntervalSince1970
        switch Int.random(in: 0..<9, using: &generator) {
        case 0:
            let date: PredicateValue = Int.random(in: 0..<6, using: &generator) == 0
                ? .null : .date(Date(timeIntervalSince1970: base + Double(Int.random(in: -6...6, using: &generator)) * 86_400))
            return PredicateComparison(lhs: key("creationDate"), op: orderings.randomElement(using: &generator)!, rhs: value(date))
        case 1:
            if Bool.random(using: &generator) {
                let values = (0..<Int.random(in: 0...3, using: &generator)).map { _ in PredicateOperand.value(.int(Int64.random(in: 0...3, using: &generator))) }
                return PredicateComparison(lhs: key("mediaType"), op: .in, rhs: .aggregate(values))
            }
            return PredicateComparison(lhs: key("mediaType"), op: orderings.randomElement(using: &generator)!, rhs: value(.int(Int64.random(in: 0...3, using: &generator))))
        case 2:
            let mask = PredicateOperand.bitwiseAnd(key("mediaSubtypes"), value(.int(Int64(1 << Int.random(in: 0..<6, using: &generator)))))
            return PredicateComparison(lhs: mask, op: Bool.random(using: &generator) ? .notEqual : .equal, rhs: value(.int(0)))
        case 3:
            let low = Int64([500, 700, 1000, 3500].randomElement(using: &generator)!)
            return PredicateComparison(
                lhs: key(Bool.random(using: &generator) ? "pixelWidth" : "pixelHeight"), op: .between,
                rhs: .aggregate([value(.int(low)), value(.int(low + Int64.random(in: 0...3000, using: &generator)))]))
        case 4:
            return PredicateComparison(
                lhs: key("duration"), op: orderings.randomElement(using: &generator)!,
                rhs: value(.double(Double(Int.random(in: 0...30, using: &generator)) / 2)))
        case 5:
            return PredicateComparison(
                lhs: key(["isFavorite", "favorite", "isHidden", "hidden"].randomElement(using: &generator)!),
                op: Bool.random(using: &generator) ? .equal : .notEqual, rhs: value(.bool(Bool.random(using: &generator))))
        case 6:
            let ops: [PredicateOperator] = [.equal, .notEqual, .less, .greaterOrEqual, .beginsWith, .endsWith, .contains, .like]
            let texts: [PredicateValue] = [.string("ete"), .string("Été"), .string("É"), .string("burst"), .string("b*"), .string("?1"), .string(""), .null]
            var op = ops.randomElement(using: &generator)!
            var rhs = texts.randomElement(using: &generator)!
            if rhs == .null { op = Bool.random(using: &generator) ? .equal : .notEqual }
            if op == .like, case .string(let text) = rhs, text.isEmpty { rhs = .string("*") }
            let options = PredicateStringOptions(rawValue: Int.random(in: 0...3, using: &generator))
            return PredicateComparison(lhs: key("burstIdentifier"), op: op, rhs: value(rhs), options: rhs == .null ? [] : options)
        case 7:
            let picked = sample.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator))
            return PredicateComparison(
                lhs: key(Bool.random(using: &generator) ? "localIdentifier" : "SELF"), op: .in,
                rhs: .aggregate(picked.map { .value(.string($0.localIdentifier)) }))
        default:
            let identifier = sample.randomElement(using: &generator)!.localIdentifier
            let prefix = String(identifier.prefix(Int.random(in: 1...3, using: &generator)))
            return PredicateComparison(lhs: key("localIdentifier"), op: .beginsWith, rhs: value(.string(prefix)))
        }
    }

    static func sortKeys(using generator: inout SeededGenerator) -> [SortKey] {
        let keys = ["creationDate", "pixelWidth", "mediaType", "duration", "burstIdentifier", "isFavorite"]
        return (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            SortKey(key: keys.randomElement(using: &generator)!, ascending: Bool.random(using: &generator))
        }
    }
}
