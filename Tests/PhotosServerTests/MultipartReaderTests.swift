import Foundation
import NIOCore
import Testing

@testable import PhotosServer

/// The streaming multipart reader behind uploads, fed a body whole and cut into chunks as the
/// network may deliver it: the outcome must not depend on where the cuts fall (FuzzMultipart
/// checks this on every input; these are the cases it found).
@Suite("Uploads: multipart reader")
struct MultipartReaderTests {
    /// The parts' file names and bytes, or the error, after reading `body` in chunks of `chunk`.
    static func read(_ body: [UInt8], boundary: String, chunk: Int) throws -> (outcome: Result<[String], APIError>, files: [URL]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var reader = MultipartFileReader(boundary: boundary, folder: folder, limit: 1 << 20)
        do {
            for start in stride(from: 0, to: body.count, by: chunk) {
                try reader.consume(ByteBuffer(bytes: body[start ..< min(start + chunk, body.count)]))
            }
            try reader.finish()
        } catch let error as APIError {
            reader.discard()
            let left = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            return (.failure(error), left)
        }
        let parts = reader.parts.map(\.filename)
        reader.discard()
        return (.success(parts), try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))
    }

    static func body(headerBytes: Int, boundary: String = "XYZ") -> [UInt8] {
        let head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
        let tail = ".jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
        // The header block runs from the CRLF after the boundary line to its blank line.
        let name = String(repeating: "a", count: headerBytes - (head.utf8.count - boundary.utf8.count - 2) - tail.utf8.count)
        return Array((head + name + tail).utf8) + Array("photo bytes\r\n--\(boundary)--\r\n".utf8)
    }

    @Test("a part's headers over 16 KiB are refused however the body is cut; up to 16 KiB they are read",
          arguments: [100, 1024, 4096, 1 << 20])
    func longHeaders(chunk: Int) throws {
        let tooLong = try Self.read(Self.body(headerBytes: MultipartFileReader.maximumHeaderBytes + 1), boundary: "XYZ", chunk: chunk)
        guard case .failure(let error) = tooLong.outcome else {
            Issue.record("17 KiB of part headers read as \(tooLong.outcome) in chunks of \(chunk)")
            return
        }
        #expect(error.status == .badRequest)
        #expect(error.reason == "A multipart part's headers are too long")
        #expect(tooLong.files.isEmpty)

        let fits = try Self.read(Self.body(headerBytes: MultipartFileReader.maximumHeaderBytes), boundary: "XYZ", chunk: chunk)
        guard case .success(let names) = fits.outcome else {
            Issue.record("16 KiB of part headers refused in chunks of \(chunk): \(fits.outcome)")
            return
        }
        #expect(names.count == 1)
        #expect(names.first?.hasSuffix("aaa.jpg") == true)
        #expect(fits.files.isEmpty)
    }
}
