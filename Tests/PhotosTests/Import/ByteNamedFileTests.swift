import Foundation
@testable import Photos
import PhotosTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// File names are bytes on Linux: a good photo whose name is not valid UTF-8 imports, by copy
/// and in place, and keeps its name (with U+FFFD where text is needed).
@Suite("Import of files whose names are not UTF-8")
struct ByteNamedFileTests {
    /// `latin1-\xe9\xff.jpg` in a folder of its own, written with POSIX calls (a `String`
    /// can't hold the name).
    static func latin1Photo(in temporary: TemporaryLibrary) throws -> (folder: URL, path: [UInt8]) {
        let folder = temporary.scratch.appendingPathComponent("latin1-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = try TestImages.jpeg(width: 320, height: 240, quality: 90, noisy: true)
        let path = Array(folder.path.utf8) + Array("/latin1-".utf8) + [0xE9, 0xFF] + Array(".jpg".utf8)
        let descriptor = (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        return (folder, path)
    }

    static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
        }
    }

    @Test(arguments: [false, true])
    func importsAndKeepsItsName(inPlace: Bool) throws {
        let temporary = try TemporaryLibrary()
        let (folder, path) = try Self.latin1Photo(in: temporary)
        var options = PHAssetImporter.Options()
        options.referencesFiles = inPlace
        let report = PHAssetImporter(library: temporary.library, options: options).importFiles(at: [folder])
        #expect(report.imported.count == 1, "\(report.failures.map(\.outcome))")
        #expect(report.failures.isEmpty && report.notReached.isEmpty)

        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        let resource = try #require(temporary.library.withCurrent { PHAssetResource.assetResources(for: asset).first })
        #expect(resource.originalFilename == "latin1-\u{FFFD}\u{FFFD}.jpg")
        #expect(asset.pixelWidth == 320 && asset.pixelHeight == 240)
        // It can be shown, and the library is whole.
        let image = PHImageManagerTests.request(asset, CGSize(width: 100, height: 100)) { $0.deliveryMode = .highQualityFormat }
        #expect(image.first?.image != nil)
        let check = try temporary.library.checkConsistency(verifyingContents: true)
        #expect(check.isConsistent, "\(check.problems)")
        if inPlace {
            // The file stays where it is, reached by a link with its bytes.
            #expect(temporary.originalFiles().count == 1)
            let link = temporary.url.appendingPathComponent("originals").appendingPathComponent(temporary.originalFiles()[0])
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
            #expect(target.hasSuffix("latin1-\u{FFFD}\u{FFFD}.jpg"))
        }
        #expect(Self.exists(path), "the source is left where it was")
        // Imported again: a duplicate, not a second asset.
        let again = PHAssetImporter(library: temporary.library, options: options).importFiles(at: [folder])
        #expect(again.imported.isEmpty && again.duplicates.count == 1)
    }

    /// Names of every length a file system allows (1 to 255 bytes, some not UTF-8) come back
    /// whole from the folder listing, which reads each `dirent`'s name in place (copying whole
    /// `dirent`s read past glibc's buffer: a crash importing folders of 1,000 files).
    @Test func aFolderListingReadsNamesOfEveryLength() throws {
        let temporary = try TemporaryLibrary()
        let folder = temporary.scratch.appendingPathComponent("lengths", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var made = Set<[UInt8]>()
        for length in 1...255 {
            var name = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            if length % 7 == 0 { name[length / 2] = 0xE9 }  // not UTF-8
            if name == [UInt8(ascii: ".")] { continue }
            let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
            let descriptor = (path + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
            }
            try #require(descriptor >= 0, "\(length)")
            close(descriptor)
            made.insert(name)
        }
        let listed = try ByteNamedFiles.entries(ofFolderAt: folder.path)
        #expect(listed.count == made.count)
        #expect(Set(listed) == made)
    }
}
