import Foundation
import Imaging

/// Bursts among the photos one import brought in: grouped, then each given its representative.
///
/// A burst is what Apple's maker note names (BurstUUID), or, for other cameras, a run of at
/// least ``minimumDetectedFrames`` photos from one camera (make, model and size) whose capture
/// times are less than ``maximumFrameGap`` apart. The sharpest frame (variance of the Laplacian
/// of a 512-pixel grey version) is the auto pick and the representative; the others are kept
/// but shown only with `includeAllBurstAssets`, as in Photos. A burst that already has a
/// representative in the library keeps it; new frames join as members.
enum ImportBursts {
    static let maximumFrameGap: TimeInterval = 1
    static let minimumDetectedFrames = 3

    struct Member: Sendable {
        let localIdentifier: String
        let source: URL
        let metadata: MediaMetadata
        /// ``ContentSignature`` of the file: stable, unique among the library's files.
        let fingerprint: String
    }

    struct Burst {
        var identifier: String
        var members: [Member]
    }

    static func group(_ photos: [Member]) -> [Burst] {
        var bursts: [Burst] = []
        let tagged = Dictionary(grouping: photos.filter { $0.metadata.burstIdentifier != nil }) { $0.metadata.burstIdentifier! }
        for (identifier, members) in tagged.sorted(by: { $0.key < $1.key }) {
            bursts.append(Burst(identifier: identifier, members: members))
        }
        // Untagged: runs of quick frames from one camera.
        let candidates = photos.filter {
            $0.metadata.burstIdentifier == nil && $0.metadata.captureDate != nil && ($0.metadata.make != nil || $0.metadata.model != nil)
        }
        let byCamera = Dictionary(grouping: candidates) {
            "\($0.metadata.make ?? "")|\($0.metadata.model ?? "")|\($0.metadata.pixelWidth)x\($0.metadata.pixelHeight)"
        }
        for key in byCamera.keys.sorted() {
            let frames = byCamera[key]!.sorted { ($0.metadata.captureDate!, $0.source.path) < ($1.metadata.captureDate!, $1.source.path) }
            var run: [Member] = []
            func close() {
                if run.count >= minimumDetectedFrames { bursts.append(Burst(identifier: identifier(for: run[0]), members: run)) }
                run = []
            }
            for frame in frames {
                if let last = run.last, frame.metadata.captureDate!.timeIntervalSince(last.metadata.captureDate!) >= maximumFrameGap { close() }
                run.append(frame)
            }
            close()
        }
        return bursts
    }

    /// A stable identifier for a detected burst: its first frame's fingerprint, shaped as a UUID.
    static func identifier(for first: Member) -> String {
        let hex = Array(first.fingerprint.uppercased().prefix(32))
        guard hex.count == 32 else { return UUID().uuidString }
        return [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }.joined(separator: "-")
    }

    /// Writes the bursts in one change; returns how many there were.
    static func assign(_ bursts: [Burst], in library: PHPhotoLibrary) throws -> Int {
        guard !bursts.isEmpty else { return 0 }
        var plans: [(asset: PHAsset, identifier: String, represents: Bool, pick: Bool)] = []
        try library.withCurrent {
            let options = PHFetchOptions()
            options.includeAllBurstAssets = true
            options.includeHiddenAssets = true
            for burst in bursts {
                let existing = PHAsset.fetchAssets(withBurstIdentifier: burst.identifier, options: options)
                let hasRepresentative = existing.contains { $0.representsBurst }
                let sharpness = burst.members.map { (try? VipsImage.sharpness(ofFileAt: $0.source)) ?? 0 }
                let sharpest = sharpness.indices.max { sharpness[$0] < sharpness[$1] } ?? 0
                let assets = PHAsset.fetchAssets(withLocalIdentifiers: burst.members.map(\.localIdentifier), options: options)
                let byIdentifier = Dictionary(uniqueKeysWithValues: assets.map { ($0.localIdentifier, $0) })
                for (index, member) in burst.members.enumerated() {
                    guard let asset = byIdentifier[member.localIdentifier] else { continue }
                    let pick = index == sharpest && !hasRepresentative
                    plans.append((asset, burst.identifier, pick, pick))
                }
            }
            guard !plans.isEmpty else { return }
            try library.performChangesAndWait {
                for plan in plans {
                    PHAssetChangeRequest(for: plan.asset).setBurst(plan.identifier, represents: plan.represents, selection: plan.pick ? .autoPick : [])
                }
            }
        }
        return bursts.count
    }
}
