import Foundation
import Imaging
import Logging
import PhotosStore

#if canImport(Glibc)
    import Glibc
#endif

/// Turns a file into a staged resource: the one way files enter a library, whichever path
/// brings them: the importer's workers (`ImportPreparer`, for `photos import`) and creation
/// requests (`StagingArea`, for `addResource(with:fileURL:options:)`, data, and the server's
/// uploads).
///
/// A file takes these steps, each a method, before anything commits:
/// 1. ``probe(fileAt:)``: what it is, read from its header by Imaging's `MediaProbe`, which
///    also checks its structure: a damaged file (a JPEG's bogus Huffman table included) is
///    refused here with its reason, and nothing of it is written;
/// 2. ``signature(of:)``: its fingerprint (`ContentSignature`), by which
///    ``duplicate(of:signature:)`` looks it up among the library's files;
/// 3. ``stage(_:signature:placement:)``: into the process's staging folder (a copy hashed as
///    it is written, by `ContentHash.copyHashing`, or the file itself renamed there), or left
///    where it is to be referenced. ``stage(data:metadata:)`` writes bytes from memory there.
///
/// A step that fails leaves nothing of its own behind; the callers remove what earlier steps
/// staged, and word each failure their way.
struct ResourceStager: Sendable {
    let store: LibraryDatabase
    /// The person whose photos a duplicate is looked for among: another person's copy of the
    /// same file is no duplicate of theirs (nil: anyone's).
    let owner: Int64?
    /// Where a copy's date not kept is reported (the library's logger).
    let logger: Logger

    /// A file as probed: what it is, and its size and modification time (`stat`, which
    /// follows a link to its file: the importer's aliases of byte-named files are links).
    struct ProbedFile: Sendable {
        let url: URL
        let metadata: MediaMetadata
        let size: Int64
        let modified: Date?
    }

    /// Where a file's bytes go.
    enum Placement: Sendable {
        /// A copy in the staging folder, hashed as it is written; it keeps the source's
        /// modification time (so a date taken from it survives `photos repair`).
        case copy
        /// The file itself, renamed into the staging folder and read back for its hash; a
        /// copy when the rename fails (another file system).
        case move
        /// Left where it is, for the row to reference; a file reached through an alias of a
        /// byte-named file is linked among the originals instead (``ByteNamedFiles``).
        case reference
    }

    /// A step of ``stage(_:signature:placement:)`` or ``stage(data:metadata:)`` that failed.
    enum Failure: Error {
        /// No file could be made in the staging folder.
        case stagingFolder(StoreError)
        /// The bytes couldn't be copied, linked or written there.
        case writing(StoreError)
        /// The staged bytes couldn't be read back (a moved file's hash, written bytes'
        /// signature).
        case readingBack(StoreError)

        var message: String {
            switch self {
            case .stagingFolder(let error), .writing(let error), .readingBack(let error): error.message
            }
        }
    }

    /// A file staged.
    struct Staged: Sendable {
        let file: PreparedFile
        /// Whether it was renamed into the staging folder: gone from where it was until the
        /// change commits, or is undone by renaming it back.
        let renamed: Bool
    }

    /// Probes the file at `url`; throws `MediaProbe`'s errors (`.unreadable`,
    /// `.unsupportedFormat`, `.corrupt` with what was damaged and where), which name the file.
    func probe(fileAt url: URL) throws(ImagingError) -> ProbedFile {
        let metadata = try MediaProbe.probe(fileAt: url)
        let found = SafeFiles.stat(url)
        return ProbedFile(
            url: url, metadata: metadata, size: found?.size ?? 0, modified: found.map { Date(timeIntervalSince1970: $0.modified) })
    }

    /// The file's ``ContentSignature``.
    func signature(of file: ProbedFile) throws(StoreError) -> String {
        try ContentSignature.signature(ofFileAt: file.url, size: file.size)
    }

    /// The asset in the library that already holds the file's bytes (one outside Recently
    /// Deleted first), or `nil`.
    func duplicate(of file: ProbedFile, signature: String) throws(StoreError) -> ContentMatch? {
        let matches = try store.duplicates(of: ContentQuery(url: file.url, fileSize: file.size, signature: signature, owner: owner))
        return matches.first { !$0.isTrashed } ?? matches.first
    }

    /// In a person's library: another person's original in the library folder with the same
    /// bytes (checked by `LibraryDatabase.duplicates(of:)`: the same size, signature and hash),
    /// to link instead of copying. `nil` when there is none, it is referenced from outside the
    /// library, or it can't be looked up (then the file is copied: a lookup that fails costs
    /// only the space).
    private func sharedCopy(of file: ProbedFile, signature: String) -> (url: URL, hash: String)? {
        guard owner != nil else { return nil }
        let matches = logger.attempt(.notice, "look for another person's copy of \(file.url.path)") {
            try store.duplicates(of: ContentQuery(url: file.url, fileSize: file.size, signature: signature))
        }
        guard let match = matches?.first(where: { !$0.isTrashed && !LibraryLayout.isReferenced(path: $0.path) && !LibraryLayout.isRemote(path: $0.path) })
        else { return nil }
        let url = store.layout.url(forRelativePath: match.path)
        let hash = match.contentHash ?? logger.attempt(.notice, "hash \(url.path)") { try ContentHash.sha256(ofFileAt: url) }
        return hash.map { (url, $0) }
    }

    /// Puts a probed file where the commit finds it, as `placement` says.
    func stage(_ file: ProbedFile, signature: String, placement: Placement) throws(Failure) -> Staged {
        func prepared(staged: URL?, hash: String?, modified: Date? = file.modified) -> PreparedFile {
            PreparedFile(
                source: file.url, metadata: file.metadata, stagedFile: staged, fileSize: file.size, contentHash: hash,
                contentSignature: signature, fileModificationDate: modified)
        }
        if placement == .reference {
            guard let target = ByteNamedFiles.target(of: file.url) else { return Staged(file: prepared(staged: nil, hash: nil), renamed: false) }
            // In place, but a row's path can't hold a name that isn't UTF-8: the library keeps
            // a link with its bytes among the originals instead.
            let destination = try stagingURL(for: file.metadata)
            guard ByteNamedFiles.makeLink(at: destination, to: target) else {
                throw .writing(StoreError(.fileOperation, String(cString: strerror(errno))))
            }
            return Staged(file: prepared(staged: destination, hash: nil), renamed: false)
        }
        let destination = try stagingURL(for: file.metadata)
        if let shared = sharedCopy(of: file, signature: signature), link(shared.url.path, destination.path) == 0 {
            // Another person's original holds these bytes: the library keeps them once, two
            // names of one file (an original is never written after it is kept). A source to
            // move is removed after the commit, as when a move had to copy.
            return Staged(file: prepared(staged: destination, hash: shared.hash), renamed: false)
        }
        if placement == .move, rename(file.url.path, destination.path) == 0 {
            // Read back, from the page cache. Creation requests have never recorded a renamed
            // file's date (the source is gone once it is renamed).
            do throws(StoreError) {
                return Staged(file: prepared(staged: destination, hash: try ContentHash.sha256(ofFileAt: destination), modified: nil), renamed: true)
            } catch {
                _ = rename(destination.path, file.url.path)
                throw .readingBack(error)
            }
        }
        let hash: String
        do throws(StoreError) {
            hash = try ContentHash.copyHashing(from: file.url, to: destination)
        } catch {
            throw .writing(error)
        }
        if let modified = file.modified {
            logger.attempt(.notice, "give the copy of \(file.url.path) its modification date") {
                try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: destination.path)
            }
        }
        return Staged(file: prepared(staged: destination, hash: hash), renamed: false)
    }

    /// Writes bytes probed from memory into the staging folder, with their SHA-256 and
    /// signature. The prepared file's `source` is its staged copy (the bytes came from no file).
    func stage(data: Data, metadata: MediaMetadata) throws(Failure) -> PreparedFile {
        let destination = try stagingURL(for: metadata)
        let hash = ContentHash.sha256(of: data)
        do {
            try data.write(to: destination)
        } catch {
            // try?: the staging folder is this process's, and the next open of the library
            // removes it; the error thrown is the report.
            try? FileManager.default.removeItem(at: destination)
            throw .writing(StoreError(.fileOperation, error.localizedDescription))
        }
        let size = Int64(data.count)
        let signature: String
        do throws(StoreError) {
            signature = try ContentSignature.signature(ofFileAt: destination, size: size)
        } catch {
            // try?: as above.
            try? FileManager.default.removeItem(at: destination)
            throw .readingBack(error)
        }
        return PreparedFile(
            source: destination, metadata: metadata, stagedFile: destination, fileSize: size, contentHash: hash,
            contentSignature: signature, fileModificationDate: nil)
    }

    /// A new path in the staging folder, with the extension of `metadata`'s format.
    private func stagingURL(for metadata: MediaMetadata) throws(Failure) -> URL {
        do throws(StoreError) {
            return try store.makeStagingURL(fileExtension: metadata.format.preferredFilenameExtension)
        } catch {
            throw .stagingFolder(error)
        }
    }
}

/// A file probed, fingerprinted and staged by ``ResourceStager`` (or left in place, to be
/// referenced), ready to be added to a creation request without reading it again.
struct PreparedFile: Sendable {
    /// Where it came from: the file, a remote original's URL, or for bytes from memory their
    /// staged copy.
    let source: URL
    let metadata: MediaMetadata
    /// The copy in staging; nil when `source` is referenced in place.
    let stagedFile: URL?
    let fileSize: Int64
    /// SHA-256 of the whole file; nil when referenced (only the signature was read).
    let contentHash: String?
    /// ``ContentSignature`` of the bytes; nil only for a remote original whose download
    /// couldn't be read back.
    let contentSignature: String?
    let fileModificationDate: Date?
}
