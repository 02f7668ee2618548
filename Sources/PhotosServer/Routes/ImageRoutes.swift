import Foundation
import Hummingbird
import Photos

/// `GET /api/assets/{id}/image?w=&h=&mode=&crop=&version=&format=&quality=&v=`: an image of an
/// asset through `PHImageManager`, encoded once and then served from memory, with an ETag
/// (304 on revalidation) and, when `v` names the asset's current version, a year-long
/// immutable cache lifetime.
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

    private func image(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let asset = try service.asset(try context.parameters.require("id"), for: client, includeDeleted: true)
        let query = QueryParameters(request)
        let width = try query.int("w", in: 1...Self.maximumSide, default: 256)!
        let height = try query.int("h", in: 1...Self.maximumSide, default: width)!
        let mode = try query.choice("mode", default: Mode.fit)
        let format = try query.choice("format", default: Format.jpeg)
        let version = try query.choice("version", default: Version.current)
        let quality = try query.int("quality", in: 1...100, default: 82)!
        let crop = try Self.crop(query.string("crop"))

        let assetVersion = AssetJSON.version(of: asset)
        let key = [
            asset.localIdentifier, assetVersion, "\(width)x\(height)", mode.rawValue, crop.map { "\($0)" } ?? "-",
            version.rawValue, format.rawValue, String(quality),
        ].joined(separator: "|")
        let etag = "\"\(Self.hash(key))\""
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: query.string("v") == assetVersion ? "private, max-age=31536000, immutable" : "private, no-cache",
        ]
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }).contains(where: { $0 == etag || $0 == "*" })
        {
            return Response(status: .notModified, headers: headers)
        }
        let entry: EncodedImageCache.Entry
        if let cached = service.encodedImages.entry(for: key) {
            entry = cached
        } else {
            entry = try await render(
                asset, size: CGSize(width: width, height: height), mode: mode, crop: crop, version: version, format: format,
                quality: quality, etag: etag)
            service.encodedImages.insert(entry, for: key)
        }
        headers[.contentType] = entry.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: entry.bytes))
    }

    private func render(
        _ asset: PHAsset, size: CGSize, mode: Mode, crop: CGRect?, version: Version, format: Format, quality: Int, etag: String
    ) async throws -> EncodedImageCache.Entry {
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.isNetworkAccessAllowed = true
        options.version =
            switch version {
            case .current: .current
            case .original: .original
            case .unadjusted: .unadjusted
            }
        if let crop {
            options.resizeMode = .exact
            options.normalizedCropRect = crop
        }
        let image: UIImage
        do {
            image = try await service.imageManager.image(
                for: asset, targetSize: size, contentMode: mode == .fill ? .aspectFill : .aspectFit, options: options)
        } catch {
            throw APIError(error)
        }
        let encoded =
            switch format {
            case .jpeg: image.jpegData(compressionQuality: Double(quality) / 100)
            case .webp: image.webpData(quality: Double(quality) / 100)
            }
        guard let encoded else { throw APIError(.internalServerError, "Encoding the image as \(format.rawValue) failed") }
        return EncodedImageCache.Entry(
            bytes: ByteBuffer(bytes: encoded), contentType: format == .jpeg ? "image/jpeg" : "image/webp", etag: etag)
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
