import AVFoundation
import Foundation
import Logging

/// A video's poster frame: its first frame as a full-size JPEG, upright (the container's
/// rotation applied), made once with `ffmpeg` (Debian's `ffmpeg`, installed by
/// `scripts/install-deps.sh`) and kept among the asset's derivatives, so video assets are
/// requested, thumbnailed and cached like photos.
enum VideoPosterFrame {
    /// `derivatives/<A>/<UUID>_poster.jpg` for the original movie, `…_poster_<hash>.jpg` for an
    /// edit's rendered movie (each edit's render has a path of its own), relative to the library.
    static func relativePath(assetUUID: String, sourcePath: String, isOriginal: Bool) -> String {
        let suffix = isOriginal ? "" : "_\(VideoRendition.stableHash(sourcePath))"
        return "derivatives/\(assetUUID.prefix(1))/\(assetUUID)_poster\(suffix).jpg"
    }

    /// Makes the poster frame of `video` at `destination` unless it exists. A temporary file
    /// that can't be removed is logged (`logger`, the library's): nothing else removes it.
    static func make(from video: URL, at destination: URL, logger: Logger) throws(PHPhotosError) {
        guard !FileManager.default.fileExists(atPath: destination.path) else { return }
        guard let ffmpeg = FFmpegTools.ffmpeg else {
            throw PHPhotosError(.requestNotSupportedForAsset, "Video poster frames need ffmpeg (apt install ffmpeg)")
        }
        let folder = destination.deletingLastPathComponent()
        // try?: a folder that can't be made fails ffmpeg's write below, which is thrown.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(UUID().uuidString).tmp.jpg")
        do throws(AVError) {
            _ = try FFmpegTools.run(
                ffmpeg, ["-v", "error", "-nostdin", "-i", video.path, "-frames:v", "1", "-q:v", "2", "-y", temporary.path],
                failure: .decodeFailed, what: "Can't take a poster frame from \(video.lastPathComponent)")
        } catch {
            removeTemporary(temporary, logger: logger)
            throw PHPhotosError(.invalidResource, error.message)
        }
        guard FileManager.default.fileExists(atPath: temporary.path) else {
            throw PHPhotosError(.invalidResource, "Can't take a poster frame from \(video.lastPathComponent): ffmpeg wrote no frame")
        }
        if rename(temporary.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            logger.notice("Could not keep the poster frame \(destination.path): \(reason)")
            removeTemporary(temporary, logger: logger)
        }
    }

    private static func removeTemporary(_ temporary: URL, logger: Logger) {
        logger.attempt(.notice, "remove the temporary poster frame \(temporary.path)") {
            try FileManager.default.removeItemIfPresent(at: temporary)
        }
    }
}
