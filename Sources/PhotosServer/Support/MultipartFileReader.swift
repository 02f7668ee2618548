import Foundation
import Hummingbird

/// Reads the file parts of a `multipart/form-data` body as it streams in, writing each to its
/// own file, so an upload never sits in memory whole.
struct MultipartFileReader {
    struct Part {
        let filename: String
        let contentType: String?
        let file: URL
        let size: Int
    }

    private enum State {
        case preamble
        case headers
        case body
        case done
    }

    private let delimiter: [UInt8]
    private let folder: URL
    private let limit: Int
    private var state = State.preamble
    private var pending: [UInt8] = []
    private var handle: FileHandle?
    private var current: (filename: String, contentType: String?, file: URL, size: Int)?
    private var total = 0
    private(set) var parts: [Part] = []

    /// The boundary from a `Content-Type: multipart/form-data; boundary=...` value.
    static func boundary(fromContentType contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty || value.count > 200 ? nil : value
            }
        }
        return nil
    }

    init(boundary: String, folder: URL, limit: Int) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.folder = folder
        self.limit = limit
        pending = Array("\r\n".utf8)  // the first delimiter has no CRLF before it
    }

    /// Consumes the next bytes of the body.
    mutating func consume(_ buffer: ByteBuffer) throws {
        total += buffer.readableBytes
        guard total <= limit else { throw APIError(.contentTooLarge, "The upload is larger than \(limit) bytes") }
        pending.append(contentsOf: buffer.readableBytesView)
        try process()
    }

    /// Ends the body; throws when it stopped inside a part.
    mutating func finish() throws {
        guard case .done = state else {
            closeCurrent(keep: false)
            throw APIError(.badRequest, "The multipart body ended before its closing boundary")
        }
    }

    /// Removes any files already written (after a failure).
    func discard() {
        for part in parts { try? FileManager.default.removeItem(at: part.file) }
        if let current { try? FileManager.default.removeItem(at: current.file) }
    }

    private mutating func process() throws {
        while true {
            switch state {
            case .preamble:
                guard let range = find(delimiter) else {
                    // Keep only what could still start a delimiter.
                    pending.removeFirst(max(0, pending.count - delimiter.count))
                    return
                }
                pending.removeFirst(range.upperBound)
                state = .headers
            case .headers:
                if pending.count >= 2 && pending[0] == UInt8(ascii: "-") && pending[1] == UInt8(ascii: "-") {
                    state = .done
                    return
                }
                // At most 16 KiB of headers, however the body arrives: checked on the whole block
                // when its end is found, and on what has come so far while it isn't.
                guard let end = find(Array("\r\n\r\n".utf8)) else {
                    guard pending.count < Self.maximumHeaderBytes else { throw Self.headersTooLong }
                    return
                }
                guard end.upperBound <= Self.maximumHeaderBytes else { throw Self.headersTooLong }
                let headers = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeFirst(end.upperBound)
                try startPart(headers)
                state = .body
            case .body:
                if let range = find(delimiter) {
                    try write(pending[..<range.lowerBound])
                    pending.removeFirst(range.upperBound)
                    closeCurrent(keep: true)
                    state = .headers
                } else {
                    let safe = max(0, pending.count - delimiter.count)
                    try write(pending[..<safe])
                    pending.removeFirst(safe)
                    return
                }
            case .done:
                return
            }
        }
    }

    static let maximumHeaderBytes = 16_384
    private static var headersTooLong: APIError { APIError(.badRequest, "A multipart part's headers are too long") }

    private mutating func startPart(_ headers: String) throws {
        var filename: String?
        var contentType: String?
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            if name == "content-type" { contentType = value }
            if name == "content-disposition", let range = value.range(of: "filename=\"") {
                let rest = value[range.upperBound...]
                filename = rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
            }
        }
        guard let filename else { throw APIError(.badRequest, "A multipart part has no filename (send files only)") }
        let (file, handle) = try Self.newFile(in: folder)
        self.handle = handle
        current = (filename, contentType, file, 0)
    }

    private mutating func write(_ bytes: ArraySlice<UInt8>) throws {
        guard !bytes.isEmpty, let handle else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw APIError(.insufficientStorage, "Writing the upload failed: \(error.localizedDescription)")
        }
        current?.size += bytes.count
    }

    private mutating func closeCurrent(keep: Bool) {
        try? handle?.close()
        handle = nil
        if let current {
            if keep {
                parts.append(Part(filename: current.filename, contentType: current.contentType, file: current.file, size: current.size))
            } else {
                try? FileManager.default.removeItem(at: current.file)
            }
        }
        current = nil
    }

    /// A new, empty upload file in `folder` (a fresh name; 507 when it can't be made).
    static func newFile(in folder: URL) throws -> (URL, FileHandle) {
        let file = folder.appendingPathComponent(UUID().uuidString + ".upload")
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = FileHandle(forWritingAtPath: file.path) else {
            throw APIError(.insufficientStorage, "Can't write the upload to \(folder.path)")
        }
        return (file, handle)
    }

    private func find(_ needle: [UInt8]) -> Range<Int>? {
        guard pending.count >= needle.count else { return nil }
        var start = 0
        let first = needle[0]
        while start <= pending.count - needle.count {
            guard let i = pending[start...].firstIndex(of: first), i <= pending.count - needle.count else { return nil }
            if pending[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
            start = i + 1
        }
        return nil
    }
}
