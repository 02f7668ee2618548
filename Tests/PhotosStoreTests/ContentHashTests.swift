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

@Suite("Content signature")
struct ContentSignatureTests {
    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// The signature is SHA-256 over the size (8 bytes, little-endian) and the first and last
    /// 64 KiB, checked against `sha256sum` of those bytes written out; small files count whole.
    @Test(arguments: [0, 1_000, 2 * ContentSignature.edgeSize, 2 * ContentSignature.edgeSize + 1, 1_000_003])
    func isTheHashOfSizeHeadAndTail(size: Int) throws {
        let folder = try TestImages.temporaryDirectory("signature")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.randomBytes(size, seed: UInt64(size))
        let file = folder.appendingPathComponent("file.bin")
        try Data(bytes).write(to: file)
        let edge = ContentSignature.edgeSize
        let covered = size <= 2 * edge ? bytes[...] : bytes[..<edge] + bytes[(size - edge)...]
        let expectedInput = folder.appendingPathComponent("expected.bin")
        try (withUnsafeBytes(of: Int64(size).littleEndian) { Data($0) } + Data(covered)).write(to: expectedInput)
        let printed = String(decoding: try ExternalTool.output("/usr/bin/sha256sum", [expectedInput.path]), as: UTF8.self)
        #expect(try ContentSignature.signature(ofFileAt: file, size: Int64(size)) == String(printed.prefix(64)))
    }

    /// A change in the middle of a large file keeps the signature (what the duplicate check's
    /// confirmation is for) but not the bytes; a change at either end changes it.
    @Test func seesTheEdgesAndTheByteComparisonTheRest() throws {
        let folder = try TestImages.temporaryDirectory("signature")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.randomBytes(500_000, seed: 1)
        let a = folder.appendingPathComponent("a.bin")
        let b = folder.appendingPathComponent("b.bin")
        let c = folder.appendingPathComponent("c.bin")
        try Data(bytes).write(to: a)
        var middle = bytes
        middle[250_000] ^= 1
        try Data(middle).write(to: b)
        var end = bytes
        end[499_999] ^= 1
        try Data(end).write(to: c)
        let signature = try ContentSignature.signature(ofFileAt: a, size: 500_000)
        #expect(try ContentSignature.signature(ofFileAt: b, size: 500_000) == signature)
        #expect(try ContentSignature.signature(ofFileAt: c, size: 500_000) != signature)
        #expect(try ContentSignature.sameBytes(a, a))
        #expect(try !ContentSignature.sameBytes(a, b))
        #expect(try !ContentSignature.sameBytes(a, c))
        try Data(bytes.prefix(400_000)).write(to: c)
        #expect(try !ContentSignature.sameBytes(a, c), "a prefix is not the same file")
    }

    @Test func copyHashingCopiesAndHashesInOnePass() throws {
        let folder = try TestImages.temporaryDirectory("signature")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.bin")
        let copy = folder.appendingPathComponent("copy.bin")
        try Data(Self.randomBytes(ContentHash.chunkSize + 777, seed: 2)).write(to: source)
        let hash = try ContentHash.copyHashing(from: source, to: copy)
        #expect(hash == (try ContentHash.sha256(ofFileAt: source)))
        #expect(try Data(contentsOf: copy) == Data(contentsOf: source))
        // The destination must be new; a failed copy leaves nothing behind.
        #expect(throws: StoreError.self) { try ContentHash.copyHashing(from: source, to: copy) }
        let missing = folder.appendingPathComponent("missing.bin")
        #expect(throws: StoreError.self) { try ContentHash.copyHashing(from: missing, to: folder.appendingPathComponent("never.bin")) }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("never.bin").path))
    }
}
