import BenchmarkSupport
import Foundation
import Photos

/// Issue 19's write aim: commits must stay within 1.3× of their time without the partial
/// visible-asset indexes the fetches now read.
///
/// Two copies of the generated library, one with those indexes dropped and the two they
/// replaced made again (the schema before them), the other as it is, each opened through the public API; every round makes the same
/// change to the same assets in both, alternating which goes first, and times
/// `performChangesAndWait`.
struct WriteMeasures {
    /// The partial indexes of the `v11-visible-asset-indexes` migration.
    static let visibleIndexes = [
        "asset_visible_by_creationDate", "asset_visible_by_mediaType", "asset_visible_by_favorite", "asset_visible_by_id",
    ]

    /// The indexes they replaced, as the schema before them had them.
    static let replacedIndexes = """
        CREATE INDEX asset_by_mediaType ON asset(mediaType, creationDate);
        CREATE INDEX asset_by_favorite ON asset(isFavorite, creationDate);
        """

    let without: PHPhotoLibrary
    let with: PHPhotoLibrary
    let folders: [URL]
    let rounds: Int
    private let everythingWithout: PHFetchResult<PHAsset>
    private let everythingWith: PHFetchResult<PHAsset>
    private var random = SplitMix64(seed: 0xFEED)
    private var used = Set<Int>()
    private var jpeg: Data?

    init(options: Options, rounds: Int) throws {
        let base = options.dataFolder
        folders = ["writes-without", "writes-with"].map { base.appendingPathComponent("\($0)-\(options.assets).photoslibrary") }
        for folder in folders {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.copyItem(at: options.libraryFolder, to: folder)
        }
        let cli = try SQLiteCLI(executable: options.sqlite3, database: folders[0].appendingPathComponent("database/Photos.sqlite"))
        // (No removeScratch: the scratch folder is per process, shared with the measure's own CLI.)
        _ = try cli.run(Self.visibleIndexes.map { "DROP INDEX \($0);" }.joined(separator: "\n") + "\n" + Self.replacedIndexes)
        without = try PHPhotoLibrary(url: folders[0])
        with = try PHPhotoLibrary(url: folders[1])
        self.rounds = rounds
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        everythingWithout = without.withCurrent { PHAsset.fetchAssets(with: options) }
        everythingWith = with.withCurrent { PHAsset.fetchAssets(with: options) }
        jpeg = Self.smallJPEG()
    }

    func removeCopies() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    /// Indexes not used by an earlier round, so deletions and toggles always meet fresh rows.
    private mutating func freshIndexes(_ count: Int) -> [Int] {
        var picked: [Int] = []
        while picked.count < count {
            let index = random.index(below: everythingWith.count)
            if used.insert(index).inserted { picked.append(index) }
        }
        return picked
    }

    enum Change: CaseIterable {
        case favorite1, favorites, hidden, creationDates, deletions, additions

        var title: String {
            switch self {
            case .favorite1: "1 favorite toggled"
            case .favorites: "1,000 favorites toggled in one transaction"
            case .hidden: "1,000 assets hidden in one transaction"
            case .creationDates: "1,000 creation dates changed in one transaction"
            case .deletions: "1,000 assets deleted (to Recently Deleted) in one transaction"
            case .additions: "100 photos added (a 64 × 48 JPEG each) in one transaction"
            }
        }

        var batch: Int {
            switch self {
            case .favorite1: 1
            case .additions: 100
            default: 1_000
            }
        }
    }

    mutating func measure(_ change: Change) throws -> Results.WriteComparison? {
        if change == .additions, jpeg == nil { return nil }
        let rounds = change == .favorite1 ? max(self.rounds * 4, 20) : self.rounds
        var before: [UInt64] = [], after: [UInt64] = []
        for round in 0..<(rounds + 1) {
            let indexes = freshIndexes(change == .additions ? 0 : change.batch)
            let pair = [(without, everythingWithout), (with, everythingWith)]
            for turn in (round % 2 == 0 ? [0, 1] : [1, 0]) {
                let (library, everything) = pair[turn]
                let assets = indexes.map { everything.object(at: $0) }
                let nanos = try commit(change, assets: assets, in: library, round: round)
                guard round > 0 else { continue }  // warm-up
                if turn == 0 { before.append(nanos) } else { after.append(nanos) }
            }
        }
        return Results.WriteComparison(title: change.title, rounds: rounds, without: Samples(before), with: Samples(after))
    }

    private func commit(_ change: Change, assets: [PHAsset], in library: PHPhotoLibrary, round: Int) throws -> UInt64 {
        let jpeg = self.jpeg
        let (_, nanos) = try timed {
            try library.performChangesAndWait {
                switch change {
                case .favorite1, .favorites:
                    for asset in assets { PHAssetChangeRequest(for: asset).isFavorite = !asset.isFavorite }
                case .hidden:
                    for asset in assets { PHAssetChangeRequest(for: asset).isHidden = true }
                case .creationDates:
                    for asset in assets {
                        PHAssetChangeRequest(for: asset).creationDate = asset.creationDate.map { $0.addingTimeInterval(86_400) }
                    }
                case .deletions:
                    PHAssetChangeRequest.deleteAssets(assets as NSArray)
                case .additions:
                    for n in 0..<change.batch {
                        // Distinct bytes after the end-of-image marker: no two files are duplicates.
                        var data = jpeg!
                        data.append(contentsOf: Array("round \(round) photo \(n)".utf8))
                        PHAssetCreationRequest.forAsset().addResource(with: .photo, data: data, options: nil)
                    }
                }
            }
        }
        return nanos
    }

    /// A 64 × 48 JPEG made by the `vips` command; nil (and the additions row skipped) without it.
    static func smallJPEG() -> Data? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("store-benchmark-\(getpid()).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["vips", "gaussnoise", file.path + "[Q=80]", "64", "48"]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try? Data(contentsOf: file)
    }
}
