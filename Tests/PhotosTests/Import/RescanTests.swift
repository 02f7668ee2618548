import Foundation
@testable import Photos
@testable import PhotosStore
import PhotosTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Importing a folder again (issue 19, aim 5): originals referenced in place whose path, size
/// and modification time are unchanged are known by `stat` and one index probe, without reading
/// them; anything else takes the full path (probe, signature, duplicate check).
@Suite("Importing a referenced folder again")
struct RescanTests {
    typealias Folder = PHAssetImporterTests.Folder

    static func modificationTime(_ url: URL) throws -> timespec {
        var info = stat()
        try #require(stat(url.path, &info) == 0)
        return info.st_mtim
    }

    /// Sets the file's access and modification times to `time`, to the nanosecond.
    static func setModificationTime(_ url: URL, _ time: timespec) throws {
        var times = [time, time]
        let result = utimensat(AT_FDCWD, url.path, &times, 0)
        try #require(result == 0)
    }

    /// Rewrites the file's first bytes (same size), then puts its modification time back.
    static func changeBytesKeepingTime(_ url: URL) throws {
        let time = try modificationTime(url)
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes[bytes.count - 20] ^= 0x01  // in the compressed data, before the end marker
        try Data(bytes).write(to: url)
        try setModificationTime(url, time)
    }

    @Test func unchangedFilesAreKnownWithoutReadingThem() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let files = try (0..<3).map { try folder.photo("IMG_000\($0).JPG", seed: $0) }
        #expect(PHAssetImporter(library: library, options: InPlaceImportTests.inPlace).importFiles(at: [folder.url]).imported.count == 3)

        // Different bytes behind the same path, size and time: only a read could tell, and
        // none is made (a content check would find a new photo and import it).
        try Self.changeBytesKeepingTime(files[1])
        let again = PHAssetImporter(library: library, options: InPlaceImportTests.inPlace).importFiles(at: [folder.url])
        #expect(again.imported.isEmpty)
        #expect(again.duplicates.count == 3)
        #expect(PHAssetImporterTests.assets(library).count == 3)
    }

    /// A new modification time sends the file through the content check, which still finds it
    /// (the very same file, referenced), and so does a row made before times were recorded.
    @Test func aChangedTimeOrNoRecordedTimeReadsTheFile() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let files = try (0..<2).map { try folder.photo("IMG_000\($0).JPG", seed: $0) }
        #expect(PHAssetImporter(library: library, options: InPlaceImportTests.inPlace).importFiles(at: [folder.url]).imported.count == 2)
        let recorded = try #require(try library.store.referencedFile(atPath: files[0].path))
        #expect(recorded.fileModificationDate != nil)

        try Self.setModificationTime(files[0], timespec(tv_sec: 1_600_000_000, tv_nsec: 5))
        try temporary.execute("UPDATE resource SET fileModificationDate = NULL WHERE path = \(files[1].path)")
        let again = PHAssetImporter(library: library, options: InPlaceImportTests.inPlace).importFiles(at: [folder.url])
        #expect(again.imported.isEmpty)
        #expect(again.duplicates.count == 2)
        #expect(again.failures.isEmpty)
    }

    /// Files copied into the library are not referenced: the same folder imported again by
    /// copying is checked by content, as before.
    @Test func copiedFilesAreStillCheckedByContent() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let file = try folder.photo("IMG_0001.JPG")
        #expect(PHAssetImporter(library: library).importFiles(at: [folder.url]).imported.count == 1)
        #expect(try library.store.referencedFile(atPath: file.path) == nil)
        try Self.changeBytesKeepingTime(file)
        let again = PHAssetImporter(library: library).importFiles(at: [folder.url])
        #expect(again.imported.count == 1, "changed bytes, found by reading them: \(again.items.map(\.outcome))")
    }
}
