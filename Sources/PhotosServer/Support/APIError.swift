import Foundation
import Photos
public import HTTPTypes
public import Hummingbird

/// An error answered as `{"error": {"status": 400, "reason": "..."}}`.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let reason: String
    var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status.code) \(reason)" }

    private struct Body: Encodable {
        struct Inner: Encodable {
            let status: Int
            let reason: String
        }
        let error: Inner
    }

    private var body: Body { Body(error: .init(status: status.code, reason: reason)) }

    /// `{"error": {"status": ..., "reason": ...}}`, also written by handlers outside the router.
    var jsonBody: Data { JSONResponse.data(body) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.make(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    static func badParameter(_ name: String, _ problem: String) -> APIError {
        APIError(.badRequest, "Query parameter '\(name)': \(problem)")
    }

    /// What a 503 for a database that is away says in `Retry-After`, in seconds.
    static let retryAfterSeconds = 2

    static func notFound(_ what: String) -> APIError {
        APIError(.notFound, "No \(what)")
    }
}

extension APIError {
    /// The HTTP status for a PhotoKit error, with its message.
    init(_ error: any Error) {
        if let error = error as? APIError {
            self = error
            return
        }
        guard let photos = error as? PHPhotosError else {
            self.init(.internalServerError, "\(error)")
            return
        }
        let status: HTTPResponse.Status =
            switch photos.code {
            case .identifierNotFound, .missingResource: .notFound
            case .changeNotSupported, .requestNotSupportedForAsset: .conflict
            case .invalidResource: .unprocessableContent
            case .networkAccessRequired, .networkError: .badGateway
            case .persistentChangeTokenExpired, .persistentChangeDetailsUnavailable: .gone
            case .accessRestricted, .accessUserDenied: .forbidden
            case .notEnoughSpace: .insufficientStorage
            case .userCancelled, .operationInterrupted, .libraryVolumeOffline: .serviceUnavailable
            default: .internalServerError
            }
        self.init(status, photos.message)
        // The database (or the library's volume) is away: ask again shortly.
        if photos.code == .libraryVolumeOffline { headers[.retryAfter] = String(Self.retryAfterSeconds) }
    }
}

extension HTTPResponse.Status {
    /// 507: the library's disk is full.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    /// What a session's changes carry (``AccessMiddleware/checkCSRF(_:session:)``).
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
    /// The scheme a reverse proxy was reached by (`https` makes session cookies `Secure`).
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    /// The addresses a request came through, as a reverse proxy appends them.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
