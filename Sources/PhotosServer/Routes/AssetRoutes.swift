import Foundation
import PhotosLocking
import Hummingbird
import Photos

/// `GET /api/assets`, `/api/search`, `/api/assets/{id}`, `GET` and `HEAD /api/assets/{id}/original`.
struct AssetRoutes {
    let service: LibraryService

    /// The most assets one page may hold.
    static let pageLimit = 1000

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("assets") { request, context in try await page(request, context, AssetFetch(query: QueryParameters(request))) }
        group.get("search") { request, context in try await search(request, context) }
        group.get("assets/{id}") { request, context in try await details(request, context) }
        group.get("assets/{id}/original") { request, context in try await original(request, context) }
        // Hummingbird answers HEAD only where a route says so (or with the router option
        // `.autoGenerateHeadEndpoints`, which would run the GET handler and drop its body).
        group.head("assets/{id}/original") { request, context in try await original(request, context) }
    }

    /// `GET /api/search?q=`: a page of what `q` finds (``AssetFetch/search``), with the
    /// predicate, sort and hidden parameters of `/api/assets`.
    private func search(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        guard let text = query.string("q") else { throw APIError.badParameter("q", "missing: say what to look for") }
        var fetch = try AssetFetch(query: query)
        fetch.search = text
        return try await page(request, context, fetch)
    }

    private func page(_ request: Request, _ context: PhotosRequestContext, _ fetch: @autoclosure () throws -> AssetFetch) async throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        let query = QueryParameters(request)
        let fetch = try fetch()
        let offset = try query.int("offset", in: 0...Int(Int32.max), default: 0)!
        let limit = try query.int("limit", in: 1...Self.pageLimit, default: 100)!
        let result = try await service.keptResult(of: fetch, for: client)
        // The page's objects are read from the store: off the event loops.
        return try await service.quickly("page") {
            service.withLibrary {
                let end = min(result.count, offset + limit)
                let assets = offset < end ? result.objects(at: IndexSet(integersIn: offset..<end)).map(AssetJSON.init) : []
                return JSONResponse.make(AssetPage(count: result.count, offset: offset, assets: assets))
            }
        }
    }

    private func details(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        let id = try context.parameters.require("id")
        return try await service.quickly("details") {
            let asset = try service.asset(id, for: client, includeDeleted: true)
            return service.withLibrary {
                JSONResponse.make(AssetJSON.detailed(asset, showingAlbums: client.allowList == nil))
            }
        }
    }

    /// The original file, with byte ranges, validators and `HEAD` (``FileResponse``). An
    /// original in the library's bucket not fetched to this machine is streamed from the
    /// bucket, ranges and all, or redirected to it (``ObjectResponse``); an `http(s)` original
    /// referenced in place and not fetched yet is streamed whole through
    /// `PHAssetResourceManager`.
    private func original(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        let id = try context.parameters.require("id")
        let (asset, resources) = try await service.quickly("original") {
            let asset = try service.asset(id, for: client, includeDeleted: true)
            return (asset, service.withLibrary { PHAssetResource.assetResources(for: asset) })
        }
        try client.requireDownload()
        guard let resource = resources.first(where: { [.photo, .video, .audio].contains($0.type) }) ?? resources.first else {
            throw APIError.notFound("original file for asset '\(asset.localIdentifier)'")
        }
        let headers: HTTPFields = [
            .contentDisposition: MediaTypes.attachment(filename: resource.originalFilename),
            .cacheControl: "private, no-cache",
        ]
        let contentType = MediaTypes.mimeType(forUniformTypeIdentifier: resource.uniformTypeIdentifier)
        guard let file = resource.localFileURL else {
            if let object = resource.objectURL {
                return try await ObjectResponse.make(
                    object: object, size: resource.fileSize, identity: "\(resource.assetLocalIdentifier) \(resource.type.rawValue)",
                    contentType: contentType, headers: headers, request: request,
                    redirectExpiry: self.service.configuration.originalsRedirectExpiry)
            }
            return streamed(resource, contentType: contentType, headers: headers, head: request.method == .head)
        }
        return try await FileResponse.make(
            fileAt: file, identity: "\(resource.assetLocalIdentifier) \(resource.type.rawValue)", contentType: contentType,
            headers: headers, request: request)
    }

    /// Reads remote originals through the library's local copy, fetching it first.
    private static let fetchingRemoteOriginals: PHAssetResourceRequestOptions = {
        let options = PHAssetResourceRequestOptions()
        options.isNetworkAccessAllowed = true
        return options
    }()

    /// The whole file, read by `PHAssetResourceManager`, a few chunks ahead of the client at
    /// most (``ChunkPipe``); no ranges.
    private func streamed(_ resource: PHAssetResource, contentType: String, headers: HTTPFields, head: Bool) -> Response {
        var headers = headers
        headers[.contentType] = contentType
        headers[.acceptRanges] = "none"
        headers[.contentLength] = String(resource.fileSize)
        if head { return Response(status: .ok, headers: headers) }
        // The request ID is known only once the read has started; a cancel before that is kept.
        let requestID = Mutex<PHAssetResourceDataRequestID?>(nil)
        let cancelled = Atomic(false)
        let (sender, body) = ChunkPipe.make(onCancel: {
            cancelled.store(true, ordering: .releasing)
            if let id = requestID.withLock({ $0 }) { PHAssetResourceManager.default().cancelDataRequest(id) }
        })
        let id = PHAssetResourceManager.default().requestData(
            for: resource, options: Self.fetchingRemoteOriginals,
            dataReceivedHandler: { data in sender.send(data) },
            completionHandler: { error in sender.finish(error) })
        requestID.withLock { $0 = id }
        if cancelled.load(ordering: .acquiring) { PHAssetResourceManager.default().cancelDataRequest(id) }
        return Response(status: .ok, headers: headers, body: ResponseBody(asyncSequence: body))
    }
}

/// MIME types and download names.
enum MediaTypes {
    /// The type's MIME type from the `UTType` table; `application/octet-stream` when it has none.
    static func mimeType(forUniformTypeIdentifier type: String) -> String {
        UTType(type)?.preferredMIMEType ?? "application/octet-stream"
    }

    /// `attachment; filename="..."; filename*=UTF-8''...` with the name made safe for a header.
    static func attachment(filename: String) -> String {
        let plain = String(filename.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? plain
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }
}
