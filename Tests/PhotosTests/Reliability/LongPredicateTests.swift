import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Long flat chains of AND/OR terms run (SQLite nests one level per term and stops at 1,000).
@Suite("Long predicates")
struct LongPredicateTests {
    static func library() throws -> TemporaryLibrary {
        let temporary = try TemporaryLibrary()
        _ = try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        return temporary
    }

    @Test(arguments: [997, 998, 1_000, 5_000])
    func flatOrChainsMatch(terms: Int) throws {
        let temporary = try Self.library()
        // The last term is the one that matches (synthetic assets are 4000 pixels wide).
        let format = ((1..<terms).map { "pixelWidth == \($0)" } + ["pixelWidth == 4000"]).joined(separator: " OR ")
        let result = temporary.library.withCurrent {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: format)
            return PHAsset.fetchAssets(with: options)
        }
        #expect(result.fetchError == nil)
        #expect(result.count == 2)
    }

    @Test func flatAndChainsMatch() throws {
        let temporary = try Self.library()
        let format = Array(repeating: "pixelWidth > 10", count: 2_500).joined(separator: " AND ")
        let count = temporary.library.withCurrent {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: format)
            return PHAsset.fetchAssets(with: options).count
        }
        #expect(count == 2)
    }
}
