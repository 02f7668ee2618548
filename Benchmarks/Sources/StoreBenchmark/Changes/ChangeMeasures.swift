import BenchmarkSupport
import Foundation
import Photos

/// The change-observation measures, through the public API only: an observer holding a fetch
/// result is timed from the moment a change starts committing until it holds the change's
/// details for its result, in this process and from another one; and the cost of the details
/// alone is set beside the cost of re-running the fetch (what a client without incremental
/// details does), in PhotoKit and in `sqlite3`, for results of 10,000 to 1,000,000 assets.
struct ChangeMeasures {
    let library: PHPhotoLibrary
    let folder: URL
    let cli: SQLiteCLI
    let repeats: Int
    /// Every asset sorted by creation date, the 1M result, and its identifiers.
    let everything: PHFetchResult<PHAsset>
    private var random = SystemRandomNumberGenerator()

    init(library: PHPhotoLibrary, folder: URL, cli: SQLiteCLI, repeats: Int) {
        self.library = library
        self.folder = folder
        self.cli = cli
        self.repeats = repeats
        everything = library.withCurrent { PHAsset.fetchAssets(with: Self.byCreationDate(before: nil)) }
    }

    /// Sorted by creation date, hidden assets included; only those created before `date`.
    static func byCreationDate(before date: Date?) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        if let date { options.predicate = NSPredicate(format: "creationDate < %@", date as NSDate) }
        return options
    }

    static func favorites() -> PHFetchOptions {
        let options = byCreationDate(before: nil)
        options.predicate = NSPredicate(format: "isFavorite == YES")
        return options
    }

    private mutating func randomAssets(_ count: Int, below limit: Int) -> [PHAsset] {
        var indexes = Set<Int>()
        while indexes.count < count { indexes.insert(Int.random(in: 0..<limit, using: &random)) }
        return indexes.map { everything.object(at: $0) }
    }

    /// Fresh objects for `assets`, so toggles flip the current value.
    private func current(_ assets: [PHAsset]) -> [PHAsset] {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        return library.withCurrent { Array(PHAsset.fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier), options: options)) }
    }

    // MARK: - Latency

    /// In this process: toggles the favorite of `batch` random assets in one transaction,
    /// `rounds` times; total = commit start → observer holds the details for `options`' result.
    mutating func inProcess(_ title: String, options: PHFetchOptions, batch: Int, rounds: Int, expect: (ChangeProbe.Delivery) -> Bool) throws -> ChangeResults.Latency {
        let probe = ChangeProbe(holding: library.withCurrent { PHAsset.fetchAssets(with: options) })
        library.register(probe)
        defer { library.unregisterChangeObserver(probe) }
        var total: [UInt64] = [], commit: [UInt64] = [], details: [UInt64] = []
        var last = ChangeProbe.Delivery(arrived: 0, done: 0)
        for round in 0..<(rounds + 1) {
            let assets = current(randomAssets(batch, below: everything.count))
            let start = monotonicNanos()
            try library.performChangesAndWait {
                for asset in assets { PHAssetChangeRequest(for: asset).isFavorite = !asset.isFavorite }
            }
            let committed = monotonicNanos()
            let delivery = try probe.next()
            guard expect(delivery) else { throw BenchmarkFailure("\(title): unexpected details \(delivery)") }
            if round == 0 { continue }  // warm-up
            total.append(delivery.done - start)
            commit.append(committed - start)
            details.append(delivery.detailsNanos)
            last = delivery
        }
        return ChangeResults.Latency(
            title: title, resultCount: probe.held.count, total: Samples(total), commit: Samples(commit), details: Samples(details),
            wake: nil, summary: Self.describe(last), isSingleChange: batch == 1)
    }

    /// From a `change-writer` child process: one favorite toggled per round.
    mutating func crossProcess(rounds: Int) throws -> ChangeResults.Latency {
        let probe = ChangeProbe(holding: library.withCurrent { PHAsset.fetchAssets(with: Self.byCreationDate(before: nil)) })
        library.register(probe)
        defer { library.unregisterChangeObserver(probe) }
        let writer = try ChangeWriterProcess(library: folder)
        defer { writer.finish() }
        var total: [UInt64] = [], commit: [UInt64] = [], details: [UInt64] = [], wake: [UInt64] = []
        var last = ChangeProbe.Delivery(arrived: 0, done: 0)
        for round in 0..<(rounds + 1) {
            let asset = randomAssets(1, below: everything.count)[0]
            let (start, end) = try writer.toggle(asset.localIdentifier)
            let delivery = try probe.next()
            guard delivery.changed == 1, delivery.inserted + delivery.removed + delivery.moves == 0 else {
                throw BenchmarkFailure("cross-process: unexpected details \(delivery)")
            }
            if round == 0 { continue }
            total.append(delivery.done - start)
            commit.append(end - start)
            details.append(delivery.detailsNanos)
            wake.append(delivery.arrived > end ? delivery.arrived - end : 0)
            last = delivery
            usleep(20_000)  // let the 1 s fallback timer and the signal settle apart
        }
        return ChangeResults.Latency(
            title: "One favorite toggled by another process (`change-writer` child), 1M fetch by creationDate",
            resultCount: probe.held.count, total: Samples(total), commit: Samples(commit), details: Samples(details),
            wake: Samples(wake), summary: Self.describe(last), isSingleChange: true)
    }

    static func describe(_ delivery: ChangeProbe.Delivery) -> String {
        var parts: [String] = []
        if delivery.removed > 0 { parts.append("\(Format.count(delivery.removed)) removed") }
        if delivery.inserted > 0 { parts.append("\(Format.count(delivery.inserted)) inserted") }
        if delivery.moves > 0 { parts.append("\(Format.count(delivery.moves)) moved") }
        if delivery.changed > 0 { parts.append("\(Format.count(delivery.changed)) changed") }
        if !delivery.incremental { parts.append("not incremental") }
        return parts.joined(separator: ", ")
    }

    // MARK: - Scaling

    /// For results of each size: the details' cost for 1 toggle, 1 date change that moves the
    /// asset, and 1,000 toggles in one transaction, against re-running the fetch.
    mutating func scaling(sizes: [Int]) throws -> [ChangeResults.Scaling] {
        var rows: [ChangeResults.Scaling] = []
        for size in sizes where size <= everything.count {
            let cutoff = size < everything.count ? everything.object(at: size).creationDate : nil
            let options = Self.byCreationDate(before: cutoff)
            let peerSQL = PeerQueries.everything(before: cutoff)
            let fetched = library.withCurrent { PHAsset.fetchAssets(with: options) }
            guard fetched.count == size else { throw BenchmarkFailure("the fetch before \(String(describing: cutoff)) has \(fetched.count) assets, not \(size)") }
            let peer = Samples(try (0...repeats).map { _ in try cli.timedQuery(peerSQL).queryNanos }.dropFirst().map { $0 })
            let refetch = Samples((0...repeats).map { _ in
                timed { library.withCurrent { PHAsset.fetchAssets(with: options).count } }.1
            }.dropFirst().map { $0 })

            let probe = ChangeProbe(holding: fetched)
            library.register(probe)
            defer { library.unregisterChangeObserver(probe) }
            let rounds = max(repeats * 2, 5)
            for kind in ChangeResults.Scaling.Kind.allCases {
                var samples: [UInt64] = []
                var last = ChangeProbe.Delivery(arrived: 0, done: 0)
                for round in 0..<(rounds + 1) {
                    let assets = current(randomAssets(kind == .thousandToggles ? 1_000 : 1, below: size))
                    try library.performChangesAndWait {
                        for asset in assets {
                            let request = PHAssetChangeRequest(for: asset)
                            if kind == .move {
                                // Another time inside the result's range: the asset moves.
                                let other = self.everything.object(at: Int.random(in: 0..<size - 1, using: &self.random))
                                request.creationDate = other.creationDate.map { $0.addingTimeInterval(0.001) }
                            } else {
                                request.isFavorite = !asset.isFavorite
                            }
                        }
                    }
                    let delivery = try probe.next()
                    guard delivery.affected, delivery.countAfter == size else {
                        throw BenchmarkFailure("scaling \(size) \(kind): unexpected details \(delivery)")
                    }
                    if round > 0 { samples.append(delivery.detailsNanos) }
                    last = delivery
                }
                rows.append(ChangeResults.Scaling(
                    size: size, kind: kind, details: Samples(samples), sqliteReload: peer, photoKitRefetch: refetch,
                    summary: Self.describe(last)))
            }
        }
        return rows
    }
}
