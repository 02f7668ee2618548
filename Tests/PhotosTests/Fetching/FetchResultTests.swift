import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

@Suite("PHFetchResult")
struct FetchResultTests {
    static func fixture(count: Int) throws -> (TemporaryLibrary, [String]) {
        let temporary = try TemporaryLibrary()
        let assets = (0..<count).map { i in
            SyntheticAsset(mediaType: i % 5 == 0 ? .video : .image, creationDate: Date(timeIntervalSince1970: 1_500_000_000 + Double(i)))
        }
        try temporary.seed(assets)
        return (temporary, assets.map(\.localIdentifier))
    }

    @Test func countIndexingAndBounds() throws {
        let (temporary, ids) = try Self.fixture(count: 1000)
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        #expect(result.count == 1000)
        #expect(result.firstObject?.localIdentifier == ids.first)
        #expect(result.lastObject?.localIdentifier == ids.last)
        #expect(result[500].localIdentifier == ids[500])
        #expect(result.object(at: 999).localIdentifier == ids[999])
        let picked = result.objects(at: IndexSet([3, 700, 701, 5]))
        #expect(picked.map(\.localIdentifier) == [3, 5, 700, 701].map { ids[$0] })
        #expect(result.countOfAssets(with: .video) == 200)
        #expect(result.countOfAssets(with: .image) == 800)
        #expect(result.countOfAssets(with: .audio) == 0)
    }

    /// Reading in order reads ahead 16 objects first (a fetch's `firstObject` reads no more),
    /// then twice as many each time, up to a batch of 128; backwards the same; a jump reads one.
    @Test func readingInOrderReadsAheadMoreEachTime() {
        var window = BatchWindow()
        var forwards: [Int] = []
        var index = 0
        while index < 600 {
            let range = window.nextRange(for: index, count: 600, batch: 128)
            #expect(range.lowerBound == index)
            forwards.append(range.count)
            window.store([], range: range, accessed: index)
            index = range.upperBound
        }
        #expect(forwards == [16, 32, 64, 128, 128, 128, 104])
        let jump = window.nextRange(for: 300, count: 600, batch: 128)
        #expect(jump == 300..<301)
        window.store([], range: jump, accessed: 300)
        let backwards = window.nextRange(for: 299, count: 600, batch: 128)
        #expect(backwards == 284..<300)
    }

    @Test func randomAccessMatchesSequentialOrder() throws {
        let (temporary, ids) = try Self.fixture(count: 600)
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let index = Int.random(in: 0..<600, using: &generator)
            #expect(result[index].localIdentifier == ids[index])
        }
        // Backwards, through the batching path.
        for index in stride(from: 599, through: 0, by: -1) where result[index].localIdentifier != ids[index] {
            Issue.record("mismatch at \(index)")
        }
    }

    @Test func containsAndIndexWorkAcrossFetches() throws {
        let (temporary, ids) = try Self.fixture(count: 50)
        try temporary.library.withCurrent {
            let all = PHAsset.fetchAssets(with: nil)
            let videos = PHAsset.fetchAssets(with: .video, options: nil)
            let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [ids[10]], options: nil).firstObject)
            #expect(all.contains(asset))
            #expect(all.index(of: asset) == 10)
            #expect(videos.index(of: asset) == 2)
            #expect(videos.index(of: all[11]) == NSNotFound)
            #expect(!videos.contains(all[11]))
            #expect(all.index(of: asset, in: NSRange(location: 20, length: 10)) == NSNotFound)
            #expect(all.index(of: asset, in: NSRange(location: 5, length: 10)) == 10)
        }
    }

    @Test func enumerationStopsAndReverses() throws {
        let (temporary, ids) = try Self.fixture(count: 700)
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        var seen: [Int] = []
        result.enumerateObjects { asset, index, stop in
            #expect(asset.localIdentifier == ids[index])
            seen.append(index)
            if index == 300 { stop.pointee = true }
        }
        #expect(seen == Array(0...300))
        var reversed: [Int] = []
        result.enumerateObjects(at: IndexSet([1, 2, 3, 650, 651]), options: .reverse) { asset, index, _ in
            #expect(asset.localIdentifier == ids[index])
            reversed.append(index)
        }
        #expect(reversed == [651, 650, 3, 2, 1])
    }

    @Test func concurrentEnumerationVisitsEveryObjectOnce() throws {
        let (temporary, ids) = try Self.fixture(count: 2000)
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        let visited = Mutex<[Int: String]>([:])
        result.enumerateObjects(options: .concurrent) { asset, index, _ in
            visited.withLock { $0[index] = asset.localIdentifier }
        }
        let map = visited.withLock { $0 }
        #expect(map.count == 2000)
        #expect((0..<2000).allSatisfy { map[$0] == ids[$0] })
    }

    @Test func isASequence() throws {
        let (temporary, ids) = try Self.fixture(count: 300)
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        #expect(result.map(\.localIdentifier) == ids)
        #expect(result.underestimatedCount == 300)
        #expect(result.reversed().first?.localIdentifier == ids.last)
        #expect(result[10].localIdentifier == ids[10])
    }

    @Test func readingFromManyThreadsAtOnce() async throws {
        let (temporary, ids) = try Self.fixture(count: 3000)
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var bad = 0
                    var generator = SystemRandomNumberGenerator()
                    for step in 0..<1500 {
                        let index = worker % 2 == 0 ? (worker * 300 + step) % 3000 : Int.random(in: 0..<3000, using: &generator)
                        if result[index].localIdentifier != ids[index] { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func outOfBoundsStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            _ = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }.object(at: 0)
        }
    }

    @Test func transientCollectionsKeepTheirOrderAndApplyOptions() throws {
        let (temporary, ids) = try Self.fixture(count: 20)
        try temporary.library.withCurrent {
            let all = PHAsset.fetchAssets(with: nil)
            let picked = [all[7], all[2], all[15], all[5]]
            let collection = PHAssetCollection.transientAssetCollection(with: picked, title: "Picked")
            #expect(collection.localizedTitle == "Picked")
            #expect(collection.estimatedAssetCount == NSNotFound)
            #expect(PHAsset.fetchAssets(in: collection, options: nil).map(\.localIdentifier) == [7, 2, 15, 5].map { ids[$0] })
            let videos = PHFetchOptions()
            videos.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
            #expect(PHAsset.fetchAssets(in: collection, options: videos).map(\.localIdentifier) == [15, 7, 5, 2].map { ids[$0] })
            let fromResult = PHAssetCollection.transientAssetCollection(withAssetFetchResult: PHAsset.fetchAssets(with: .video, options: nil), title: nil)
            #expect(PHAsset.fetchAssets(in: fromResult, options: nil).count == 4)
            _ = try #require(fromResult.localIdentifier.hasSuffix("/L0/040") ? fromResult : nil)
        }
    }
}
