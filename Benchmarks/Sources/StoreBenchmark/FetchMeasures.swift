import BenchmarkSupport
import Foundation
import Photos

/// The fetches being measured, through PhotoKit's public API only, and the checks that the
/// `sqlite3` peer answers the same question.
struct FetchMeasures {
    let library: PHPhotoLibrary
    /// The peer; nil for the engine comparison (``EngineMeasures``), which fetches only.
    let cli: SQLiteCLI?
    let repeats: Int

    private var peer: SQLiteCLI {
        get throws {
            guard let cli else { throw BenchmarkFailure("no sqlite3 peer in this measure") }
            return cli
        }
    }

    private static func byCreationDate() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        return options
    }

    /// Measure 1a: every image, sorted by creation date.
    func fetchImages() -> PHFetchResult<PHAsset> {
        library.withCurrent { PHAsset.fetchAssets(with: .image, options: Self.byCreationDate()) }
    }

    /// The favorites predicate; `NSPredicate(format:)` is the Photos module's (Foundation on
    /// Linux marks its own unavailable).
    static let favoritesFormat = "isFavorite == YES"

    /// Measure 1b: favorites, sorted by creation date.
    func fetchFavorites() -> PHFetchResult<PHAsset> {
        let options = Self.byCreationDate()
        options.predicate = NSPredicate(format: Self.favoritesFormat)
        return library.withCurrent { PHAsset.fetchAssets(with: options) }
    }

    /// Every visible asset (hidden ones excluded: the default), sorted by creation date.
    func fetchVisible() -> PHFetchResult<PHAsset> {
        library.withCurrent { PHAsset.fetchAssets(with: Self.byCreationDate()) }
    }

    /// The Screenshots smart album, in its natural order (creation date).
    func fetchScreenshots() -> PHFetchResult<PHAsset> {
        library.withCurrent {
            let album = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumScreenshots, options: nil)
            return PHAsset.fetchAssets(in: album.firstObject!, options: nil)
        }
    }

    /// The generated album of 100,000, in its own order.
    func fetchAlbum() -> PHFetchResult<PHAsset> {
        library.withCurrent {
            let album = PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: [LibraryFixture.albumUUID + "/L0/040"], options: nil)
            return PHAsset.fetchAssets(in: album.firstObject!, options: nil)
        }
    }

    /// Measures 2 to 4: every asset, hidden ones included, sorted by creation date; with the
    /// generated library (no trash, no bursts) that is every row.
    func fetchEverything() -> PHFetchResult<PHAsset> {
        let options = Self.byCreationDate()
        options.includeHiddenAssets = true
        return library.withCurrent { PHAsset.fetchAssets(with: options) }
    }

    /// Times `fetch` until `count` is known and, in other runs, until the first object's
    /// `pixelWidth` is read; and in sqlite3 `peerSQL` (every id) and `firstRowSQL` (the first
    /// row's columns), alternating, `repeats` times each, after one untimed run of each. Fails
    /// unless both return the same rows.
    func compare(
        _ title: String, startup: UInt64, peerSQL: String, firstRowSQL: String, fetch: () -> PHFetchResult<PHAsset>
    ) throws -> Results.FetchComparison {
        let warm = fetch()
        try verify(warm, against: peerSQL, title: title)
        _ = try peer.timedQuery(peerSQL)
        _ = try peer.timedQuery(firstRowSQL)

        var ours: [UInt64] = [], oursFirst: [UInt64] = [], query: [UInt64] = [], wall: [UInt64] = [], first: [UInt64] = []
        var width = 0
        for _ in 0..<repeats {
            let (result, nanos) = timed { () -> PHFetchResult<PHAsset> in
                let result = fetch()
                _ = result.count
                return result
            }
            ours.append(nanos)
            withExtendedLifetime(result) {}
            let (firstResult, firstNanos) = timed { () -> PHFetchResult<PHAsset> in
                let result = fetch()
                width &+= result.firstObject?.pixelWidth ?? 0
                return result
            }
            oursFirst.append(firstNanos)
            withExtendedLifetime(firstResult) {}
            let peerRun = try peer.timedQuery(peerSQL)
            query.append(peerRun.queryNanos)
            wall.append(peerRun.wallNanos)
            first.append(try peer.timedQuery(firstRowSQL).queryNanos)
        }
        guard width > 0 else { throw BenchmarkFailure("\(title): no first object") }
        return Results.FetchComparison(
            title: title, count: warm.count, ours: Samples(ours), peerQuery: Samples(query),
            peerWall: Samples(wall), peerStartup: startup, oursFirst: Samples(oursFirst), peerFirst: Samples(first))
    }

    /// Median wall time of a sqlite3 process that runs `SELECT 1`: start-up, open, exit.
    func peerStartup() throws -> UInt64 {
        let cli = try peer
        _ = try cli.run("SELECT 1;")
        return Samples(try (0..<max(repeats, 5)).map { _ in try cli.run("SELECT 1;").wallNanos }).median
    }

    /// Checks that `result` holds the rows `peerSQL` returns, in the same order: the counts
    /// must match, and so must the row ids (read back from each asset's UUID, which the
    /// generator derives from the id) at the ends and at 1,000 sampled indexes. Returns
    /// sqlite3's row ids.
    @discardableResult
    func verify(_ result: PHFetchResult<PHAsset>, against peerSQL: String, title: String) throws -> [Int64] {
        let ids = try peer.integers(peerSQL)
        guard result.count == ids.count else {
            throw BenchmarkFailure(
                "\(title): PhotoKit returned \(result.count) assets, sqlite3 \(ids.count) rows for:\n\(peerSQL)")
        }
        guard !ids.isEmpty else { return ids }
        var rng = SplitMix64(seed: 0xC0FFEE)
        let indexes = [0, ids.count - 1] + (0..<1_000).map { _ in rng.index(below: ids.count) }
        for index in indexes {
            let id = Self.rowID(of: result.object(at: index))
            guard id == ids[index] else {
                throw BenchmarkFailure(
                    "\(title): at index \(index) PhotoKit has row \(id.map(String.init) ?? "?"), sqlite3 \(ids[index])")
            }
        }
        return ids
    }

    /// The row id the generator wrote into the asset's UUID (its last 12 hex digits).
    static func rowID(of asset: PHAsset) -> Int64? {
        let uuid = asset.localIdentifier.prefix(36)
        return Int64(uuid.suffix(12), radix: 16)
    }

    /// Measure 4: resident memory of the 1M result. The first fetch of the process is measured
    /// as is ("cold": SQLite's page cache and one-time allocations included); then a warm-up
    /// fetch is made and dropped, and a second one measured and returned, kept alive by the
    /// caller for the other measures.
    func measureMemory() -> (Results.Memory, PHFetchResult<PHAsset>) {
        let coldBefore = ProcessMemory.resident()
        let cold = fetchEverything()
        let coldAfter = ProcessMemory.resident()
        let count = cold.count
        withExtendedLifetime(cold) {}

        withExtendedLifetime(fetchEverything()) { _ = $0.count }
        let warmBefore = ProcessMemory.resident()
        let heapBefore = ProcessMemory.heapBytesInUse()
        let result = fetchEverything()
        _ = result.count
        let warmAfter = ProcessMemory.resident()
        let heapAfter = ProcessMemory.heapBytesInUse()
        let memory = Results.Memory(
            count: count, coldResident: coldAfter.private - coldBefore.private,
            warmResident: warmAfter.private - warmBefore.private, warmHeap: heapAfter - heapBefore,
            coldMapped: coldAfter.mapped - coldBefore.mapped)
        return (memory, result)
    }
}

/// A small deterministic generator (SplitMix64), so every run reads the same indexes.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func index(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
