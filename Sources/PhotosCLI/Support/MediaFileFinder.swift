import Foundation

/// The files an import looks at.
enum MediaFileFinder {
    static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "webp", "heic", "heif", "hif", "avif", "gif", "tif", "tiff", "jxl",
        "cr2", "cr3", "nef", "arw", "dng", "raf", "orf", "rw2",
    ]
    static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "3gp"]

    static func isVideo(_ file: URL) -> Bool {
        videoExtensions.contains(file.pathExtension.lowercased())
    }

    /// Named files as they are; folders searched recursively for known photo and video
    /// extensions, skipping hidden files. Sorted, so imports are repeatable.
    static func files(in paths: [String]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw CLIError("\(path): no such file or folder")
            }
            guard isDirectory.boolValue else {
                files.append(url)
                continue
            }
            let enumerator = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            var found: [URL] = []
            while let next = enumerator?.nextObject() as? URL {
                let ext = next.pathExtension.lowercased()
                guard photoExtensions.contains(ext) || videoExtensions.contains(ext) else { continue }
                if (try? next.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(next) }
            }
            files += found.sorted { $0.path < $1.path }
        }
        return files
    }
}
