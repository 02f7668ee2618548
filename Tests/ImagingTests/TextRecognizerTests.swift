import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// Words in images read by Tesseract (issue 37): rendered text is read with its boxes, a
/// blank image has none, a damaged one and one that takes too long are clear errors.
/// Tesseract runs on threads of their own (``onOwnThread(_:)``), one test at a time: at nice 10
/// on a loaded machine it takes seconds, which a test must not spend holding one of Swift
/// concurrency's threads.
@Suite(
    "Text recognition", .serialized, .enabled(if: TextRecognizer.executable != nil, "needs tesseract (apt install tesseract-ocr)"))
struct TextRecognizerTests {
    @Test func renderedWordsAreReadWithTheirBoxes() async throws {
        let image = try VipsImage.text("Receipt from the garage\nTotal 2041 EUR", dpi: 300)
        let encoded = try image.pngData()
        let words = try await onOwnThread { try TextRecognizer().recognize(encoded: encoded, name: "receipt.png") }
        #expect(words.map(\.text) == ["Receipt", "from", "the", "garage", "Total", "2041", "EUR"], "\(words.map(\.text))")
        for word in words {
            #expect(word.x >= 0 && word.y >= 0 && word.x + word.width <= image.width && word.y + word.height <= image.height, "\(word)")
            #expect(word.confidence >= 30 && word.width > 0 && word.height > 0)
        }
        // Two lines: the first four words share one, the rest another, below it.
        #expect(Set(words.prefix(4).map(\.line)).count == 1 && Set(words.suffix(3).map(\.line)).count == 1)
        #expect(words[0].line != words[4].line && words[4].y > words[0].y + words[0].height / 2)
        // Left to right on a line.
        #expect(zip(words.prefix(4), words.prefix(4).dropFirst()).allSatisfy { $0.x < $1.x })
    }

    @Test func aPhotoWithoutTextHasNoWords() async throws {
        let blank = try VipsImage.gradient(width: 400, height: 300).pngData()
        #expect(try await onOwnThread { try TextRecognizer().recognize(encoded: blank) }.isEmpty)
    }

    @Test func bytesThatAreNoImageAreAClearError() async throws {
        await #expect {
            try await onOwnThread { try TextRecognizer().recognize(encoded: Data("not an image at all".utf8), name: "notes.txt") }
        } throws: { error in
            let error = error as? ImagingError
            return error?.code == .decodeFailed && error?.message.contains("Tesseract can't read notes.txt") == true
        }
    }

    @Test func anImageThatTakesTooLongIsStoppedAndNamed() async throws {
        let page = try VipsImage.text(Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 60).joined(separator: "\n"), dpi: 300)
        let encoded = try page.pngData()
        let started = Date()
        await #expect {
            try await onOwnThread { try TextRecognizer(timeout: 0.2).recognize(encoded: encoded, name: "page.png") }
        } throws: { error in
            let error = error as? ImagingError
            return error?.code == .timedOut && error?.message.contains("Tesseract gave up on page.png") == true
        }
        #expect(Date().timeIntervalSince(started) < 10, "\(page.width)x\(page.height), \(encoded.count) bytes")
    }

    @Test func theInstalledLanguagesAreListed() async throws {
        #expect(try await onOwnThread { TextRecognizer.installedLanguages() }.contains("eng"))
    }

    /// With German's pack (scripts/install-deps.sh installs it), German words keep their letters.
    @Test(.enabled(if: TextRecognizer.installedLanguages().contains("deu"), "needs tesseract-ocr-deu"))
    func aLanguagePackReadsItsLetters() async throws {
        let encoded = try VipsImage.text("Straße Übergröße", dpi: 300).pngData()
        let words = try await onOwnThread { try TextRecognizer(languages: ["deu", "eng"]).recognize(encoded: encoded) }
        #expect(words.map(\.text) == ["Straße", "Übergröße"], "\(words.map(\.text))")
    }
}
