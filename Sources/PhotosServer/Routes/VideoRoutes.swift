import Foundation
import Hummingbird
import Photos

/// `GET`/`HEAD /api/assets/{id}/video`: what a browser plays for a video or a Live Photo's
/// motion: the movie itself when it plays in browsers, else its H.264 rendition, made on first
/// need (``VideoRenditions``), served with byte ranges (``FileResponse``); a movie that plays
/// and is only in the library's bucket, from there (``ObjectResponse``).
struct VideoRoutes {
    let service: LibraryService

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("assets/{id}/video") { request, context in try await video(request, context) }
        group.head("assets/{id}/video") { request, context in try await video(request, context) }
    }

    private func video(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        let id = try context.parameters.require("id")
        let asset = try await service.quickly("video asset") { try service.asset(id, for: client, includeDeleted: true) }
        guard asset.mediaType == .video || asset.mediaSubtypes.contains(.photoLive) else {
            throw APIError.notFound("video for asset '\(asset.localIdentifier)': it is a still photo")
        }
        let renditions = self.service.library.videoRenditions  // the served library's workers make everyone's
        // A first need runs ffmpeg for seconds: off the event loop, on a thread of its own.
        let playable = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                // A movie that can't be made playable answers 422 with the recorded reason.
                continuation.resume(with: Result { try renditions.playable(for: asset) }.mapError { APIError($0) })
            }
        }
        let version = AssetJSON.version(of: asset)
        let immutable = request.uri.queryParameters["v"].map(String.init) == version
        let headers: HTTPFields = [.cacheControl: immutable ? "private, max-age=31536000, immutable" : "private, no-cache"]
        let identity = "\(asset.localIdentifier) video \(version) \(playable.isRendition ? "r" : "o")"
        if let size = playable.objectSize {
            return try await ObjectResponse.make(
                object: playable.url, size: size, identity: identity, contentType: playable.mimeType, headers: headers, request: request,
                redirectExpiry: self.service.configuration.originalsRedirectExpiry)
        }
        return try await FileResponse.make(
            fileAt: playable.url, identity: identity,
            contentType: playable.mimeType, headers: headers, request: request)
    }
}
