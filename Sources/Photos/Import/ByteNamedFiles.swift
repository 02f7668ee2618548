import Foundation
import PhotosLocking

#if canImport(Glibc)
    import Glibc
#endif

/// Files whose names are not valid UTF-8.
///
/// A Linux file name is bytes; a Swift `String`, and so Foundation's `URL` and `FileManager`,
/// can only hold valid UTF-8, and turn other bytes into U+FFFD: the file can then no longer be
/// found (`latin1-\xe9\xff.jpg` becomes `latin1-��.jpg`, "No such file"). The import reaches
/// such a file through an *alias*: a symbolic link with a UTF-8 name in a folder of this
/// process's, made with the name's bytes by `symlink(2)`, which every later step (probing,
/// hashing, copying, rendering) reads through like the file itself. Its `originalFilename` is
/// the name with U+FFFD where bytes were not text. Imported in place, the library keeps a
/// link with those bytes among its originals instead of an absolute path (which a `String`
/// column can't hold).
package enum ByteNamedFiles {
    struct Alias {
        let target: [UInt8]
        let displayName: String
    }

    private static let aliases = Mutex<[String: Alias]>([:])

    /// The folder of this process's aliases.
    static var folder: URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("photokit-byte-names-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    }

    /// Whether `bytes` are valid UTF-8.
    static func isText(_ bytes: some Collection<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// A URL that reaches the file at the absolute path `bytes`: the path itself when it is
    /// valid UTF-8, else an alias. `nil` when the alias can't be made.
    package static func url(forPath bytes: [UInt8]) -> URL? {
        if let text = String(validating: bytes, as: UTF8.self) { return URL(fileURLWithPath: text) }
        let name = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).last.map(Array.init) ?? bytes
        let displayName = String(decoding: name, as: UTF8.self)
        let ext = (displayName as NSString).pathExtension
        let safeExtension = ext.unicodeScalars.allSatisfy { $0.isASCII && $0 != "\u{FFFD}" } ? ext : ""
        // try?: a folder that can't be made fails the link below, and the nil returned says so.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent(UUID().uuidString + (safeExtension.isEmpty ? "" : ".\(safeExtension)"))
        guard makeLink(at: link, to: bytes) else { return nil }
        aliases.withLock { $0[link.path] = Alias(target: bytes, displayName: displayName) }
        return link
    }

    /// The names in the folder at `path`, as bytes, without `.` and `..`.
    static func entries(ofFolderAt path: String) throws(CocoaError) -> [[UInt8]] {
        guard let directory = opendir(path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        // The name is read in place, up to its NUL: `entry.pointee` would copy a whole `dirent`
        // (280 bytes), while glibc's record is only `d_reclen` long, so the copy of the last
        // entry of its buffer could read past the end of the mapping (a crash seen importing
        // folders of 1,000 files).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let start = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            let name = Array(UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self))))
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
        }
        return names
    }

    /// The file's name for people: an alias's original name (U+FFFD where bytes were not
    /// text), else the URL's last component.
    package static func displayName(of url: URL) -> String {
        aliases.withLock { $0[url.path]?.displayName } ?? url.lastPathComponent
    }

    /// The path for people: an alias's original path (U+FFFD where bytes were not text).
    package static func displayPath(of url: URL) -> String {
        aliases.withLock { $0[url.path].map { String(decoding: $0.target, as: UTF8.self) } } ?? url.path
    }

    /// The path bytes an alias stands for; `nil` for any other URL.
    static func target(of url: URL) -> [UInt8]? {
        aliases.withLock { $0[url.path]?.target }
    }

    /// Makes a symbolic link at `link` to the path `target` (bytes).
    static func makeLink(at link: URL, to target: [UInt8]) -> Bool {
        (target + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { symlink($0.baseAddress!, link.path) == 0 }
        }
    }
}
