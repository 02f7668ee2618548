import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore

@Suite("Content hash")
struct ContentHashTests {
    /// Our SHA-256 against coreutils' `sha256sum`, for an empty file, a short one and one
    /// spanning several read chunks.
    @Test(arguments: [0, 3, ContentHash.chunkSize * 2 + 12_345])
    func matchesSha256sum(size: Int) throws {
        let folder = try TestImages.temporaryDirectory("hash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bytes.bin")
        var random = SeededGenerator(seed: UInt64(size) + 7)
        try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: file)

        let printed = String(decoding: try ExternalTool.output("/usr/bin/sha256sum", [file.path]), as: UTF8.self)
        let expected = String(printed.prefix(64))
        #expect(expected.count == 64)
        #expect(try ContentHash.sha256(ofFileAt: file) == expected)
        #expect(ContentHash.sha256(of: try Data(contentsOf: file)) == expected)
    }

    @Test func anUnreadableFileIsAnError() {
        #expect(throws: StoreError.self) { try ContentHash.sha256(ofFileAt: URL(fileURLWithPath: "/nonexistent/file")) }
    }
}
