// libFuzzer target: the NSPredicate format parser, the fetch's key binding and SQL compilation,
// and the query itself, run against a real library; the answer is checked against the same
// predicate evaluated in memory.
//
// The input is a predicate format as a client sends it (`photos list --predicate`, the server's
// `predicate=` parameter), or, when it starts with byte 0x01, choices PredicateWriter turns into
// a format the fetch accepts. Then: `NSPredicate(validatingFormat:)`, then
// `PHFetchOptions.validate(for:)` (the throwing check the CLI and the server run before
// fetching), then `PHAsset.fetchAssets(with:)` on a small SQLite library. The store's SQL compiler is meant to
// mirror `PredicateEvaluator` exactly (see its table), so every asset's membership in the
// fetch must equal `predicate.evaluate(with: asset)`; a fetch that fails to run at all (a
// predicate that parsed and validated, answered 500 by the server) is a finding too.
import Foundation
import Photos
import PhotosTestSupport

/// The library, made on the first input and removed when the fuzzer exits.
private final class Fixture: @unchecked Sendable {
    // @unchecked Sendable: libFuzzer calls the target from one thread; nothing here changes.
    let library: TemporaryLibrary
    /// Every asset, hidden ones and burst members included, as the fetches see them.
    let assets: [PHAsset]
    var identifiers: [String] { assets.map(\.localIdentifier) }

    init() {
        do {
            library = try TemporaryLibrary(function: "FuzzPredicate")
            try library.seed(Self.rows, now: Date(timeIntervalSince1970: 1_700_000_000))
        } catch {
            fatalError("FuzzPredicate: cannot make its library: \(error)")
        }
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        let all = library.library.withCurrent { PHAsset.fetchAssets(with: options) }
        assets = (0 ..< all.count).map { all.object(at: $0) }
        guard assets.count == Self.rows.count else { fatalError("FuzzPredicate: seeded \(Self.rows.count) assets, fetched \(assets.count)") }
    }

    /// Rows covering each key's edge values: every media type (and an unknown one), subtype bits
    /// high and low, no creation date, dates before 1970 and past 2038, zero and huge sizes,
    /// fractional durations, burst identifiers that differ only in case or diacritics, empty.
    static let rows: [SyntheticAsset] = {
        func asset(
            _ type: PHAssetMediaType, _ subtypes: PHAssetMediaSubtype = [], created: Double?, width: Int = 4000, height: Int = 3000,
            duration: Double = 0, favorite: Bool = false, hidden: Bool = false, burst: String? = nil
        ) -> SyntheticAsset {
            var row = SyntheticAsset(
                mediaType: type, mediaSubtypes: subtypes, creationDate: created.map(Date.init(timeIntervalSince1970:)),
                isFavorite: favorite, isHidden: hidden)
            (row.pixelWidth, row.pixelHeight, row.duration, row.burstIdentifier) = (width, height, duration, burst)
            return row
        }
        return [
            asset(.image, [.photoHDR, .photoLive], created: 1_600_000_000, favorite: true, burst: "Café-1"),
            asset(.image, [.photoPanorama], created: 1_600_000_000.5, width: 12_000, height: 2_000, burst: "cafe-1"),
            asset(.image, [.photoScreenshot], created: nil, width: 0, height: 0, burst: "CAFE-1"),
            asset(.video, [.videoHighFrameRate, .videoTimelapse], created: 0, width: 1920, height: 1080, duration: 12.5, hidden: true),
            asset(.video, [.videoCinematic], created: -946_684_800, width: 3840, height: 2160, duration: 0.001),
            asset(.audio, created: 4_102_444_800, width: 0, height: 0, duration: 3600),
            asset(.unknown, PHAssetMediaSubtype(rawValue: 1 << 40), created: 2_147_483_648, width: Int(Int32.max), height: 1, burst: ""),
            asset(.image, [.photoDepthEffect, .spatialMedia], created: 1_234_567_890.123, favorite: true, hidden: true, burst: "Ünïcödé ✓ 'quoted' \"x\""),
            asset(.image, [], created: 1_600_000_000, width: 4000, height: 3000, burst: "100%_*?\\"),
        ]
    }()
}

private let fixture = Fixture()

/// How far inputs got, printed when the fuzzer exits (libFuzzer runs the target on one thread).
nonisolated(unsafe) private var counts = (inputs: 0, written: 0, parsed: 0, fetched: 0)
private let printCounts: Void = {
    atexit {
        FileHandle.standardError.write(Data(
            "FuzzPredicate: \(counts.inputs) inputs (\(counts.written) written by PredicateWriter), \(counts.parsed) parsed, \(counts.fetched) validated and fetched\n".utf8))
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = printCounts
    counts.inputs += 1
    let input = UnsafeBufferPointer(start: data, count: size)
    let format: String
    if input.first == 0x01 {
        var writer = PredicateWriter(ArraySlice(input.dropFirst()), identifiers: fixture.identifiers)
        format = writer.predicate()
        counts.written += 1
    } else {
        format = String(decoding: input, as: UTF8.self)
    }
    guard let predicate = try? NSPredicate(validatingFormat: format, argumentArray: nil) else { return 0 }
    counts.parsed += 1
    let options = PHFetchOptions()
    options.predicate = predicate
    options.includeHiddenAssets = true
    options.includeAllBurstAssets = true
    guard (try? options.validate(for: PHAsset.self)) != nil else { return 0 }
    counts.fetched += 1
    let result = fixture.library.library.withCurrent { PHAsset.fetchAssets(with: options) }
    if let error = result.fetchError {
        fatalError("FuzzPredicate: a predicate that parsed and validated failed to run: \(error.localizedDescription)\nformat: \(format)")
    }
    var fetched = Set<String>()
    for index in 0 ..< result.count { fetched.insert(result.object(at: index).localIdentifier) }
    for asset in fixture.assets {
        let inMemory = predicate.evaluate(with: asset)
        if inMemory != fetched.contains(asset.localIdentifier) {
            fatalError(
                "FuzzPredicate: the fetch \(inMemory ? "misses" : "includes") an asset the predicate evaluates to \(inMemory) on\n"
                    + "format: \(format)\nasset: \(describe(asset))")
        }
    }
    return 0
}

private func describe(_ asset: PHAsset) -> String {
    "mediaType \(asset.mediaType.rawValue), mediaSubtypes \(asset.mediaSubtypes.rawValue), creationDate \(asset.creationDate.map { "\($0.timeIntervalSince1970)" } ?? "nil"), "
        + "\(asset.pixelWidth)x\(asset.pixelHeight), duration \(asset.duration), favorite \(asset.isFavorite), hidden \(asset.isHidden), "
        + "burstIdentifier \(asset.burstIdentifier.map { "'\($0)'" } ?? "nil")"
}
