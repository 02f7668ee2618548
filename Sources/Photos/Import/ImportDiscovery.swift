import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finds the files an import looks at and groups those that may belong to one asset.
///
/// Named files are taken as they are; folders are searched recursively for known photo and
/// video extensions, skipping hidden files and following symbolic links, each real folder
/// once (a link back up the tree is noticed, not followed forever). Files sharing a folder and
/// a name without extension (`IMG_0001.HEIC`, `IMG_0001.MOV`, `IMG_0001.DNG`) form one group;
/// whether they become one asset is decided once they are read.
struct ImportDiscovery {
    static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "webp", "heic", "heif", "hif", "avif", "gif", "tif", "tiff", "jxl",
        "cr2", "cr3", "nef", "nrw", "arw", "dng", "raf", "orf", "rw2",
    ]
    static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "3gp", "qt"]

    /// Files that may make one asset, in a repeatable order.
    struct Group: Sendable {
        var files: [URL]
        /// Their total size, from the walk's `stat`.
        var bytes: Int64 = 0
    }

    private(set) var groups: [Group] = []
    /// Paths that could not be searched, with the reason.
    private(set) var problems: [(url: URL, reason: String)] = []
    private(set) var totalBytes: Int64 = 0
    private var fileCount = 0
    var totalFiles: Int { fileCount }

    private var visitedFolders = Set<FileIdentity>()
    private var seenFiles = Set<FileIdentity>()

    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    init(_ urls: [URL]) {
        for url in urls { add(url.standardizedFileURL, named: true) }
    }

    private static func identity(_ path: String) -> Result<(FileIdentity, stat), Errno> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(Errno(code: errno)) }
        return .success((FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), info))
    }

    private struct Errno: Error {
        var code: Int32
    }

    private mutating func add(_ url: URL, named: Bool) {
        let identity: FileIdentity, info: stat
        switch Self.identity(url.path) {
        case .success(let found):
            (identity, info) = found
        case .failure(let error):
            // Unnamed files are reported only when they look like media (or loop).
            guard named || error.code == ELOOP || Self.isMedia(url) else { return }
            let reason = error.code == ELOOP ? "a loop of symbolic links" : String(cString: strerror(error.code))
            problems.append((url, "can't be read: \(reason)"))
            return
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            guard visitedFolders.insert(identity).inserted else {
                problems.append((url, "skipped: a link to a folder already searched (a loop of symbolic links?)"))
                return
            }
            addFolder(url)
        } else if info.st_mode & S_IFMT == S_IFREG {
            guard named || Self.isMedia(url) else { return }
            // The same file reached twice (a hard or symbolic link) is imported once.
            guard seenFiles.insert(identity).inserted else { return }
            fileCount += 1
            totalBytes += Int64(info.st_size)
            pending.append((url, Int64(info.st_size)))
        } else if named {
            problems.append((url, "is not a regular file or folder"))
        }
    }

    /// Files found, with their sizes, before grouping.
    private var pending: [(url: URL, size: Int64)] = []

    /// Adds a folder's files; names that are not valid UTF-8 are reached through an alias
    /// (``ByteNamedFiles``).
    private mutating func addFolder(_ folder: URL) {
        let names: [[UInt8]]
        do {
            names = try ByteNamedFiles.entries(ofFolderAt: folder.path)
        } catch {
            problems.append((folder, "can't be searched: \(error.localizedDescription)"))
            return
        }
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where name.first != UInt8(ascii: ".") {
            if let text = String(validating: name, as: UTF8.self) {
                add(folder.appendingPathComponent(text), named: false)
            } else if let alias = ByteNamedFiles.url(forPath: Array(folder.path.utf8) + [UInt8(ascii: "/")] + name) {
                add(alias, named: false)
            } else {
                problems.append((folder.appendingPathComponent(String(decoding: name, as: UTF8.self)), "can't be read: its name is not UTF-8 and no link to it could be made"))
            }
        }
    }

    static func isMedia(_ url: URL) -> Bool {
        let ext = url.pathExtension.lowercased()
        return photoExtensions.contains(ext) || videoExtensions.contains(ext)
    }

    static func isVideo(_ url: URL) -> Bool {
        videoExtensions.contains(url.pathExtension.lowercased())
    }

    /// Groups the files found by folder and name without extension, keeping discovery order.
    mutating func makeGroups() {
        /// A folder by number and a name without extension, lowercased: a short name fits in
        /// the key itself, where a whole path took ~100 bytes a file (a million files: ~100 MB).
        struct Key: Hashable {
            var folder: Int32
            var stem: String
        }
        var folders: [String: Int32] = [:]
        var index: [Key: Int] = [:]
        index.reserveCapacity(pending.count)
        groups.reserveCapacity(pending.count)
        for (url, size) in pending {
            let folderPath = url.deletingLastPathComponent().path
            let folder: Int32
            if let known = folders[folderPath] {
                folder = known
            } else {
                folder = Int32(truncatingIfNeeded: folders.count)
                folders[folderPath] = folder
            }
            let key = Key(folder: folder, stem: url.deletingPathExtension().lastPathComponent.lowercased())
            if let at = index[key] {
                groups[at].files.append(url)
                groups[at].bytes += size
            } else {
                index[key] = groups.count
                groups.append(Group(files: [url], bytes: size))
            }
        }
        pending = []
    }
}
