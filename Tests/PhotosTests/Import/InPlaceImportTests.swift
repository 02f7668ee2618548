import Foundation
import Imaging
@testable import Photos
import PhotosTestSupport
import Testing

/// Originals referenced where they are (`PHAssetImporter.Options.referencesFiles`,
/// `PHAssetResourceCreationOptions.shouldReferenceFile`), and the duplicate check by size and
/// signature with its confirmation.
@Suite("Import in place and duplicate confirmation")
struct InPlaceImportTests {
    typealias Folder = PHAssetImporterTests.Folder

    static var inPlace: PHAssetImporter.Options {
        var options = PHAssetImporter.Options()
        options.referencesFiles = true
        return options
    }

    static func fileURL(_ asset: PHAsset, _ library: PHPhotoLibrary) -> URL? {
        library.withCurrent { PHAssetResource.assetResources(for: asset).first?.fileURL }
    }

    /// A JPEG of about 600 KB and a twin of the same size whose only difference is a byte in
    /// the middle of the compressed data: same size, same first and last 64 KiB.
    static func twins(in folder: Folder) throws -> (URL, URL) {
        let data = try TestImages.jpeg(width: 900, height: 700, quality: 95, noisy: true)
        #expect(data.count > 4 * 65_536, "large enough for a middle")
        var twin = [UInt8](data)
        twin[data.count / 2] ^= 0x01
        return (try folder.write(data, "a.jpg"), try folder.write(Data(twin), "b.jpg"))
    }

    @Test func referencedOriginalsStayWhereTheyAre() async throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let files = try (0..<3).map { try folder.photo("IMG_000\($0).JPG", seed: $0) }
        let report = PHAssetImporter(library: library, options: Self.inPlace).importFiles(at: [folder.url])
        #expect(report.imported.count == 3 && report.failures.isEmpty)
        #expect(temporary.originalFiles().isEmpty, "nothing copied into the library")
        #expect(temporary.temporaryFiles().isEmpty)
        let assets = PHAssetImporterTests.assets(library)
        let referenced = Set(assets.compactMap { Self.fileURL($0, library)?.path })
        #expect(referenced == Set(files.map(\.standardizedFileURL.path)))

        // Read through the resource manager like any original.
        let asset = try #require(assets.first)
        let resource = try #require(library.withCurrent { PHAssetResource.assetResources(for: asset).first })
        let data = try #require(Self.fileURL(asset, library)).path
        let written = temporary.scratch.appendingPathComponent("export.jpg")
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().writeData(for: resource, toFile: written, options: nil) { continuation.resume(returning: $0) }
        }
        #expect(failure == nil)
        #expect(try Data(contentsOf: written) == Data(contentsOf: URL(fileURLWithPath: data)))

        // Importing the folder again: the same files, found without reading them whole.
        let again = PHAssetImporter(library: library, options: Self.inPlace).importFiles(at: [folder.url])
        #expect(again.imported.isEmpty && again.duplicates.count == 3)
        // A copy elsewhere, imported by copying: a duplicate of the referenced asset (bytes compared).
        let other = try Folder(temporary, "backup")
        try FileManager.default.copyItem(at: files[1], to: other.url.appendingPathComponent("copy.jpg"))
        let copy = PHAssetImporter(library: library).importFiles(at: [other.url])
        #expect(copy.imported.isEmpty && copy.duplicates.count == 1)
        #expect(temporary.originalFiles().isEmpty)

        let check = try library.checkConsistency(verifyingContents: true)
        #expect(check.isConsistent, "\(check.problems)")
        #expect(check.fileCount == 3)
    }

    @Test func deletingAReferencedAssetNeverDeletesTheFile() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let file = try folder.photo("keep.jpg")
        let kept = try Data(contentsOf: file)
        #expect(PHAssetImporter(library: library, options: Self.inPlace).importFiles(at: [file]).imported.count == 1)
        let asset = try #require(PHAssetImporterTests.assets(library).first)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([asset] as NSArray) }
        #expect(PHAssetImporterTests.assets(library).isEmpty)
        #expect(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).count } == 0)
        #expect(try Data(contentsOf: file) == kept, "the user's file is untouched")
        // With the row gone, the file imports again as new.
        #expect(PHAssetImporter(library: library, options: Self.inPlace).importFiles(at: [file]).imported.count == 1)
    }

    @Test func checkReportsReferencedFilesThatMovedOrChanged() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let gone = try folder.photo("gone.jpg", seed: 1)
        let changed = try folder.photo("changed.jpg", seed: 2)
        #expect(PHAssetImporter(library: library, options: Self.inPlace).importFiles(at: [folder.url]).imported.count == 2)
        try FileManager.default.removeItem(at: gone)
        var bytes = [UInt8](try Data(contentsOf: changed))
        bytes[40] ^= 0xFF  // same size, other bytes at the head (inside the signature)
        try Data(bytes).write(to: changed)

        let quick = try library.checkConsistency()
        #expect(quick.problems.map(\.kind) == [.missingFile], "\(quick.problems)")
        #expect(quick.problems.first?.detail.contains("referenced original \(gone.standardizedFileURL.path)") == true)
        let full = try library.checkConsistency(verifyingContents: true)
        #expect(Set(full.problems.map(\.kind)) == [.missingFile, .contentMismatch], "\(full.problems)")
    }

    /// Same size and signature but other bytes: never called a duplicate, whether the library
    /// holds a copy (full hash compared), a referenced file (bytes compared) or the twin comes
    /// in the same import.
    @Test(arguments: [false, true])
    func aSignatureMatchIsConfirmedBeforeCallingADuplicate(inPlace: Bool) throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let first = try Folder(temporary, "first")
        let second = try Folder(temporary, "second")
        let (a, _) = try Self.twins(in: first)
        try FileManager.default.removeItem(at: first.url.appendingPathComponent("b.jpg"))
        let (_, b) = try Self.twins(in: second)
        try FileManager.default.removeItem(at: second.url.appendingPathComponent("a.jpg"))
        let options = inPlace ? Self.inPlace : PHAssetImporter.Options()
        #expect(PHAssetImporter(library: library, options: options).importFiles(at: [a]).imported.count == 1)
        let twin = PHAssetImporter(library: library, options: options).importFiles(at: [b])
        #expect(twin.imported.count == 1, "\(twin.items)")
        #expect(PHAssetImporter(library: library, options: options).importFiles(at: [a, b]).duplicates.count == 2)

        // In one import: twins (both imported) and a true copy (a duplicate of whichever came first).
        let both = try Folder(temporary, "both")
        let pair = try Self.twins(in: both)
        let copy = both.url.appendingPathComponent("c.jpg")
        try FileManager.default.copyItem(at: pair.0, to: copy)
        let together = PHAssetImporter(library: library, options: options).importFiles(at: [both.url])
        #expect(together.imported.count == 2 && together.duplicates.count == 1, "\(together.items)")
        #expect(Set(together.imported.flatMap(\.files)).contains(pair.1))
        if case .duplicateOfFile(let first) = together.duplicates.first?.outcome {
            #expect([pair.0, copy].contains(first))
        } else {
            Issue.record("not a duplicate of a file in the same import: \(together.duplicates)")
        }
        #expect(PHAssetImporterTests.assets(library).count == 4)
    }

    /// Rows from before signatures (and hashes) were kept: a same-sized file gets its signature
    /// computed and stored when it is checked against them.
    @Test func filesImportedByOlderVersionsAreStillFound() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let file = try folder.photo("old.jpg", seed: 5)
        #expect(PHAssetImporter(library: library).importFiles(at: [file]).imported.count == 1)
        try temporary.execute("UPDATE resource SET contentSignature = NULL, contentHash = NULL")

        let other = try Folder(temporary, "again")
        let copy = other.url.appendingPathComponent("renamed.jpg")
        try FileManager.default.copyItem(at: file, to: copy)
        #expect(PHAssetImporter(library: library, options: Self.inPlace).importFiles(at: [copy]).duplicates.count == 1)
        let stored = try temporary.texts("SELECT contentSignature FROM resource").joined()
        #expect(stored.count == 64, "signature filled: \(stored)")
    }

    @Test func aCreationRequestCanReferenceItsFile() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = try Folder(temporary)
        let file = try folder.photo("request.jpg")
        var identifier: String?
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.shouldReferenceFile = true
            options.shouldMoveFile = true  // referencing wins: the file stays
            request.addResource(with: .photo, fileURL: file, options: options)
            identifier = request.placeholderForCreatedAsset?.localIdentifier
        }
        let asset = try #require(PHAssetImporterTests.assets(library).first)
        #expect(asset.localIdentifier == identifier)
        #expect(Self.fileURL(asset, library)?.path == file.standardizedFileURL.path)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(temporary.originalFiles().isEmpty)
    }
}
