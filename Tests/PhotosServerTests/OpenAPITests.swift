import Foundation
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// `/openapi.json` describes the server as it is: every route is documented and every
/// documented operation answers with a documented status and, for JSON, the schema's
/// required properties.
@Suite("Server OpenAPI document")
struct OpenAPITests {
    static func document() throws -> [String: Any] {
        let url = try #require(Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "OpenAPI"))
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func operations(_ document: [String: Any]) -> [(method: String, path: String, operation: [String: Any])] {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return paths.flatMap { path, item in
            item.compactMap { method, value -> (String, String, [String: Any])? in
                guard ["get", "head", "post", "put", "patch", "delete"].contains(method), let operation = value as? [String: Any] else { return nil }
                return (method.uppercased(), path, operation)
            }
        }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    @Test func everyRouteIsDocumentedAndNothingElse() throws {
        let fixture = try ServerFixture(photos: 0)
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let router = try buildRouter(service)
        let routed = Set(
            router.routes.map { "\($0.method) \($0.path)" }.filter { $0.contains(" /api/") || $0.hasSuffix(" /openapi.json") || $0.hasSuffix(" /healthz") }
                + ["GET /api/live"])
        let document = try Self.document()
        let documented = Set(Self.operations(document).map { "\($0.method) \($0.path)" })
        #expect(routed == documented, "routed only: \(routed.subtracting(documented)); documented only: \(documented.subtracting(routed))")
        let ids = Self.operations(document).compactMap { $0.operation["operationId"] as? String }
        #expect(Set(ids).count == Self.operations(document).count, "operationIds are unique and present")
        #expect(document["openapi"] as? String == "3.1.0")
    }

    @Test func documentedOperationsAnswerAsDocumented() async throws {
        let fixture = try ServerFixture(photos: 2)
        try await fixture.withServer { client in
            let document = try Self.document()
            let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]] ?? [:]
            let operations = Self.operations(document).filter { $0.path != "/api/live" }
            // Revoking runs last, on a token made for it.
            for (method, path, operation) in operations.sorted(by: { a, _ in a.method != "DELETE" }) {
                let key = "\(method) \(path)"
                let upload = path == "/api/uploads/{id}" ? try await DocumentedCall.upload(by: fixture.readWrite, client) : nil
                let call = try DocumentedCall(method, path, fixture: fixture, upload: upload)
                let response = try await client.call(call.method, call.uri, token: fixture.readWrite, body: call.body, headers: call.headers)
                let code = String(response.status.code)
                let responses = operation["responses"] as? [String: Any] ?? [:]
                #expect(responses[code] != nil, "\(key) answered \(code), which is not documented")
                guard response.status.code < 300, response.headers[.contentType]?.hasPrefix("application/json") == true,
                    let documented = responses[code] as? [String: Any],
                    let content = (documented["content"] as? [String: Any])?["application/json"] as? [String: Any],
                    let schema = content["schema"] as? [String: Any]
                else { continue }
                let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                Self.check(json, against: schema, schemas: schemas, at: key)
            }
        }
    }

    /// Required properties and basic types, following `$ref`s into arrays and objects.
    static func check(_ value: Any, against schema: [String: Any], schemas: [String: [String: Any]], at path: String) {
        var schema = schema
        if let reference = schema["$ref"] as? String, let resolved = schemas[String(reference.split(separator: "/").last ?? "")] {
            schema = resolved
        }
        if let object = value as? [String: Any] {
            for required in schema["required"] as? [String] ?? [] {
                #expect(object[required] != nil, "\(path): '\(required)' is required by the document but missing")
            }
            for (key, property) in schema["properties"] as? [String: [String: Any]] ?? [:] {
                if let nested = object[key] { check(nested, against: property, schemas: schemas, at: "\(path).\(key)") }
            }
            let documented = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
            if !documented.isEmpty {
                #expect(Set(object.keys).isSubset(of: documented), "\(path): undocumented \(Set(object.keys).subtracting(documented))")
            }
        } else if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { check(item, against: items, schemas: schemas, at: "\(path)[\(index)]") }
        }
    }
}

/// A request for a documented operation on a ``ServerFixture``: path parameters filled with its
/// first asset, `collection` (else that asset: a 404) and its limited token (a new token to
/// revoke for `DELETE`), and a body the operation accepts.
struct DocumentedCall {
    let method: HTTPRequest.Method
    let uri: String
    let body: ByteBuffer?
    let headers: HTTPFields
    /// The asset the call names (in its path or body), by local identifier.
    var assetIdentifier = ""

    init(method: HTTPRequest.Method, uri: String, body: ByteBuffer?, headers: HTTPFields, assetIdentifier: String) {
        self.method = method
        self.uri = uri
        self.body = body
        self.headers = headers
        self.assetIdentifier = assetIdentifier
    }

    /// The id of an upload `token` makes, for `GET /api/uploads/{id}`.
    static func upload(by token: String?, _ client: any TestClientProtocol) async throws -> String? {
        guard let token else { return nil }
        let response = try await client.call(.post, "/api/uploads?filename=status.jpg", token: token, body: ByteBuffer(bytes: try TestImages.jpeg()))
        let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return (json?["upload"] as? [String: Any])?["id"] as? String
    }

    init(
        _ method: String, _ path: String, fixture: ServerFixture, collection: String? = nil, uploadName: String = "doc.jpg",
        upload: String? = nil, asset localIdentifier: String? = nil
    ) throws {
        let asset = ServerFixture.uuid(localIdentifier ?? fixture.assets[0])
        let bodies: [String: String] = [
            "POST /api/changes": #"{"operations":[{"op":"favorite","assets":["\#(asset)"],"value":true}]}"#,
            "POST /api/session": #"{"token":"\#(fixture.readWrite)"}"#,
            "POST /api/session/password": #"{"currentPassword":"old password","newPassword":"new password"}"#,
            "POST /api/partners": #"{"person":"Ben"}"#,
            "POST /api/links": #"{"assets":["\#(asset)"]}"#,
            "POST /api/links/unlock": #"{"password":"some password"}"#,
            "POST /api/partners/{person}/timeline": #"{"show":true}"#,
            "POST /api/tokens": #"{"name":"doc","level":"limited","assets":["\#(asset)"]}"#,
            "POST /api/tokens/{token}/assets": #"{"add":["\#(asset)"]}"#,
            "POST /api/people": #"{"name":"\#(uploadName.prefix(20))","password":"new person's password"}"#,
            "PATCH /api/people/{person}": #"{"isAdmin":false}"#,
        ]
        // A video's route is called with a video (made with ffmpeg, on the limited token's list).
        let subject = path.hasSuffix("/video") ? ServerFixture.uuid(try fixture.video()) : asset
        assetIdentifier = path.hasSuffix("/video") ? try fixture.video() : localIdentifier ?? fixture.assets[0]
        var uri = path.replacingOccurrences(
            of: "{id}", with: path.hasPrefix("/api/collections") ? collection.map(ServerFixture.uuid) ?? asset : subject)
        if path.hasPrefix("/api/tokens/{token}") {
            let token = method == "DELETE"
                ? try fixture.library.createAccessToken(named: "revoke me", level: .readWrite).token.identifier
                : fixture.limitedIdentifier
            uri = uri.replacingOccurrences(of: "{token}", with: token)
        }
        uri = uri.replacingOccurrences(of: "{person}", with: "Ben")
        if path == "/api/links/{id}" {
            let assets = fixture.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil).map { $0 } }
            uri = "/api/links/" + (try fixture.library.createShareLink(assets: assets, title: "revoke me").link.identifier)
        }
        if path == "/api/uploads" { uri += "?filename=\(uploadName)" }
        if path == "/api/search" { uri += "?q=jpg" }
        if path == "/api/uploads/{id}" { uri = "/api/uploads/\(upload ?? UUID().uuidString)" }
        let json = bodies["\(method) \(path)"]
        self.method = HTTPRequest.Method(rawValue: method)!
        self.uri = uri
        body = path == "/api/uploads" ? ByteBuffer(bytes: try TestImages.jpeg()) : json.map { ByteBuffer(string: $0) }
        headers = json != nil ? [.contentType: "application/json"] : [:]
    }
}
