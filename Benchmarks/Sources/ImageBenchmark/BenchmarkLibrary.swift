import BenchmarkSupport
import Foundation
import Photos

/// A fresh library holding the benchmark photos, imported with the public ``PHAssetImporter``
/// (default options: originals copied in, no thumbnails, so every image request renders), and
/// deleted when the benchmark ends.
struct BenchmarkLibrary {
    let folder: URL
    let library: PHPhotoLibrary
    /// Every imported photo, in the order of their file names.
    let assets: [PHAsset]
    let importSeconds: Double

    /// Imports every photo in `photos` into a new library under `work`. Fails unless each file
    /// in the folder became one image asset.
    static func importing(_ photos: URL, into work: URL) throws -> BenchmarkLibrary {
        let files = try photoFiles(in: photos)
        guard !files.isEmpty else { throw BenchmarkFailure("no photos (\(photoExtensions.sorted().joined(separator: ", "))) in \(photos.path)") }
        let folder = work.appendingPathComponent("image-benchmark-\(getpid()).photoslibrary", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let library = try PHPhotoLibrary(url: folder)

        let start = monotonicNanos()
        let report = PHAssetImporter(library: library).importFiles(at: [photos])
        let seconds = Double(monotonicNanos() - start) / 1e9
        if let failure = report.failures.first {
            throw BenchmarkFailure("\(report.failures.count) files failed to import, e.g. \(failure.files.first?.path ?? "?"): \(failure.outcome)")
        }
        guard report.imported.count == files.count else {
            throw BenchmarkFailure(
                "imported \(report.imported.count) assets from \(files.count) files (\(report.duplicates.count) duplicates)")
        }

        // Each asset by its file's name, so the requests go in the same order as the peers'
        // command lines (`ls *.jpg`).
        var identifiers: [String: String] = [:]
        for item in report.imported {
            if case .imported(let identifier, _) = item.outcome, let file = item.files.first {
                identifiers[file.lastPathComponent] = identifier
            }
        }
        let ordered = files.compactMap { identifiers[$0.lastPathComponent] }
        let assets = library.withCurrent { () -> [PHAsset] in
            let result = PHAsset.fetchAssets(withLocalIdentifiers: ordered, options: nil)
            let byIdentifier = Dictionary(
                (0..<result.count).map { result.object(at: $0) }.map { ($0.localIdentifier, $0) },
                uniquingKeysWith: { first, _ in first })
            return ordered.compactMap { byIdentifier[$0] }
        }
        guard assets.count == files.count, assets.allSatisfy({ $0.mediaType == .image }) else {
            throw BenchmarkFailure("fetched \(assets.count) image assets for \(files.count) files")
        }
        return BenchmarkLibrary(folder: folder, library: library, assets: assets, importSeconds: seconds)
    }

    /// The file name extensions of the benchmark's sets: JPEG, HEIC, camera RAW.
    static let photoExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif", "hif", "cr2", "nef", "dng", "raf", "orf", "arw", "rw2"]

    /// The photos (``photoExtensions``) directly in `folder`, sorted by name (as the shell sorts
    /// a glob in the C locale).
    static func photoFiles(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { photoExtensions.contains($0.pathExtension.lowercased()) && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { Array($0.lastPathComponent.utf8).lexicographicallyPrecedes(Array($1.lastPathComponent.utf8)) }
    }

    /// Total bytes of the library's originals (what the cold run reads).
    func originalBytes() -> Int64 {
        let originals = folder.appendingPathComponent("originals", isDirectory: true)
        guard let walker = FileManager.default.enumerator(at: originals, includingPropertiesForKeys: [.fileSizeKey]) else { return 0 }
        var total: Int64 = 0
        for case let url as URL in walker {
            total += Int64((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
        return total
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
