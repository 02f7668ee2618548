import Foundation
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Every documented operation, called by every kind of client: none (401), and each token
/// level, which gets through exactly when the document's `x-access-levels` lists it (403
/// otherwise; 404 for a limited token asking for a collection, which it can't see).
@Suite("Server access matrix")
struct AccessMatrixTests {
    enum Caller: String, CaseIterable {
        case nobody, readWrite = "read-write", addOnly = "add-only", limited
    }

    /// Operations outside the token check: signing in and out, the document itself, and the
    /// WebSocket (checked in ``ConnectionTests/refusedWebSocketUpgradesSayWhy()``).
    static let public_ = ["POST /api/session", "DELETE /api/session", "GET /openapi.json", "GET /api/openapi.json", "GET /api/live"]

    @Test func everyOperationAnswersEachCallerAsDocumented() async throws {
        let fixture = try ServerFixture(photos: 2)
        let asset = ServerFixture.uuid(fixture.assets[0])  // on the limited token's allow-list
        let collection = try #require(
            fixture.library.withCurrent {
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil).firstObject?
                    .localIdentifier
            })
        let jpeg = try TestImages.jpeg(width: 64, height: 48)
        let bodies: [String: String] = [
            "POST /api/changes": #"{"operations":[{"op":"favorite","assets":["\#(asset)"],"value":true}]}"#,
            "POST /api/tokens": #"{"name":"matrix","level":"limited","assets":["\#(asset)"]}"#,
            "POST /api/tokens/{token}/assets": #"{"add":["\#(asset)"]}"#,
        ]
        let checked = try await fixture.withServer { client in
            var checked = 0
            for (method, path, operation) in try OpenAPITests.operations(OpenAPITests.document()) where !Self.public_.contains("\(method) \(path)") {
                let allowed = Set(operation["x-access-levels"] as? [String] ?? [])
                #expect(!allowed.isEmpty, "\(method) \(path) has no x-access-levels")
                for caller in Caller.allCases {
                    var uri = path.replacingOccurrences(of: "{id}", with: path.hasPrefix("/api/collections") ? ServerFixture.uuid(collection) : asset)
                    if path.hasPrefix("/api/tokens/{token}") {
                        // Revoking needs a token of its own each time.
                        let token = method == "DELETE"
                            ? try fixture.library.createAccessToken(named: "revoke me", level: .readWrite).token.identifier
                            : fixture.limitedIdentifier
                        uri = uri.replacingOccurrences(of: "{token}", with: token)
                    }
                    if path == "/api/uploads" { uri += "?filename=matrix-\(caller.rawValue).jpg" }
                    let key = "\(method) \(path)"
                    let body = path == "/api/uploads" ? ByteBuffer(bytes: jpeg) : bodies[key].map { ByteBuffer(string: $0) }
                    let token: String? =
                        switch caller {
                        case .nobody: nil
                        case .readWrite: fixture.readWrite
                        case .addOnly: fixture.addOnly
                        case .limited: fixture.limited
                        }
                    let response = try await client.call(
                        HTTPRequest.Method(rawValue: method)!, uri, token: token, body: body,
                        headers: bodies[key] != nil ? [.contentType: "application/json"] : [:])
                    let status = response.status.code
                    let reason = status >= 400 ? (try? response.reason()) ?? "" : ""
                    let what = "\(key) by \(caller.rawValue): \(status) \(reason)"
                    switch caller {
                    case .nobody:
                        #expect(status == 401, "\(what)")
                    case _ where allowed.contains(caller.rawValue):
                        #expect(status < 400, "\(what)")
                    case .limited where path.hasPrefix("/api/collections/"):
                        #expect(status == 404, "\(what)")
                    default:
                        #expect(status == 403, "\(what)")
                    }
                    checked += 1
                }
            }
            return checked
        }
        #expect(checked >= 15 * Caller.allCases.count, "\(checked) calls")
    }
}
