import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Fetching assets with options")
struct FetchOptionsTests {
    /// 3 photos, 1 video, 1 hidden photo, a burst of 3 (representative, user pick, plain).
    static func library() throws -> (TemporaryLibrary, [String: SyntheticAsset]) {
        let temporary = try TemporaryLibrary()
        func at(_ day: Double) -> Date { Date(timeIntervalSince1970: 1_600_000_000 + day * 86_400) }
        var assets: [String: SyntheticAsset] = [
            "p1": SyntheticAsset(creationDate: at(3)),
            "p2": SyntheticAsset(creationDate: at(1), isFavorite: true),
            "p3": SyntheticAsset(creationDate: at(2)),
            "v1": SyntheticAsset(mediaType: .video, creationDate: at(4)),
            "hidden": SyntheticAsset(creationDate: at(5), isHidden: true),
        ]
        for (name, selection, represents, day) in [
            ("b-rep", PHAssetBurstSelectionType.autoPick, true, 6.0), ("b-pick", .userPick, false, 6.1), ("b-plain", [], false, 6.2),
        ] {
            var asset = SyntheticAsset(creationDate: at(day))
            asset.burstIdentifier = "B1"
            asset.burstSelectionTypes = selection
            asset.representsBurst = represents
            assets[name] = asset
        }
        try temporary.seed(Array(assets.values))
        return (temporary, assets)
    }

    static func names(_ result: PHFetchResult<PHAsset>, _ assets: [String: SyntheticAsset]) -> [String] {
        let byID = Dictionary(uniqueKeysWithValues: assets.map { ($0.value.localIdentifier, $0.key) })
        return result.map { byID[$0.localIdentifier] ?? "?" }
    }

    @Test func defaultsHideHiddenAndNonPickedBurstFramesInCreationOrder() throws {
        let (temporary, assets) = try Self.library()
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        #expect(Self.names(result, assets) == ["p2", "p3", "p1", "v1", "b-rep", "b-pick"])
    }

    @Test func includeHiddenAndAllBurstAssets() throws {
        let (temporary, assets) = try Self.library()
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: options) }
        #expect(Self.names(result, assets) == ["p2", "p3", "p1", "v1", "hidden", "b-rep", "b-pick", "b-plain"])
    }

    @Test func byMediaTypeSortAndLimit() throws {
        let (temporary, assets) = try Self.library()
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        options.fetchLimit = 2
        let newestPhotos = temporary.library.withCurrent { PHAsset.fetchAssets(with: .image, options: options) }
        #expect(Self.names(newestPhotos, assets) == ["b-pick", "b-rep"])
        let videos = temporary.library.withCurrent { PHAsset.fetchAssets(with: .video, options: nil) }
        #expect(Self.names(videos, assets) == ["v1"])
    }

    @Test func optionsAreCopiedAtFetchTime() throws {
        let (temporary, _) = try Self.library()
        let options = PHFetchOptions()
        options.fetchLimit = 1
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: options) }
        options.fetchLimit = 0
        #expect(result.count == 1)
        let copy = options.copy() as! PHFetchOptions
        copy.includeHiddenAssets = true
        #expect(options.includeHiddenAssets == false)
    }

    @Test func burstFetchReturnsPicksUnlessAllAreAsked() throws {
        let (temporary, assets) = try Self.library()
        let picks = temporary.library.withCurrent { PHAsset.fetchAssets(withBurstIdentifier: "B1", options: nil) }
        #expect(Self.names(picks, assets) == ["b-rep", "b-pick"])
        let options = PHFetchOptions()
        options.includeAllBurstAssets = true
        let all = temporary.library.withCurrent { PHAsset.fetchAssets(withBurstIdentifier: "B1", options: options) }
        #expect(Self.names(all, assets) == ["b-rep", "b-pick", "b-plain"])
    }

    @Test func localIdentifiersIncludeHiddenAndSkipUnknown() throws {
        let (temporary, assets) = try Self.library()
        let ids = [assets["hidden"]!.localIdentifier, "00000000-0000-0000-0000-000000000000/L0/001", "garbage", assets["p1"]!.localIdentifier]
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        #expect(Set(Self.names(result, assets)) == ["hidden", "p1"])
    }

    @Test func sortDescriptorsByKeyPath() throws {
        let (temporary, assets) = try Self.library()
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "isFavorite", ascending: false), NSSortDescriptor(key: "creationDate", ascending: true)]
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: options) }
        #expect(Self.names(result, assets) == ["p2", "p3", "p1", "v1", "b-rep", "b-pick"])
    }

    @Test func unsupportedSortKeyIsReported() throws {
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "fileSize", ascending: true)]
        let error = #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        #expect(error?.token == "fileSize")
        #expect(error?.message.contains("PHAsset") == true)
    }

    @Test func unsupportedSortKeyStopsTheFetch() async {
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(key: "fileSize", ascending: true)]
            _ = temporary.library.withCurrent { PHAsset.fetchAssets(with: options) }
        }
    }
}
