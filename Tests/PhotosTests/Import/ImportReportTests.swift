import Foundation
@testable import Photos
import PhotosTestSupport
import Testing

/// The report keeps a compact record a file and makes its items and URLs when read (issue 19:
/// a million-file import). What it hands out must be what a walk keeping URLs handed out.
@Suite("Import report")
struct ImportReportTests {
    typealias Folder = PHAssetImporterTests.Folder

    @Test func itemsAreTheFilesFoundInPathOrderWithTheirOutcomes() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let card = try Folder(temporary, "card")
        // Names whose walk order is not their path order ("b" is searched before "b.jpg", but
        // "b.jpg" < "b/c.jpg"), names with spaces and accents, one unreadable file.
        var expected = [
            try card.photo("b.jpg", seed: 1), try card.photo("b/c.jpg", seed: 2), try card.photo("a b.jpg", seed: 3),
            try card.photo("Été.jpg", seed: 4), try card.photo("z/y/x.jpg", seed: 5),
        ]
        let broken = try card.write(Data("not a photo".utf8), "broken.jpg")
        let copy = try card.write(try Data(contentsOf: expected[0]), "copy of b.jpg")
        let other = try Folder(temporary, "other")
        let named = try other.photo("named.jpg", seed: 6)  // named on its own
        expected.append(named)

        let report = PHAssetImporter(library: library).importFiles(at: [card.url, named])
        let all = expected + [broken, copy]
        #expect(report.items.map { $0.files[0].path } == all.map(\.path).sorted())
        #expect(Set(report.items.flatMap(\.files)) == Set(all), "the same URLs a walk makes")
        #expect(report.items.count == 8 && report.imported.count == 6 && report.failures.count == 1)
        #expect(report.failures.first?.files == [broken])
        // Of two identical files in one import, the one a worker claims first is kept (files
        // are read several at once): either may be the duplicate, of the other.
        let twins = Set([expected[0], copy])
        #expect(report.duplicates.count == 1 && report.duplicates.allSatisfy { $0.files.count == 1 && twins.contains($0.files[0]) })
        if let duplicate = report.duplicates.first, case .duplicateOfFile(let first) = duplicate.outcome {
            #expect(twins.contains(first) && first != duplicate.files[0])
        } else {
            Issue.record("one of b.jpg and its copy is reported as a duplicate of the other: \(String(describing: report.duplicates.first?.outcome))")
        }
        let identifiers = library.withCurrent { Set(PHAsset.fetchAssets(with: nil).map(\.localIdentifier)) }
        let reported = report.imported.compactMap { item -> String? in
            if case .imported(let identifier, .image) = item.outcome { identifier } else { nil }
        }
        #expect(Set(reported) == identifiers && reported.count == 6)
        #expect(report.notReached.isEmpty && !report.wasCancelled)
    }

    @Test func pathsMadeWithoutURLsAreTheURLsPaths() throws {
        let temporary = try TemporaryLibrary()
        let card = try Folder(temporary)
        for name in ["a.jpg", "a b/c.JPG", "Été/ça.jpg", "z/y/x.jpeg"] { try card.photo(name) }
        let loose = try Folder(temporary, "loose").photo("named.jpg")
        var discovery = ImportDiscovery([card.url, loose])
        discovery.makeGroups()
        #expect(discovery.files.count == 5)
        for entry in 0..<Int32(discovery.files.count) {
            #expect(discovery.files.path(entry) == discovery.files.url(entry).path)
        }
    }

    @Test func notReachedListsTheFilesOfGroupsNotTakenWhenCancelled() throws {
        let temporary = try TemporaryLibrary()
        let card = try Folder(temporary)
        let files = try (0..<30).map { try card.photo(String(format: "IMG_%04d.JPG", $0), seed: $0) }
        var options = PHAssetImporter.Options()
        options.maximumConcurrentFiles = 1
        let importer = PHAssetImporter(library: temporary.library, options: options)
        // Cancelled at the first progress report: the worker may have taken a few more groups.
        let report = importer.importFiles(at: [card.url]) { _ in importer.cancel() }
        #expect(report.wasCancelled)
        #expect(!report.notReached.isEmpty)
        let read = report.items.flatMap(\.files)
        #expect(read + Array(report.notReached) == files, "read files first, then the rest, each once, in order")
    }
}
