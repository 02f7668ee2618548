import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite("Library consistency check")
struct LibraryCheckTests {
    @Test func findsMissingChangedAndStrayFiles() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let folder = temporary.scratch.appendingPathComponent("in", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<4 {
            try TestImages.writeJPEG(to: folder.appendingPathComponent("p\(index).jpg"), width: 40 + index, height: 30, noisy: true)
        }
        #expect(PHAssetImporter(library: library).importFiles(at: [folder]).imported.count == 4)
        let clean = try library.checkConsistency(verifyingContents: true)
        #expect(clean.isConsistent, "\(clean.problems)")
        #expect(clean.assetCount == 4 && clean.fileCount == 4)
        #expect(clean.bytesVerified > 0)

        let originals = temporary.originalFiles().sorted().map { temporary.url.appendingPathComponent("originals").appendingPathComponent($0) }
        #expect(originals.count == 4)
        try FileManager.default.removeItem(at: originals[0])
        try (Data(contentsOf: originals[1]) + Data([0])).write(to: originals[1])
        var bytes = [UInt8](try Data(contentsOf: originals[2]))
        bytes[bytes.count / 2] ^= 0xFF  // same size, other bytes
        try Data(bytes).write(to: originals[2])
        let stray = temporary.url.appendingPathComponent("originals/0/stray.jpg")
        try FileManager.default.createDirectory(at: stray.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: stray)

        let quick = try library.checkConsistency()
        #expect(Set(quick.problems.map(\.kind)) == [.missingFile, .sizeMismatch, .orphanFile], "\(quick.problems)")
        #expect(quick.problems.first { $0.kind == .orphanFile }?.detail.contains("originals/0/stray.jpg") == true)
        let full = try library.checkConsistency(verifyingContents: true)
        #expect(Set(full.problems.map(\.kind)) == [.missingFile, .sizeMismatch, .orphanFile, .contentMismatch], "\(full.problems)")
        #expect(full.problems.filter { $0.kind == .contentMismatch }.count == 1)
    }

    @Test func anAssetWithoutFilesIsReported() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset()])
        let report = try temporary.library.checkConsistency()
        #expect(report.problems.map(\.kind) == [.assetWithoutFile])
        #expect(report.problems.first?.detail.contains(String(ids[0].prefix(36))) == true)
    }
}
