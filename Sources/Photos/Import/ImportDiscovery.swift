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

    /// Files that may make one asset, in a repeatable order: entries of ``files``.
    struct Group: Sendable {
        /// Where the group's entries start in ``ImportDiscovery/members``, and how many.
        var start: Int32
        var count: Int32
        /// Their total size, from the walk's `stat`.
        var bytes: Int64 = 0

        /// Where its entries are in ``ImportDiscovery/members``.
        var range: Range<Int> { Int(start)..<Int(start + count) }
    }

    private(set) var groups: [Group] = []
    /// The groups' entries, group after group.
    private(set) var members: [Int32] = []
    /// Every file found, once ``makeGroups()`` has run.
    private(set) var files = ImportFiles()

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

    /// `folder` and `name`: where a walked file was found (kept as a folder number and a short
    /// name, its URL made again when read); a named file or an alias keeps its URL.
    private mutating func add(_ url: URL, named: Bool, folder: Int32? = nil, name: String = "") {
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
            if let folder, !named {
                builder.add(name: name, folder: folder, size: Int64(info.st_size))
            } else {
                builder.add(exactly: url, size: Int64(info.st_size))
            }
        } else if named {
            problems.append((url, "is not a regular file or folder"))
        }
    }

    /// Files found, before grouping.
    private var builder = ImportFiles.Builder()

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
        let number = builder.add(folder: folder)
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where name.first != UInt8(ascii: ".") {
            if let text = String(validating: name, as: UTF8.self) {
                add(folder.appendingPathComponent(text), named: false, folder: number, name: text)
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
        files = builder.finish()
        builder = ImportFiles.Builder()
        var groupOf = [Int32](repeating: 0, count: files.count)
        var counts: [Int32] = []
        var index: [Key: Int32] = [:]
        index.reserveCapacity(files.count)
        for entry in 0..<Int32(files.count) {
            let key = Key(folder: files.folderNumber(of: entry), stem: files.stem(of: entry))
            if let at = index[key] {
                groupOf[Int(entry)] = at
                counts[Int(at)] += 1
            } else {
                let at = Int32(counts.count)
                index[key] = at
                groupOf[Int(entry)] = at
                counts.append(1)
            }
        }
        index = [:]
        // Entries in group order (a counting sort: each group's entries stay in discovery order).
        groups.reserveCapacity(counts.count)
        var start: Int32 = 0
        for count in counts {
            groups.append(Group(start: start, count: 0))
            start += count
        }
        members = [Int32](repeating: 0, count: files.count)
        let sizes = files.sizes
        for entry in 0..<Int32(files.count) {
            let group = Int(groupOf[Int(entry)])
            members[Int(groups[group].start + groups[group].count)] = entry
            groups[group].count += 1
            groups[group].bytes += sizes[Int(entry)]
        }
    }
}

/// The files an import found, compactly: a folder's URL once, and for each file its folder's
/// number and its name (a short name is stored inline: `IMG_0001.JPG` takes no allocation).
/// A URL takes ~450 bytes here, so a million files kept as URLs took ~450 MB; these take ~40.
/// Each file's URL is made again when it is read or reported.
struct ImportFiles: Sendable {
    private var folders: [URL] = []
    /// Their paths, for ``path(_:)`` without making a URL.
    private var folderPaths: [String] = []
    private var folderOf: [Int32] = []
    private var names: [String] = []
    /// Files whose URL is kept as it was given (named on the command line, aliases of names
    /// that aren't UTF-8): few.
    private var exact: [Int32: URL] = [:]
    fileprivate(set) var sizes: [Int64] = []

    var count: Int { names.count }

    func url(_ entry: Int32) -> URL {
        if let url = exact[entry] { return url }
        return folders[Int(folderOf[Int(entry)])].appendingPathComponent(names[Int(entry)])
    }

    func urls(_ entries: some Sequence<Int32>) -> [URL] { entries.map(url) }

    /// `url(entry).path`, without making the URL (~450 bytes and ~1 µs each).
    func path(_ entry: Int32) -> String {
        if let url = exact[entry] { return url.path }
        let folder = folderPaths[Int(folderOf[Int(entry)])]
        return folder.hasSuffix("/") ? folder + names[Int(entry)] : folder + "/" + names[Int(entry)]
    }

    /// Whether the entry is a file as given (named, or an alias), not one the walk found.
    func isExact(_ entry: Int32) -> Bool { exact[entry] != nil }

    /// Whether two walked files share a folder (their order is then their names').
    func sameFolder(_ a: Int32, _ b: Int32) -> Bool {
        folderOf[Int(a)] == folderOf[Int(b)] && exact[a] == nil && exact[b] == nil
    }

    /// Path order of two files of one folder.
    func precedes(_ a: Int32, _ b: Int32) -> Bool { names[Int(a)] < names[Int(b)] }

    /// The folder grouping keys on: the number of the folder the file is in (a file named on
    /// its own shares its folder's number with the walk's files there).
    fileprivate func folderNumber(of entry: Int32) -> Int32 { folderOf[Int(entry)] }

    fileprivate func stem(of entry: Int32) -> String {
        if let url = exact[entry] { return url.deletingPathExtension().lastPathComponent.lowercased() }
        let name = names[Int(entry)]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name.lowercased() }
        return name[..<dot].lowercased()
    }

    struct Builder {
        private var files = ImportFiles()
        private var folderNumbers: [String: Int32] = [:]

        /// Numbers a folder whose files are added next.
        mutating func add(folder: URL) -> Int32 {
            number(ofFolder: folder.path, url: folder)
        }

        private mutating func number(ofFolder path: String, url: URL) -> Int32 {
            if let known = folderNumbers[path] { return known }
            let number = Int32(files.folders.count)
            folderNumbers[path] = number
            files.folders.append(url)
            files.folderPaths.append(path)
            return number
        }

        mutating func add(name: String, folder: Int32, size: Int64) {
            files.folderOf.append(folder)
            files.names.append(name)
            files.sizes.append(size)
        }

        mutating func add(exactly url: URL, size: Int64) {
            let parent = url.deletingLastPathComponent()
            let folder = number(ofFolder: parent.path, url: parent)
            files.exact[Int32(files.names.count)] = url
            files.folderOf.append(folder)
            files.names.append("")
            files.sizes.append(size)
        }

        func finish() -> ImportFiles { files }
    }
}
