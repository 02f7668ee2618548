import Foundation
import Imaging
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Words in photos read by Tesseract as the library's background work (issue 37), on either
/// engine: a photo of text is found by its words with their boxes, a photo without text is
/// read and has none, one Tesseract chokes on is skipped and never tried again by itself,
/// a failure is retried later and skipped after three.
@Suite(
    "Text recognition work", .blocking, .serialized,
    .enabled(if: TextRecognitionWork.isAvailable, "needs tesseract (apt install tesseract-ocr)"))
struct TextRecognitionWorkTests {
    static func library(timeout: TimeInterval = 60, function: String = #function) throws -> TemporaryLibrary {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.textRecognizer = TextRecognizer(languages: ["eng"], timeout: timeout)
        return try TemporaryLibrary(configuration: configuration, function: function)
    }

    /// Imports JPEGs of `texts` (nil: a gradient with no text); their local identifiers.
    static func importPhotos(_ temporary: TemporaryLibrary, _ texts: [String?]) throws -> [String] {
        var urls: [URL] = []
        for (index, text) in texts.enumerated() {
            let image = try text.map { try VipsImage.text($0, dpi: 300) } ?? VipsImage.gradient(width: 600, height: 400)
            let url = temporary.scratch.appendingPathComponent("page\(index).jpg")
            try image.jpegData(quality: 92).write(to: url)
            urls.append(url)
        }
        var identifiers: [String] = []
        try temporary.library.performChangesAndWait {
            for url in urls {
                identifiers.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        return identifiers
    }

    static func asset(_ temporary: TemporaryLibrary, _ identifier: String) throws -> PHAsset {
        try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject })
    }

    @Test func wordsInAPhotoFindItAndKnowWhereTheyAre() throws {
        let temporary = try Self.library()
        let ids = try Self.importPhotos(temporary, ["Receipt from the garage\nTotal 2041 EUR", nil])
        #expect(try temporary.library.textRecognition.counts().pending == 2, "new photos are pending")
        #expect(try SearchIndexTests.search(temporary, "garage").isEmpty, "not read yet")
        let counts = try temporary.library.textRecognition.readAllDue(workers: 1)
        #expect(counts.done == 2 && counts.pending == 0 && counts.failed == 0 && counts.skipped == 0, "\(counts)")
        #expect(try SearchIndexTests.search(temporary, "garage") == [ids[0]])
        #expect(try SearchIndexTests.search(temporary, "receipt 2041") == [ids[0]])
        let words = try #require(try Self.asset(temporary, ids[0]).recognizedText)
        #expect(words.map(\.text) == ["Receipt", "from", "the", "garage", "Total", "2041", "EUR"], "\(words.map(\.text))")
        for word in words {
            let box = word.boundingBox
            #expect(box.minX >= 0 && box.minY >= 0 && box.maxX <= 1.0001 && box.maxY <= 1.0001 && box.width > 0, "\(word)")
        }
        #expect(try Self.asset(temporary, ids[1]).recognizedText == [], "read, and nothing found")
        // Nothing is due any more: another run reads nothing again.
        #expect(try temporary.library.textRecognition.readAllDue(workers: 1).done == 2)
    }

    /// A photo stored sideways (EXIF orientation 6, as phones write) is read upright: libvips
    /// turns it before Tesseract reads it, which it would not do itself.
    @Test func aPhotoStoredSidewaysIsReadUpright() throws {
        let temporary = try Self.library()
        let url = temporary.scratch.appendingPathComponent("sideways.jpg")
        // Turned a quarter counter-clockwise as stored; orientation 6 turns it back clockwise.
        try VipsImage.text("Whiteboard notes", dpi: 300).rotated(quarterTurns: 3).jpegData(quality: 92).write(to: url)
        _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-Orientation#=6", url.path])
        #expect(try !TextRecognitionWork.readsAsStored(VipsImage(contentsOf: url)))
        var identifier = ""
        try temporary.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)!.placeholderForCreatedAsset!.localIdentifier
        }
        #expect(try temporary.library.textRecognition.readAllDue(workers: 1).done == 1)
        #expect(try SearchIndexTests.search(temporary, "whiteboard") == [identifier])
        let asset = try Self.asset(temporary, identifier)
        let words = try #require(asset.recognizedText)
        #expect(words.map(\.text) == ["Whiteboard", "notes"], "\(words.map(\.text))")
        // Upright, a word is wider than it is tall on the photo as shown.
        let box = try #require(words.first?.boundingBox)
        #expect(box.width * Double(asset.pixelWidth) > box.height * Double(asset.pixelHeight), "\(box) of \(asset.pixelWidth)x\(asset.pixelHeight)")
    }

    @Test func aPhotoTesseractChokesOnIsSkippedForGood() throws {
        let temporary = try Self.library(timeout: 0.05)
        let page = Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 40).joined(separator: "\n")
        let ids = try Self.importPhotos(temporary, [page])
        let counts = try temporary.library.textRecognition.readAllDue(workers: 1)
        #expect(counts.skipped == 1 && counts.done == 0, "\(counts)")
        let failure = try #require(temporary.library.textRecognition.failures().first)
        #expect(failure.assetUUID == String(ids[0].prefix(36)) && failure.lastError?.contains("choked") == true, "\(failure)")
        // Not tried again by itself, nor by the next run.
        #expect(try temporary.library.textRecognition.readAllDue(workers: 1).skipped == 1)
        #expect(temporary.library.textRecognition.failures().first?.attempts == 1)
    }

    @Test func aFailureIsRetriedLaterAndSkippedAfterThree() throws {
        let temporary = try Self.library()
        let ids = try Self.importPhotos(temporary, ["Lost"])
        // Its file is gone: each attempt fails.
        for file in temporary.originalFiles() {
            try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("originals").appendingPathComponent(file))
        }
        var counts = try temporary.library.textRecognition.readAllDue(workers: 1)
        #expect(counts.failed == 1, "\(counts)")
        let first = try #require(temporary.library.textRecognition.failures().first)
        #expect(first.attempts == 1 && first.notBefore > Date().addingTimeInterval(30), "retried a minute later: \(first)")
        // Each run makes failures due again: the third failure skips it.
        counts = try temporary.library.textRecognition.readAllDue(workers: 1)
        counts = try temporary.library.textRecognition.readAllDue(workers: 1)
        #expect(counts.skipped == 1 && counts.failed == 0, "\(counts)")
        #expect(temporary.library.textRecognition.failures().first?.attempts == 3)
        _ = ids
    }

    @Test func anEditedPhotoIsReadAgain() throws {
        let temporary = try Self.library()
        let ids = try Self.importPhotos(temporary, ["Lighthouse"])
        _ = try temporary.library.textRecognition.readAllDue(workers: 1)
        #expect(try SearchIndexTests.search(temporary, "lighthouse") == [ids[0]])
        let asset = try Self.asset(temporary, ids[0])
        let input = try temporary.library.withCurrent { try ContentEditingTests.input(asset) }
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "test.rotate", formatVersion: "1", data: Data("90".utf8))
        let rendered = try VipsImage.text("Harbour", dpi: 300)
        try rendered.jpegData(quality: 92).write(to: output.renderedContentURL)
        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest(for: asset).contentEditingOutput = output
        }
        #expect(try temporary.library.textRecognition.counts().pending == 1, "the edit made it due again")
        _ = try temporary.library.textRecognition.readAllDue(workers: 1)
        #expect(try SearchIndexTests.search(temporary, "harbour") == [ids[0]])
        #expect(try SearchIndexTests.search(temporary, "lighthouse").isEmpty, "the old version's words are gone")
    }

    @Test func aSearchObservedFindsAPhotoOnceItsWordsAreRead() throws {
        let temporary = try Self.library()
        let ids = try Self.importPhotos(temporary, ["Zanzibar harbour"])
        let result = try temporary.library.withCurrent { try PHAsset.fetchAssets(matching: "zanzibar", options: nil) }
        #expect(result.count == 0)
        let waiter = ChangeWaiter()
        temporary.library.register(waiter)
        defer { temporary.library.unregisterChangeObserver(waiter) }
        _ = try temporary.library.textRecognition.readAllDue(workers: 1)
        let change = try #require(waiter.next())
        let details = try #require(change.changeDetails(for: result))
        #expect(details.insertedObjects.map(\.localIdentifier) == ids)
    }
}
