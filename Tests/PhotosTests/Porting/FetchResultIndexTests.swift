import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `index(of:)` written as Apple's documentation and sample code write it reaches
/// `PHFetchResult.index(of:)` (`NSNotFound` when absent), never the standard library's
/// deprecated `Collection.index(of:)` (`nil` when absent).
@Suite("PHFetchResult.index(of:) means Apple's method")
struct FetchResultIndexTests {
    /// Holds its fetch result and asset as implicitly unwrapped optionals, as Apple's sample
    /// view controllers do.
    final class GridModel {
        var fetchResult: PHFetchResult<PHAsset>!
        var asset: PHAsset!

        func indexByChaining() -> Int? { fetchResult?.index(of: asset) }
        func index() -> Int { fetchResult.index(of: asset) }
        func isShown() -> Bool {
            if let index = fetchResult?.index(of: asset), index != NSNotFound { return true }
            return false
        }
    }

    @Test func absentObjectsAreNotFoundInEveryForm() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset(), SyntheticAsset()])
        let model = GridModel()
        model.fetchResult = temporary.library.withCurrent {
            PHAsset.fetchAssets(withLocalIdentifiers: Array(ids.prefix(2)), options: nil)
        }
        model.asset = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[2]], options: nil).firstObject }

        #expect(model.indexByChaining() == NSNotFound)
        #expect(model.index() == NSNotFound)
        #expect(model.isShown() == false)
        #expect(model.fetchResult.index(of: model.asset) == NSNotFound)
        #expect(model.fetchResult.index(of: model.asset, in: NSRange(location: 0, length: 2)) == NSNotFound)
        #expect(model.fetchResult.contains(model.asset) == false)
    }

    @Test func presentObjectsAreFoundInEveryForm() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset(), SyntheticAsset()])
        let model = GridModel()
        model.fetchResult = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        model.asset = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil).firstObject }

        #expect(model.indexByChaining() == 1)
        #expect(model.index() == 1)
        #expect(model.isShown())
        #expect(model.fetchResult.index(of: model.asset, in: NSRange(location: 2, length: 1)) == NSNotFound)
        #expect(model.fetchResult.contains(model.asset))
    }
}
