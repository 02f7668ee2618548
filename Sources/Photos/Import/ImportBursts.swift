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

    /// What grouping needs of one imported photo. An import keeps one for every photo that
    /// could be in a burst, so it is small (48 bytes, no allocation of its own): a million-photo
    /// import keeps ~56 MB, where whole metadata and identifier strings took ~400 MB.
    struct Member: Sendable {
        let asset: UUID
        /// The main file: an entry of the import's files.
        let entry: Int32
        /// Seconds since 1970; NaN when the photo has no capture date.
        let captureTime: Double
        /// Index into ``Candidates/cameras`` (make, model and size), or -1.
        let camera: Int32
        /// Index into ``Candidates/burstIdentifiers`` (Apple's BurstUUID), or -1.
        let burst: Int32
        /// The first 16 bytes of the file's ``ContentSignature``: stable, unique among the
        /// library's files, and a detected burst's identifier when it is the first frame.
        let seed: UUID

        var localIdentifier: String { LocalIdentifier.asset(asset.uuidString) }
    }

    /// The photos of one import that could belong to a burst, with cameras and burst
    /// identifiers stored once each.
    struct Candidates {
        private(set) var members: [Member] = []
        private(set) var cameras: [String] = []
        private(set) var burstIdentifiers: [String] = []
        private var cameraIndex: [String: Int32] = [:]
        private var burstIndex: [String: Int32] = [:]

        /// Room for `count` photos at once, so the list never doubles past what it needs.
        mutating func reserve(_ count: Int) { members.reserveCapacity(count) }

        /// Keeps the photo if it names a burst, or has a capture date and a camera; others
        /// can't be in one.
        mutating func add(localIdentifier: String, entry: Int32?, metadata: MediaMetadata, signature: String) {
            guard let entry, let asset = LocalIdentifier.assetUUID(localIdentifier).flatMap(UUID.init(uuidString:)) else { return }
            var burst: Int32 = -1
            var camera: Int32 = -1
            if let identifier = metadata.burstIdentifier {
                burst = Self.index(of: identifier, in: &burstIndex, &burstIdentifiers)
            } else if metadata.captureDate != nil, metadata.make != nil || metadata.model != nil {
                let key = "\(metadata.make ?? "")|\(metadata.model ?? "")|\(metadata.pixelWidth)x\(metadata.pixelHeight)"
                camera = Self.index(of: key, in: &cameraIndex, &cameras)
            } else {
                return
            }
            members.append(
                Member(
                    asset: asset, entry: entry, captureTime: metadata.captureDate?.timeIntervalSince1970 ?? .nan,
                    camera: camera, burst: burst, seed: Self.seed(signature)))
        }

        private static func index(of key: String, in index: inout [String: Int32], _ keys: inout [String]) -> Int32 {
            if let found = index[key] { return found }
            let next = Int32(keys.count)
            index[key] = next
            keys.append(key)
            return next
        }

        /// The first 32 hex digits of a signature as a UUID (a random one if it has fewer).
        static func seed(_ signature: String) -> UUID {
            let hex = Array(signature.uppercased().prefix(32))
            guard hex.count == 32 else { return UUID() }
            let shaped = [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }.joined(separator: "-")
            return UUID(uuidString: shaped) ?? UUID()
        }
    }

    struct Burst {
        var identifier: String
        var members: [Member]
    }

    static func group(_ candidates: Candidates) -> [Burst] {
        var bursts: [Burst] = []
        let photos = candidates.members
        let tagged = Dictionary(grouping: photos.filter { $0.burst >= 0 }, by: \.burst)
        for (index, members) in tagged {
            bursts.append(Burst(identifier: candidates.burstIdentifiers[Int(index)], members: members))
        }
        bursts.sort { $0.identifier < $1.identifier }
        // Untagged: runs of quick frames from one camera, camera by camera in the order of
        // their keys.
        var byCamera = photos.filter { $0.burst < 0 && $0.camera >= 0 && !$0.captureTime.isNaN }
        byCamera.sort {
            ($0.camera, $0.captureTime) < ($1.camera, $1.captureTime)
                || ($0.camera, $0.captureTime) == ($1.camera, $1.captureTime) && $0.entry < $1.entry
        }
        var detected: [(camera: String, burst: Burst)] = []
        var run: [Member] = []
        func close() {
            if run.count >= minimumDetectedFrames {
                detected.append((candidates.cameras[Int(run[0].camera)], Burst(identifier: run[0].seed.uuidString, members: run)))
            }
            run = []
        }
        for frame in byCamera {
            if let last = run.last, frame.camera != last.camera || frame.captureTime - last.captureTime >= maximumFrameGap { close() }
            run.append(frame)
        }
        close()
        detected.sort { ($0.camera, $0.burst.members[0].captureTime) < ($1.camera, $1.burst.members[0].captureTime) }
        return bursts + detected.map(\.burst)
    }

    /// Writes the bursts in one change; returns how many there were.
    static func assign(_ bursts: [Burst], files: ImportFiles, in library: PHPhotoLibrary) throws -> Int {
        guard !bursts.isEmpty else { return 0 }
        var plans: [(asset: PHAsset, identifier: String, represents: Bool, pick: Bool)] = []
        try library.withCurrent {
            let options = PHFetchOptions()
            options.includeAllBurstAssets = true
            options.includeHiddenAssets = true
            for burst in bursts {
                let existing = PHAsset.fetchAssets(withBurstIdentifier: burst.identifier, options: options)
                let hasRepresentative = existing.contains { $0.representsBurst }
                // Unmeasured (logged), a frame counts as the least sharp: another is picked.
                let sharpness = burst.members.map { member in
                    let url = files.url(member.entry)
                    return library.logger.attempt(.notice, "measure the sharpness of \(url.path) to pick its burst's best frame") {
                        try VipsImage.sharpness(ofFileAt: url)
                    } ?? 0
                }
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
