import Foundation
import PhotosStore

/// A video's browser-playable rendition: H.264 High / AAC in an MP4 with its header first
/// ("fast start"), upright, fitted in 1920×1080 either way up, kept among the derivatives.
/// Browsers play H.264 everywhere; they don't play HEVC (what iPhones record) in Chromium or
/// Firefox, nor ProRes, AVI or most MKVs.
///
/// Named after the asset and the file it was made from, so an edit (a new rendered movie)
/// or a revert never finds a rendition of another version:
/// `derivatives/<A>/<UUID>_video_<source hash>.mp4`.
enum VideoRendition {
    /// `derivatives/<A>/<UUID>_video_<hash of the source's path>.mp4`, relative to the library.
    static func relativePath(assetUUID: String, sourcePath: String) -> String {
        "derivatives/\(assetUUID.prefix(1))/\(assetUUID)_video_\(stableHash(sourcePath)).mp4"
    }

    /// FNV-1a 64 of the path, in hex: the same in every process (unlike `hashValue`).
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The current version's movie among an asset's records: the edit's render, else the
    /// original; a Live Photo's movie likewise.
    static func currentMovie(in records: [ResourceRecord]) -> ResourceRecord? {
        func record(_ type: PHAssetResourceType) -> ResourceRecord? { records.first { $0.type == type.rawValue } }
        return record(.fullSizeVideo) ?? record(.video) ?? record(.fullSizePairedVideo) ?? record(.pairedVideo)
    }

    /// The current version's movie record of a video asset.
    static func source(of asset: PHAsset, in library: PHPhotoLibrary) -> ResourceRecord? {
        guard asset.mediaType == .video else { return nil }
        let records = library.logger.attempt(.warning, "read the files of \(asset.localIdentifier)") {
            try library.store.resources(assetID: asset.rowID)
        }
        guard let records else { return nil }
        return currentMovie(in: records)
    }

    /// The rendition of the asset's current version, if it has been made.
    static func existingFile(of asset: PHAsset, in library: PHPhotoLibrary) -> URL? {
        guard let source = source(of: asset, in: library) else { return nil }
        let url = library.store.layout.url(forRelativePath: relativePath(assetUUID: asset.uuid, sourcePath: source.path))
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
