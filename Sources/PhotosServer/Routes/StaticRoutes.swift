import Foundation
import Hummingbird

/// The gallery's files (HTML, CSS, JavaScript modules) and the OpenAPI document, read once
/// from the target's resources and served from memory by exact name, so no request path ever
/// reaches the file system.
struct StaticRoutes {
    struct File: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        let etag: String
    }

    let files: [String: File]

    /// Loads `Gallery/` and `OpenAPI/openapi.json` from the module's bundle.
    static func load() throws -> StaticRoutes {
        var files: [String: File] = [:]
        guard let gallery = Bundle.module.url(forResource: "Gallery", withExtension: nil) else {
            throw ServerConfigurationError("The gallery's files are missing from the PhotosServer bundle")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: gallery.path)
        for name in names where !name.hasPrefix(".") {
            let data = try Data(contentsOf: gallery.appendingPathComponent(name))
            files["/" + name] = File(
                bytes: ByteBuffer(bytes: data), contentType: contentType(of: name), etag: "\"\(ImageRoutes.hash(String(decoding: data, as: UTF8.self)))\"")
        }
        if let index = files["/index.html"] { files["/"] = index }
        if let api = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "OpenAPI") {
            let data = try Data(contentsOf: api)
            files["/openapi.json"] = File(
                bytes: ByteBuffer(bytes: data), contentType: "application/json; charset=utf-8",
                etag: "\"\(ImageRoutes.hash(String(decoding: data, as: UTF8.self)))\"")
        }
        return StaticRoutes(files: files)
    }

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    func add(to router: Router<PhotosRequestContext>) {
        for (path, file) in files {
            router.get(RouterPath(path)) { request, _ in respond(file, request) }
            if path == "/openapi.json" {
                router.get("api/openapi.json") { request, _ in respond(file, request) }
            }
        }
    }

    private func respond(_ file: File, _ request: Request) -> Response {
        var headers: HTTPFields = [.eTag: file.etag, .cacheControl: "no-cache"]
        if let match = request.headers[.ifNoneMatch], ImageRoutes.matches(match, etag: file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.bytes))
    }
}
