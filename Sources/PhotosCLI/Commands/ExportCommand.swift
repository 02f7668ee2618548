import ArgumentParser
import Foundation
import Photos

/// `photos export ID... --to DIR`: videos through `requestExportSession` (with a preset),
/// photos as their current image or original file.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export assets to a folder: videos transcoded with a preset, photos as they are shown (or their originals).")

    enum Preset: String, ExpressibleByArgument, CaseIterable {
        case p1080 = "1080p", p720 = "720p", passthrough, hevc

        var avPreset: String {
            switch self {
            case .p1080: AVAssetExportPreset1920x1080
            case .p720: AVAssetExportPreset1280x720
            case .passthrough: AVAssetExportPresetPassthrough
            case .hevc: AVAssetExportPresetHEVCHighestQuality
            }
        }
    }

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]
    @Option(help: "The folder to write to (created if missing).") var to: String
    @Option(help: "How videos are written: 1080p, 720p (H.264), passthrough (the streams as they are) or hevc.")
    var preset: Preset = .p1080
    @Flag(help: "Export the originals, not the edited versions.") var original = false

    func run() async throws {
        let library = try options.open(forReading: true)
        let folder = URL(fileURLWithPath: to, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("Can't create \(folder.path): \(error.localizedDescription)")
        }
        let found = try library.withCurrent { try ObjectLookup.assets(assets) }
        var failures = 0
        for asset in found {
            do {
                let written = asset.mediaType == .video ? try await exportVideo(asset, to: folder) : try await exportPhoto(asset, to: folder)
                print("\(asset.localIdentifier)  →  \(written.path)")
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("photos export: \(asset.localIdentifier): \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The file name of the asset's original, with `ext`.
    private func name(of asset: PHAsset, ext: String) -> String {
        let original = PHAssetResource.assetResources(for: asset).first?.originalFilename ?? asset.localIdentifier
        let stem = (original as NSString).deletingPathExtension
        return "\(stem.isEmpty ? "export" : stem).\(ext)"
    }

    private func exportVideo(_ asset: PHAsset, to folder: URL) async throws -> URL {
        let options = PHVideoRequestOptions()
        options.version = original ? .original : .current
        options.isNetworkAccessAllowed = true
        let session = try await PHImageManager.default().exportSession(forVideo: asset, options: options, exportPreset: preset.avPreset)
        let type: AVFileType = preset == .passthrough && session.asset.tracks(withMediaType: .audio).contains { $0.codecName?.hasPrefix("pcm") == true } ? .mov : .mp4
        let output = folder.appendingPathComponent(name(of: asset, ext: type == .mov ? "mov" : "mp4"))
        session.shouldOptimizeForNetworkUse = true
        let showProgress = isatty(STDERR_FILENO) == 1
        let progress = Task {
            while !Task.isCancelled, showProgress {
                FileHandle.standardError.write(Data(String(format: "\r  %3.0f%%", session.progress * 100).utf8))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer {
            progress.cancel()
            if showProgress { FileHandle.standardError.write(Data("\r      \r".utf8)) }
        }
        do {
            try await session.export(to: output, as: type)
        } catch let error as AVError {
            throw CLIError(error.message)
        }
        return output
    }

    /// Originals in a bucket (or another remote store) are fetched: the command is the user
    /// asking for the file.
    private static let fetchingRemoteOriginals: PHAssetResourceRequestOptions = {
        let options = PHAssetResourceRequestOptions()
        options.isNetworkAccessAllowed = true
        return options
    }()

    private func exportPhoto(_ asset: PHAsset, to folder: URL) async throws -> URL {
        let resources = PHAssetResource.assetResources(for: asset)
        if original || !asset.hasAdjustments, let photo = resources.first(where: { $0.type == .photo }) ?? resources.first {
            let output = folder.appendingPathComponent(photo.originalFilename)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                PHAssetResourceManager.default().writeData(for: photo, toFile: output, options: Self.fetchingRemoteOriginals) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
            return output
        }
        let rendered = try require_(resources.first { $0.type == .fullSizePhoto }, "\(asset.localIdentifier) has no rendered edit")
        let output = folder.appendingPathComponent(name(of: asset, ext: (rendered.originalFilename as NSString).pathExtension))
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            PHAssetResourceManager.default().writeData(for: rendered, toFile: output, options: Self.fetchingRemoteOriginals) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
        return output
    }
}

/// The value, or a CLI error saying what is missing.
private func require_<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
    guard let value else { throw CLIError(message()) }
    return value
}
