// libFuzzer target: the streaming multipart/form-data reader behind `POST /api/assets`.
//
// Input: the Content-Type header value, a newline, two bytes seeding how the body is cut into
// chunks, then the body. The body is read twice, as one chunk and in the chunks the seed gives
// (1 to a few hundred bytes, as TCP delivers them), through `consume`, `finish` and, on a
// failure, `discard`, as the upload route does. Both reads must agree (the same parts with the
// same bytes, or both refused: a reader that depends on where the network cut the body is a
// bug), each part's file must hold exactly its bytes, and a refused upload must leave no file
// behind. File names go through the route's `safeName` check as well.
import Foundation
import NIOCore
@testable import PhotosServer
import PhotosTestSupport

/// Uploads land here; emptied after every read, removed at exit.
private let folder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photokit-fuzz-multipart-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("photokit-fuzz-multipart-\(getpid())")) }
    return folder
}()

/// How far inputs got, printed when the fuzzer exits (libFuzzer runs the target on one thread).
nonisolated(unsafe) private var counts = (inputs: 0, bodies: 0, accepted: 0, parts: 0)
private let printCounts: Void = {
    atexit {
        FileHandle.standardError.write(Data(
            "FuzzMultipart: \(counts.inputs) inputs, \(counts.bodies) with a boundary, \(counts.accepted) accepted, \(counts.parts) parts read\n".utf8))
    }
}()

/// Small enough for inputs to cross it (libFuzzer's inputs here are up to 64 KiB).
private let limit = 24 * 1024

private struct Outcome: Equatable {
    struct Part: Equatable {
        var filename: String
        var contentType: String?
        var bytes: [UInt8]
    }
    var parts: [Part] = []
    var failure: String?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = printCounts
    counts.inputs += 1
    let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let newline = input.firstIndex(of: 0x0A), newline + 3 <= input.count else { return 0 }
    let contentType = String(decoding: input[..<newline], as: UTF8.self)
    guard let boundary = MultipartFileReader.boundary(fromContentType: contentType) else { return 0 }
    counts.bodies += 1
    // A deterministic chunking from the input's seed bytes.
    var random = SeededGenerator(seed: UInt64(input[newline + 1]) << 8 | UInt64(input[newline + 2]))
    let body = Array(input[(newline + 3)...])

    let whole = read(body, boundary: boundary, chunks: body.isEmpty ? [] : [body.count])
    var chunks: [Int] = []
    var remaining = body.count
    while remaining > 0 {
        let next = random.next()
        let chunk = min(remaining, next % 8 == 0 ? 1 + Int((next >> 8) % 1024) : 1 + Int((next >> 8) % 24))
        chunks.append(chunk)
        remaining -= chunk
    }
    let cut = read(body, boundary: boundary, chunks: chunks)
    if body.count > limit {
        // Refused in both, though not necessarily for the same reason: a cut body can be refused
        // for its content before the size limit is crossed.
        check(whole.failure?.hasPrefix("413 ") == true && cut.failure != nil, "an upload over the limit was not refused", whole, cut, boundary, chunks)
    } else {
        check(whole == cut, "reading the body whole and in chunks disagree", whole, cut, boundary, chunks)
    }
    if whole.failure == nil { counts.accepted += 1 }
    counts.parts += whole.parts.count
    for part in whole.parts { _ = try? UploadRoutes.safeName(part.filename) }
    return 0
}

/// One read of `body`, as the upload route runs it, then the files it left, removed.
private func read(_ body: [UInt8], boundary: String, chunks: [Int]) -> Outcome {
    var reader = MultipartFileReader(boundary: boundary, folder: folder, limit: limit)
    var outcome = Outcome()
    do {
        var offset = 0
        for chunk in chunks {
            try reader.consume(ByteBuffer(bytes: body[offset ..< offset + chunk]))
            offset += chunk
        }
        try reader.finish()
        for part in reader.parts {
            let bytes = contents(of: part.file)
            if bytes.count != part.size { fatalError("FuzzMultipart: a part's file has \(bytes.count) bytes, its size says \(part.size)") }
            outcome.parts.append(.init(filename: part.filename, contentType: part.contentType, bytes: bytes))
        }
        reader.discard()
    } catch {
        reader.discard()
        outcome.failure = "\(error)"
    }
    let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    if !left.isEmpty {
        fatalError("FuzzMultipart: \(outcome.failure == nil ? "discarding the parts" : "a refused upload") left files behind: \(left)")
    }
    return outcome
}

/// A part's file. Not `FileManager.contents(atPath:)`: on Linux, Swift 6.3.1's Foundation leaks
/// the 4 KiB buffer it reads an empty file into (LeakSanitizer caught it here).
private func contents(of file: URL) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: file.path) else {
        fatalError("FuzzMultipart: a part's file is missing: \(file.path)")
    }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return [] }
    return [UInt8](data)
}

private func check(_ condition: Bool, _ message: String, _ whole: Outcome, _ cut: Outcome, _ boundary: String, _ chunks: [Int]) {
    guard !condition else { return }
    func summary(_ outcome: Outcome) -> String {
        outcome.failure ?? outcome.parts.map { "\($0.filename.prefix(60)) (\($0.contentType ?? "no type"), \($0.bytes.count) bytes)" }
            .joined(separator: ", ")
    }
    fatalError("FuzzMultipart: \(message)\nboundary: \(boundary)\nwhole: \(summary(whole))\nin \(chunks.count) chunks \(chunks.prefix(40)): \(summary(cut))")
}
