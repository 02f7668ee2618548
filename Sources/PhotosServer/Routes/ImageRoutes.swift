import Foundation
import HTTPTypes
import Hummingbird
import Photos

/// `GET /api/assets/{id}/image?w=&h=&mode=&crop=&version=&format=&quality=&v=`: an image of an
/// asset through `PHImageManager`, encoded once and then served from memory, with an ETag
/// (304 on revalidation) and, when `v` names the asset's current version, a year-long
/// immutable cache lifetime. `degraded=1` asks for an answer at once, never a render: the
/// final image when at hand, else the file's embedded thumbnail marked `X-Photos-Degraded: 1`
/// and `no-store`, else 204 (the gallery's cold scroll; see `immediate`).
struct ImageRoutes {
    let service: LibraryService

    enum Mode: String, CaseIterable { case fit, fill }
    enum Format: String, CaseIterable { case jpeg, webp }
    enum Version: String, CaseIterable { case current, original, unadjusted }

    /// The largest side a client may ask for.
    static let maximumSide = 8192

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("assets/{id}/image") { request, context in try await image(request, context) }
    }

    /// One image request's parameters, checked (400 naming the bad one).
    struct Parameters: Sendable {
        let width: Int
        let height: Int
        let mode: Mode
        let format: Format
        let version: Version
        let quality: Int
        let crop: CGRect?
        /// The `v` the client put in the URL (the asset's image version when it knew it).
        let requestedVersion: String?
        /// `degraded=1`: answer at once, never render: the final image when it is at hand, else
        /// the thumbnail the file carries (marked degraded), else 204 (see ``ImageRoutes``).
        let allowsDegraded: Bool

        init(_ query: QueryParameters) throws {
            width = try query.int("w", in: 1...ImageRoutes.maximumSide, default: 256)!
            height = try query.int("h", in: 1...ImageRoutes.maximumSide, default: width)!
            mode = try query.choice("mode", default: Mode.fit)
            format = try query.choice("format", default: Format.jpeg)
            version = try query.choice("version", default: Version.current)
            quality = try query.int("quality", in: 1...100, default: Self.defaultQuality)!
            crop = try ImageRoutes.crop(query.string("crop"))
            requestedVersion = query.string("v")
            allowsDegraded = try query.bool("degraded")
        }

        static let defaultQuality = 82

        /// A grid cell's request the library's stored thumbnail answers as it is: a `fill` of
        /// exactly its size, of the current version, as JPEG at the default quality (the
        /// stored one is quality 80).
        var isStoredGridThumbnail: Bool {
            let side = PHImageManager.gridThumbnailPixelSize
            return mode == .fill && width == side && height == side && crop == nil && version == .current
                && format == .jpeg && quality == Self.defaultQuality
        }

        /// The cache key of this request for an asset at an image version.
        func key(_ identifier: String, assetVersion: String) -> String {
            let cropText = crop.map { "\($0.minX),\($0.minY),\($0.width),\($0.height)" } ?? "-"
            return "\(identifier)|\(assetVersion)|\(width)x\(height)|\(mode.rawValue)|\(cropText)|\(version.rawValue)|\(format.rawValue)|\(quality)"
        }
    }

    private func image(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        try client.requireRead()
        let text = try context.parameters.require("id")
        let identifier = try ObjectID.asset(text)
        guard client.sees(identifier) else { throw APIError.notFound("asset '\(text)'") }
        let parameters = try Parameters(QueryParameters(request))

        var asset: PHAsset?
        let assetVersion: String
        if let known = service.imageVersions.version(of: identifier) {
            assetVersion = known
        } else {
            let generation = service.imageVersions.currentGeneration
            // A store read: off the event loops.
            let found = try await service.quickly("image asset") { try service.asset(text, for: client, includeDeleted: true) }
            assetVersion = AssetJSON.version(of: found)
            service.imageVersions.remember(assetVersion, for: identifier, generation: generation)
            asset = found
        }
        let key = parameters.key(identifier, assetVersion: assetVersion)
        if let cached = Self.cachedResponse(
            key: key, assetVersion: assetVersion, parameters: parameters, ifNoneMatch: request.headers[.ifNoneMatch], service: service)
        {
            return Self.response(cached)
        }
        let source: PHAsset
        if let asset { source = asset } else { source = try await service.quickly("image asset") { try service.asset(text, for: client, includeDeleted: true) } }
        let etag = Self.etag(key)
        if parameters.isStoredGridThumbnail {
            // A file read: off the event loop, as a cold disk makes it wait.
            let manager = service.imageManager
            let stored = try await service.quickly("stored thumbnail") { manager.storedGridThumbnailData(for: source) }
            if let stored {
                let entry = EncodedImageCache.Entry(bytes: ByteBuffer(bytes: stored), contentType: "image/jpeg", etag: etag)
                service.encodedImages.insert(entry, for: key, admitting: .onSecondOffer)
                return Self.response(Self.answer(entry, assetVersion: assetVersion, parameters: parameters))
            }
        }
        if parameters.allowsDegraded {
            return try await immediate(source, key: key, etag: etag, assetVersion: assetVersion, parameters: parameters)
        }
        let entry = try await service.connections.run(on: context.channel) { [self] in
            try await render(
                source, size: CGSize(width: parameters.width, height: parameters.height), mode: parameters.mode, crop: parameters.crop,
                version: parameters.version, format: parameters.format, quality: parameters.quality, etag: etag)
        }
        service.encodedImages.insert(entry, for: key)
        return Self.response(Self.answer(entry, assetVersion: assetVersion, parameters: parameters))
    }

    /// The answer to a `degraded=1` request that memory and the stored thumbnail couldn't give:
    /// the final image from the image manager's memory (a preheat made it), encoded and kept
    /// like a rendered one; else the file's embedded thumbnail (EXIF IFD1, HEIF `thmb`, a RAW's
    /// preview; the source `.opportunistic` requests use), possibly smaller than asked (a
    /// JPEG's EXIF thumbnail as JPEG is sent as the file holds it, undecoded, upright through
    /// an EXIF orientation segment, in the photo's aspect: a client covers the box with it as
    /// with the final image; others are decoded, shaped to the request and encoded), with `X-Photos-Degraded: 1` and `Cache-Control: no-store` (neither the browser
    /// nor this server keep it: the URL's later answers are the real image); else 204 with
    /// `X-Photos-Degraded: none`. Nothing is rendered: the client asks again without
    /// `degraded` for the final image (the gallery does, a few at a time, for the cells still
    /// on screen), and the live preheat window renders those near the viewport meanwhile.
    private func immediate(
        _ asset: PHAsset, key: String, etag: String, assetVersion: String, parameters: Parameters
    ) async throws -> Response {
        let manager = service.imageManager
        let options = Self.requestOptions(mode: parameters.mode, crop: parameters.crop, version: parameters.version)
        let size = CGSize(width: parameters.width, height: parameters.height)
        let contentMode: PHImageContentMode = parameters.mode == .fill ? .aspectFill : .aspectFit
        // (entry, degraded, milliseconds to find and shape the image, to encode it)
        let found = try await service.quickly("immediate image") { () throws -> (EncodedImageCache.Entry, Bool, Double, Double)? in
            let clock = ContinuousClock()
            let start = clock.now
            let image = manager.immediateImage(
                for: asset, targetSize: size, contentMode: contentMode, options: options, preferringJPEG: parameters.format == .jpeg)
            let found = clock.now
            let encoded: (EncodedImageCache.Entry, Bool)? =
                switch image {
                case .final(let image)?: (try Self.encode(image, format: parameters.format, quality: parameters.quality, etag: etag), false)
                case .degraded(let image)?: (try Self.encode(image, format: parameters.format, quality: parameters.quality, etag: etag), true)
                case .degradedJPEG(let bytes)?: (EncodedImageCache.Entry(bytes: ByteBuffer(bytes: bytes), contentType: "image/jpeg", etag: etag), true)
                case nil: nil
                }
            return encoded.map { ($0.0, $0.1, Self.milliseconds(found - start), Self.milliseconds(clock.now - found)) }
        }
        guard let (entry, degraded, findTime, encodeTime) = found else {
            return Response(status: .noContent, headers: [.cacheControl: "no-store", Self.degradedHeader: "none"])
        }
        guard degraded else {
            service.encodedImages.insert(entry, for: key)
            return Self.response(Self.answer(entry, assetVersion: assetVersion, parameters: parameters))
        }
        // Server-Timing: what reading, decoding and shaping the embedded thumbnail took, and
        // encoding it (browsers show it; the gallery benchmark reads it).
        let timing = String(format: "embedded;dur=%.3f, encode;dur=%.3f", findTime, encodeTime)
        let headers: HTTPFields = [
            .contentType: entry.contentType, .cacheControl: "no-store", .xContentTypeOptions: "nosniff", Self.degradedHeader: "1",
            Self.serverTiming: timing,
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: entry.bytes))
    }

    /// `X-Photos-Degraded`: `1` on a degraded answer, `none` on a 204 (nothing at hand).
    static let degradedHeader = HTTPField.Name("X-Photos-Degraded")!
    static let serverTiming = HTTPField.Name("Server-Timing")!

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// An image encoded for the cache.
    static func encode(_ image: UIImage, format: Format, quality: Int, etag: String) throws -> EncodedImageCache.Entry {
        let encoded =
            switch format {
            case .jpeg: image.jpegData(compressionQuality: Double(quality) / 100)
            case .webp: image.webpData(quality: Double(quality) / 100)
            }
        guard let encoded else { throw APIError(.internalServerError, "Encoding the image as \(format.rawValue) failed") }
        return EncodedImageCache.Entry(bytes: ByteBuffer(bytes: encoded), contentType: format == .jpeg ? "image/jpeg" : "image/webp", etag: etag)
    }

    /// A Hummingbird response (which sets Content-Length itself) for an answer.
    private static func response(_ answer: CachedAnswer) -> Response {
        var fields = answer.fields
        fields[.contentLength] = nil
        return Response(status: answer.status, headers: fields, body: answer.body.map { ResponseBody(byteBuffer: $0) } ?? ResponseBody())
    }

    /// An answer from memory: its status, headers and body.
    struct CachedAnswer {
        let status: HTTPResponse.Status
        let fields: HTTPFields
        let body: ByteBuffer?
    }

    /// The answer from memory: 304 when the client's ETag matches, the cached bytes when they
    /// are cached, else `nil` (render).
    static func cachedResponse(
        key: String, assetVersion: String, parameters: Parameters, ifNoneMatch: String?, service: LibraryService
    ) -> CachedAnswer? {
        if let match = ifNoneMatch {
            let etag = etag(key)
            if matches(match, etag: etag) {
                return CachedAnswer(status: .notModified, fields: headers(etag: etag, assetVersion: assetVersion, parameters: parameters), body: nil)
            }
        }
        return service.encodedImages.entry(for: key).map { answer($0, assetVersion: assetVersion, parameters: parameters) }
    }

    static func answer(_ entry: EncodedImageCache.Entry, assetVersion: String, parameters: Parameters) -> CachedAnswer {
        let immutable = parameters.requestedVersion == assetVersion
        return CachedAnswer(status: .ok, fields: immutable ? entry.immutableFields : entry.revalidatedFields, body: entry.bytes)
    }

    /// ETag, and a year-long immutable lifetime when the URL names the current version.
    private static func headers(etag: String, assetVersion: String, parameters: Parameters) -> HTTPFields {
        [.eTag: etag, .cacheControl: cacheControl(parameters, assetVersion: assetVersion)]
    }

    static func cacheControl(_ parameters: Parameters, assetVersion: String) -> String {
        parameters.requestedVersion == assetVersion ? immutableCacheControl : revalidatedCacheControl
    }

    /// For a URL naming the image's version (its bytes never change), and for one that doesn't.
    static let immutableCacheControl = "private, max-age=31536000, immutable"
    static let revalidatedCacheControl = "private, no-cache"

    /// Whether an `If-None-Match` value (a list of ETags, or `*`) names `etag`.
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == etag || trimmed == "*"
        }
    }

    static func etag(_ key: String) -> String {
        "\"\(hash(key))\""
    }

    private func render(
        _ asset: PHAsset, size: CGSize, mode: Mode, crop: CGRect?, version: Version, format: Format, quality: Int, etag: String
    ) async throws -> EncodedImageCache.Entry {
        let image: UIImage
        do {
            // The request is planned where it is made (the asset's files read from the store, a
            // round trip each on PostgreSQL): made on the reads pool, not on this event loop.
            let manager = service.imageManager
            let deliveries = try await service.quickly("image request") {
                let options = Self.requestOptions(mode: mode, crop: crop, version: version)
                return manager.images(for: asset, targetSize: size, contentMode: mode == .fill ? .aspectFill : .aspectFit, options: options)
            }
            image = try await PHImageManager.finalImage(of: deliveries)
        } catch {
            throw APIError(error)
        }
        // The image manager renders on its own queue; encoding is the route's, on the work pool.
        return try await service.offLoop("encode") { try Self.encode(image, format: format, quality: quality, etag: etag) }
    }

    /// The image manager's options for an image request, and for the preheat of the grid's
    /// (`fill`, whole, current): the same options make the same cache key, so a preheated
    /// image answers the request that follows.
    static func requestOptions(mode: Mode, crop: CGRect?, version: Version) -> PHImageRequestOptions {
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.isNetworkAccessAllowed = true
        options.version =
            switch version {
            case .current: .current
            case .original: .original
            case .unadjusted: .unadjusted
            }
        // `fill` answers the box itself (centre-cropped), as a grid cell shows it: smaller than
        // PhotoKit's `.fast` cover, and a square one comes from the asset's grid thumbnail.
        if mode == .fill || crop != nil { options.resizeMode = .exact }
        if let crop { options.normalizedCropRect = crop }
        return options
    }

    /// `x,y,width,height` in unit coordinates of the upright image.
    static func crop(_ text: String?) throws -> CGRect? {
        guard let text else { return nil }
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
            x >= 0, y >= 0, width > 0, height > 0, x + width <= 1.000001, y + height <= 1.000001
        else {
            throw APIError.badParameter("crop", "'\(text.prefix(60))' is not x,y,width,height within 0...1")
        }
        return CGRect(x: x, y: y, width: width, height: height)
    }

    /// FNV-1a, 64 bits, as hex: stable across runs (ETags survive restarts).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return String(value, radix: 16).leftPadded(to: 16)
    }
}
