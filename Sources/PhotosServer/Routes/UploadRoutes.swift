import Foundation
import HTTPTypes
import Hummingbird
import Photos

/// `POST /api/uploads`: photos and videos as creation requests. The body is the file itself
/// (`?filename=IMG_0001.HEIC`) or `multipart/form-data` with one or more files; it streams to
/// disk (never whole in memory), is cut off past the upload limit (413), and becomes assets in
/// one `performChanges`, so a bad file adds nothing. Limited tokens' uploads join their
/// allow-list; add-only tokens get only the new local identifiers back.
///
/// An upload is an import batch (``ImportBatches``): its files wait in the library's shared
/// `imports/` folder, this instance imports them at once, and if it dies meanwhile another
/// instance does. `Idempotency-Key: <key>` makes a retried upload safe: a key the client
/// already sent gets that upload's outcome (imported now if it still waits), not new assets.
/// `GET /api/uploads/<id>` tells how an upload stands; a `202 Accepted` answer (the import
/// failed for a reason worth retrying, which the server does) names it in `Location`.
struct UploadRoutes {
    let service: LibraryService

    static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "3gp", "avi", "mkv", "webm", "mts", "m2ts"]
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.post("uploads") { request, context in try await upload(request, context) }
        group.get("uploads/:id") { request, context in try await status(request, context) }
    }

    private func upload(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        try client.requireChanges()
        let service = try self.service.serving(client)
        let limit = service.configuration.uploadLimit
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "The upload is \(length) bytes; the limit is \(limit)")
        }
        let key = try Self.clientKey(request)
        let owner = Self.owner(client)
        let batches = service.library.importBatches
        if let key, let sent = batches.batch(owner: owner, clientKey: key) {
            // A retry: the body is the same files again, not kept.
            for try await _ in request.body {}
            let batch = try await service.writing("import") { batches.resume(sent) }
            return try await respond(batch, to: client, replayed: true, service: service)
        }
        let (uuid, folder) = try batches.newBatchFolder()
        let files: [ReceivedFile]
        do {
            files = try await receive(request, into: folder, limit: limit)
            guard !files.isEmpty else { throw APIError(.badRequest, "The upload holds no file") }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let token = client.token?.level == .limited ? client.token?.identifier : nil
        let batchFiles = files.map { ImportBatchFile(name: $0.name, file: $0.url.lastPathComponent, isVideo: $0.isVideo) }
        // The import (probing, hashing and linking each file) and its commit, on the writes
        // pool, off the event loop.
        let (batch, replayed) = try await service.writing("commit") {
            try batches.submit(uuid: uuid, files: batchFiles, owner: owner, clientKey: key, tokenIdentifier: token)
        }
        return try await respond(batch, to: client, replayed: replayed, service: service)
    }

    /// `GET /api/uploads/<id>`: one of this client's uploads, as it stands.
    private func status(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        let id = try context.parameters.require("id")
        guard let batch = service.library.importBatches.batch(uuid: id), batch.owner == Self.owner(client) else {
            throw APIError.notFound("upload \(id)")
        }
        return JSONResponse.make(result(batch, for: client, service: service))
    }

    /// The answer for a batch: 201 with its assets once imported, 202 while it waits for a
    /// retry, the failure's status once given up.
    private func respond(
        _ batch: ImportBatchRecord, to client: ClientAccess, replayed: Bool, service: LibraryService
    ) async throws -> Response {
        switch batch.state {
        case .failed:
            let message = batch.lastError ?? "The upload failed"
            if batch.errorCode == PHPhotosError.Code.invalidResource.rawValue {
                throw APIError(.unsupportedMediaType, "Not a photo or video this library can read: \(message)")
            }
            let code = batch.errorCode.flatMap(PHPhotosError.Code.init(rawValue:)) ?? .internalError
            throw APIError(APIError(PHPhotosError(code, message)).status, message)
        case .pending:
            var response = JSONResponse.make(result(batch, for: client, service: service), status: .accepted)
            response.headers[.location] = "/api/uploads/\(batch.uuid)"
            response.headers[.retryAfter] = "\(max(1, Int(batch.notBefore.timeIntervalSinceNow.rounded(.up))))"
            return response
        case .done:
            await service.libraryChanged()
            if batch.tokenIdentifier != nil { self.service.accessChanged() }
            var response = JSONResponse.make(result(batch, for: client, service: service), status: .created)
            if replayed { response.headers[Self.replayedHeader] = "true" }
            return response
        }
    }

    private func result(_ batch: ImportBatchRecord, for client: ClientAccess, service: LibraryService) -> UploadResult {
        let created = batch.assetUUIDs.map(PHAsset.localIdentifier(forUUID:))
        let upload = UploadJSON(batch)
        guard client.level != .addOnly, batch.state == .done else {
            return UploadResult(assets: nil, localIdentifiers: created, upload: upload)
        }
        let assets = service.withLibrary {
            PHAsset.fetchAssets(withLocalIdentifiers: created, options: nil).map(AssetJSON.init)
        }
        return UploadResult(assets: assets, localIdentifiers: created, upload: upload)
    }

    /// Whose uploads a client's are: its token's, its person's, or the owner's (empty) without
    /// tokens.
    static func owner(_ client: ClientAccess) -> String {
        client.token?.identifier ?? client.person?.identifier ?? ""
    }

    /// The `Idempotency-Key` header: 1-255 printable ASCII characters.
    static func clientKey(_ request: Request) throws -> String? {
        guard let key = request.headers[idempotencyKey] else { return nil }
        guard !key.isEmpty, key.utf8.count <= 255, key.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7f }) else {
            throw APIError(.badRequest, "Idempotency-Key must be 1-255 printable ASCII characters")
        }
        return key
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
    /// The new assets (absent for add-only tokens, which see nothing, and before the import).
    let assets: [AssetJSON]?
    let localIdentifiers: [String]
    /// The upload as an import batch.
    let upload: UploadJSON
}

/// An upload's import batch, as `GET /api/uploads/<id>` tells it.
struct UploadJSON: Encodable, Sendable {
    let id: String
    /// `pending`, `done` or `failed`.
    let state: String
    let attempts: Int
    let error: String?
    let files: [String]

    init(_ batch: ImportBatchRecord) {
        id = batch.uuid
        state = switch batch.state {
            case .pending: "pending"
            case .done: "done"
            case .failed: "failed"
            }
        attempts = batch.attempts
        error = batch.lastError
        files = batch.files.map(\.name)
    }
}
