import Foundation
import Hummingbird
import Photos
import PhotosLocking

/// `POST /api/uploads`: photos and videos as creation requests. The body is the file itself
/// (`?filename=IMG_0001.HEIC`) or `multipart/form-data` with one or more files; it streams to
/// disk (never whole in memory), is cut off past the upload limit (413), and becomes assets in
/// one `performChanges`, so a bad file adds nothing. Limited tokens' uploads join their
/// allow-list; add-only tokens get only the new local identifiers back.
struct UploadRoutes {
    let service: LibraryService

    static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "3gp", "avi", "mkv", "webm", "mts", "m2ts"]

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.post("uploads") { request, context in try await upload(request, context) }
    }

    private func upload(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let limit = service.configuration.uploadLimit
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "The upload is \(length) bytes; the limit is \(limit)")
        }
        let folder = service.library.url.appendingPathComponent("tmp/uploads", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = try await receive(request, into: folder, limit: limit)
        defer { for file in files { try? FileManager.default.removeItem(at: file.url) } }
        guard !files.isEmpty else { throw APIError(.badRequest, "The upload holds no file") }

        let identifiers = LockedIdentifiers()
        do {
            // The import (probing, hashing and copying each file, making its grid thumbnail) and
            // its commit, on the writes pool, off the event loop.
            let library = service.library
            try await service.writing("commit") {
                try library.performChangesAndWait {
                    for file in files {
                        let request = PHAssetCreationRequest.forAsset()
                        let options = PHAssetResourceCreationOptions()
                        options.originalFilename = file.name
                        options.shouldMoveFile = true
                        request.addResource(with: file.isVideo ? .video : .photo, fileURL: file.url, options: options)
                        if let placeholder = request.placeholderForCreatedAsset { identifiers.append(placeholder.localIdentifier) }
                    }
                }
            }
        } catch {
            // Name the client's files, not where the server kept them.
            var message = (error as? PHPhotosError)?.message ?? "\(error)"
            for file in files { message = message.replacingOccurrences(of: file.url.path, with: file.name) }
            if let photos = error as? PHPhotosError, photos.code == .invalidResource {
                throw APIError(.unsupportedMediaType, "Not a photo or video this library can read: \(message)")
            }
            throw APIError(APIError(error).status, message)
        }
        let created = identifiers.values
        await service.libraryChanged()
        if let token = client.token, token.level == .limited {
            do {
                let library = service.library
                _ = try await service.writing("allow-list") { try library.changeLimitedLibrary(ofAccessToken: token.identifier, .add(created)) }
            } catch {
                throw APIError(.internalServerError, "The upload was added but not to this token's selection: \(error)")
            }
            service.accessChanged()
        }
        guard client.level != .addOnly else {
            return JSONResponse.make(UploadResult(assets: nil, localIdentifiers: created), status: .created)
        }
        let assets = service.withLibrary {
            PHAsset.fetchAssets(withLocalIdentifiers: created, options: nil).map(AssetJSON.init)
        }
        return JSONResponse.make(UploadResult(assets: assets, localIdentifiers: created), status: .created)
    }

    private struct ReceivedFile: Sendable {
        let name: String
        let url: URL
        let isVideo: Bool
    }

    private func receive(_ request: Request, into folder: URL, limit: Int) async throws -> [ReceivedFile] {
        if let contentType = request.headers[.contentType], let boundary = MultipartFileReader.boundary(fromContentType: contentType) {
            var reader = MultipartFileReader(boundary: boundary, folder: folder, limit: limit)
            do {
                for try await buffer in request.body { try reader.consume(buffer) }
                try reader.finish()
            } catch {
                reader.discard()
                throw error
            }
            do {
                return try reader.parts.map { part in
                    try file(named: part.filename, at: part.file, contentType: part.contentType)
                }
            } catch {
                reader.discard()
                throw error
            }
        }
        guard let filename = QueryParameters(request).string("filename") else {
            throw APIError.badParameter("filename", "required for a raw upload (or send multipart/form-data)")
        }
        let name = try Self.safeName(filename)
        let (url, handle) = try MultipartFileReader.newFile(in: folder)
        do {
            var total = 0
            for try await buffer in request.body {
                total += buffer.readableBytes
                guard total <= limit else { throw APIError(.contentTooLarge, "The upload is larger than \(limit) bytes") }
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            try handle.close()
            guard total > 0 else { throw APIError(.badRequest, "The upload is empty") }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return [try file(named: name, at: url, contentType: request.headers[.contentType])]
    }

    private func file(named name: String, at url: URL, contentType: String?) throws -> ReceivedFile {
        let safe = try Self.safeName(name)
        let ext = (safe as NSString).pathExtension.lowercased()
        let isVideo = contentType?.lowercased().hasPrefix("video/") == true || Self.videoExtensions.contains(ext)
        // The creation request reads the format from the name's extension when it has one.
        let named = url.deletingPathExtension().appendingPathExtension(ext.isEmpty ? "upload" : ext)
        if named != url { try FileManager.default.moveItem(at: url, to: named) }
        return ReceivedFile(name: safe, url: named, isVideo: isVideo)
    }

    /// The last path component of a client's file name, refused when empty, hidden or odd.
    static func safeName(_ name: String) throws -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let ext = (last as NSString).pathExtension
        guard !last.isEmpty, last != ".", last != "..", last.utf8.count <= 255,
            !last.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }),
            ext.count <= 10, ext.allSatisfy({ $0.isLetter || $0.isNumber })
        else {
            throw APIError(.badRequest, "'\(name.prefix(80))' is not a usable file name")
        }
        return last
    }
}

struct UploadResult: Encodable, Sendable {
    /// The new assets (absent for add-only tokens, which see nothing).
    let assets: [AssetJSON]?
    let localIdentifiers: [String]
}

/// Identifiers collected inside a change block.
final class LockedIdentifiers: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}
