import AVFoundation
import Photos

/// A video detail screen's model, written as PhotoKit apps write one: the movie's duration
/// and size from `requestAVAsset`, and a "Share" export through `requestExportSession`.
@MainActor
final class VideoClipModel {
    let asset: PHAsset
    private(set) var durationText = ""
    private(set) var displaySize = CGSize.zero
    private(set) var exportedURL: URL?
    private(set) var exportError: Error?

    init(asset: PHAsset) {
        self.asset = asset
    }

    func loadDetails() async throws {
        let options = PHVideoRequestOptions()
        options.version = .current
        options.deliveryMode = .automatic
        options.isNetworkAccessAllowed = true
        let avAsset: AVAsset = try await withCheckedThrowingContinuation { continuation in
            PHImageManager.default().requestAVAsset(forVideo: asset, options: options) { avAsset, _, info in
                if let avAsset {
                    continuation.resume(returning: avAsset)
                } else {
                    continuation.resume(throwing: info?[PHImageErrorKey] as? Error ?? CocoaError(.fileReadUnknown))
                }
            }
        }
        guard let urlAsset = avAsset as? AVURLAsset else { throw CocoaError(.fileReadUnsupportedScheme) }
        let (duration, tracks) = try await urlAsset.load(.duration, .tracks)
        let seconds = Int(CMTimeGetSeconds(duration).rounded())
        durationText = String(format: "%d:%02d", seconds / 60, seconds % 60)
        if let track = tracks.first(where: { $0.mediaType == .video }) {
            let (size, transform) = try await track.load(.naturalSize, .preferredTransform)
            let shown = size.applying(transform)
            displaySize = CGSize(width: abs(shown.width), height: abs(shown.height))
        }
    }

    func export(to folder: URL, completion: @escaping () -> Void) {
        PHImageManager.default().requestExportSession(forVideo: asset, options: nil, exportPreset: AVAssetExportPreset640x480) {
            session, info in
            guard let session else {
                DispatchQueue.main.async {
                    self.exportError = info?[PHImageErrorKey] as? Error
                    completion()
                }
                return
            }
            let url = folder.appendingPathComponent("shared.mp4")
            session.outputURL = url
            session.outputFileType = .mp4
            session.shouldOptimizeForNetworkUse = true
            session.exportAsynchronously {
                DispatchQueue.main.async {
                    if session.status == .completed {
                        self.exportedURL = url
                    } else {
                        self.exportError = session.error
                    }
                    completion()
                }
            }
        }
    }
}
