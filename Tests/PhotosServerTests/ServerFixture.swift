import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import Testing

/// A library of real JPEGs (made with libvips, EXIF-dated a day apart, the first by a named
/// camera), a token of each level, and a way to run the server on it.
struct ServerFixture: Sendable {
    let temporary: TemporaryLibrary
    /// Local identifiers, oldest photo first.
    let assets: [String]
    let readWrite: String
    let addOnly: String
    let limited: String
    let limitedIdentifier: String

    var library: PHPhotoLibrary { temporary.library }

    /// `height`: of every photo (widths are 320, 336, …); `delegate`: the library's
    /// (``PHPhotoLibrary/Delegate``, which the server tells of its heavy work);
    /// `changeCheckInterval`: how often the library's watchers look without a wake-up.
    init(
        photos: Int = 4, height: Int = 240, delegate: (any PHPhotoLibrary.Delegate)? = nil,
        changeCheckInterval: DispatchTimeInterval? = nil, function: String = #function
    ) throws {
        var configuration = PHPhotoLibrary.Configuration()
        if let delegate { configuration.delegate = delegate }
        if let changeCheckInterval { configuration.changeCheckInterval = changeCheckInterval }
        // bcrypt's least cost: people's passwords are checked in many tests.
        configuration.passwordHashCost = 4
        temporary = try TemporaryLibrary(configuration: configuration, function: function)
        var urls: [URL] = []
        for index in 0..<photos {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = String(format: "2024:05:%02d 10:00:00", index + 1)
            if index == 0 {
                exif.make = "Fixture"
                exif.model = "Camera One"
            }
            let url = temporary.scratch.appendingPathComponent("photo\(index).jpg")
            try TestImages.writeJPEG(to: url, width: 320 + 16 * index, height: height, exif: exif)
            urls.append(url)
        }
        var created: [String] = []
        try temporary.library.performChangesAndWait {
            for url in urls {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, fileURL: url, options: nil)
                created.append(request.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        assets = created
        readWrite = try temporary.library.createAccessToken(named: "owner", level: .readWrite).secret
        addOnly = try temporary.library.createAccessToken(named: "frame uploader", level: .addOnly).secret
        let (token, secret) = try temporary.library.createAccessToken(named: "grandma", level: .limited)
        limited = secret
        limitedIdentifier = token.identifier
        try temporary.library.changeLimitedLibrary(ofAccessToken: token.identifier, .add(Array(created.prefix(1))))
    }

    static func uuid(_ localIdentifier: String) -> String {
        String(localIdentifier.prefix(36))
    }

    /// Runs `body` against the server's router (no socket), or `.live` on a loopback port.
    /// `served`: the library the server is given (the fixture's whole one unless said: `photos
    /// serve` gives a library with people as its owner's).
    func withServer<T: Sendable>(
        _ configuration: ServerConfiguration = ServerConfiguration(), live: Bool = false, served: PHPhotoLibrary? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        if live { configuration.port = 0 }
        let application = try buildApplication(library: served ?? library, configuration: configuration)
        return try await application.test(live ? .live : .router, body)
    }

    /// The library's video, made (a real H.264 clip) and put on the limited token's list the
    /// first time.
    func video() throws -> String {
        if let found = temporary.library.withCurrent({ PHAsset.fetchAssets(with: .video, options: nil).firstObject }) {
            return found.localIdentifier
        }
        let url = try TestClip().write(to: temporary.scratch.appendingPathComponent("clip.mp4"))
        var identifier: String?
        try temporary.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: url)?.placeholderForCreatedAsset?.localIdentifier
        }
        let created = try #require(identifier)
        try temporary.library.changeLimitedLibrary(ofAccessToken: limitedIdentifier, .add([created]))
        return created
    }

    func asset(_ localIdentifier: String) -> PHAsset? {
        temporary.library.withCurrent {
            let options = PHFetchOptions()
            options.includeHiddenAssets = true
            return PHAsset.fetchAssets(withLocalIdentifiers: [localIdentifier], options: options).firstObject
        }
    }
}

extension TestClientProtocol {
    /// A request with a bearer token (or none) and an optional JSON or raw body.
    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ uri: String, token: String?, json: String? = nil, body: ByteBuffer? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var payload = body
        if let json {
            headers[.contentType] = "application/json"
            payload = ByteBuffer(string: json)
        }
        return try await execute(uri: uri, method: method, headers: headers, body: payload)
    }
}

extension TestResponse {
    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        let data = Data(body.readableBytesView)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object: \(String(decoding: data, as: UTF8.self))")
    }

    /// The `reason` of an error body.
    func reason() throws -> String {
        (try json()["error"] as? [String: Any])?["reason"] as? String ?? ""
    }
}

extension HTTPField.Name {
    /// What a cookie session's changes carry.
    static let csrf = HTTPField.Name("X-CSRF-Token")!
    /// A reverse proxy's word that the client came over TLS.
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
