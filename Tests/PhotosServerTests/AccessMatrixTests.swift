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
        // The video the video routes are called with, on the limited token's list before the
        // server starts (a running server learns of allow-list edits asynchronously).
        _ = try fixture.video()
        let collection = try #require(
            fixture.library.withCurrent {
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil).firstObject?
                    .localIdentifier
            })
        let checked = try await fixture.withServer { client in
            var checked = 0
            for (method, path, operation) in try OpenAPITests.operations(OpenAPITests.document()) where !Self.public_.contains("\(method) \(path)") {
                let allowed = Set(operation["x-access-levels"] as? [String] ?? [])
                #expect(!allowed.isEmpty, "\(method) \(path) has no x-access-levels")
                for caller in Caller.allCases {
                    // The fixture's first asset is on the limited token's allow-list.
                    let key = "\(method) \(path)"
                    let token: String? =
                        switch caller {
                        case .nobody: nil
                        case .readWrite: fixture.readWrite
                        case .addOnly: fixture.addOnly
                        case .limited: fixture.limited
                        }
                    // An upload's status is asked for by whoever uploaded it.
                    let upload = path == "/api/uploads/{id}" ? try await DocumentedCall.upload(by: token, client) : nil
                    let call = try DocumentedCall(
                        method, path, fixture: fixture, collection: collection, uploadName: "matrix-\(caller.rawValue).jpg", upload: upload)
                    let response = try await client.call(call.method, call.uri, token: token, body: call.body, headers: call.headers)
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
