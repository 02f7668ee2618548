import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import Testing

/// `GET` and `HEAD /api/assets/{id}/original` as a byte-range server (RFC 9110): 206 for one
/// range, 416 past the end, the whole file for what it can't or won't read, `If-Range`,
/// `If-None-Match`, and the same access rules as every asset route.
@Suite("Server byte ranges")
struct RangeRequestTests {
    /// One range and the bytes it selects of a file of `size` bytes (at least 3,000).
    enum OneRange: String, CaseIterable, CustomTestStringConvertible {
        case first = "bytes=0-99"
        case middle = "bytes=1000-2499"
        case suffix = "bytes=-100"
        case openEnded = "bytes=1000-"
        case lastPastTheEnd = "bytes=2000-99999999999999999999999"
        case wholeSuffix = "bytes=-99999999"
        case oneByte = "bytes=5-5"
        case spacedUpperCaseUnit = "BYTES= 7-9 ,"

        func expected(size: Int) -> ClosedRange<Int> {
            switch self {
            case .first: 0...99
            case .middle: 1000...2499
            case .suffix: (size - 100)...(size - 1)
            case .openEnded: 1000...(size - 1)
            case .lastPastTheEnd: 2000...(size - 1)
            case .wholeSuffix: 0...(size - 1)
            case .oneByte: 5...5
            case .spacedUpperCaseUnit: 7...9
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: OneRange.allCases)
    func oneRangeAnswers206WithExactlyItsBytes(_ range: OneRange) async throws {
        let (fixture, uri, stored) = try Self.photo()
        let expected = range.expected(size: stored.count)
        try await fixture.withServer { client in
            let response = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: range.rawValue])
            #expect(response.status == .partialContent)
            #expect(response.headers[.contentRange] == "bytes \(expected.lowerBound)-\(expected.upperBound)/\(stored.count)")
            #expect(response.headers[.contentLength] == String(expected.count))
            #expect(Data(response.body.readableBytesView) == stored[expected])
            #expect(response.headers[.acceptRanges] == "bytes")
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.contentDisposition]?.contains("photo0.jpg") == true)
            #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
        }
    }

    @Test func rangesStartingAtOrPastTheEndAnswer416() async throws {
        let (fixture, uri, stored) = try Self.photo()
        let size = stored.count
        try await fixture.withServer { client in
            for range in ["bytes=\(size)-", "bytes=\(size)-\(size + 10)", "bytes=\(size + 100)-", "bytes=-0", "bytes=99999999999999999999999-"] {
                let response = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: range])
                #expect(response.status == .rangeNotSatisfiable, "\(range)")
                #expect(response.headers[.contentRange] == "bytes */\(size)", "\(range)")
                #expect(try response.reason().contains("past the end"), "\(range)")
            }
            let last = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=\(size - 1)-"])
            #expect(last.status == .partialContent && Data(last.body.readableBytesView) == stored.suffix(1), "the last byte is in the file")
        }
    }

    /// RFC 9110: a `Range` the server can't read is ignored. Several ranges are read but
    /// answered whole: no `multipart/byteranges`.
    @Test func malformedOtherUnitsAndSeveralRangesAnswerTheWholeFile() async throws {
        let (fixture, uri, stored) = try Self.photo()
        let ignored = [
            "bytes=abc", "bytes=5-2", "items=0-5", "bytes=", "bytes 0-5", "bytes=--5", "bytes=1-2-3", "bytes=-", "bytes=0x10-20",
            "bytes=+5-10", "=0-5", "bytes=0-1,5-6", "bytes=0-1, -5",
        ]
        try await fixture.withServer { client in
            for range in ignored {
                let response = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: range])
                #expect(response.status == .ok, "\(range)")
                #expect(response.headers[.contentRange] == nil, "\(range)")
                #expect(response.headers[.contentLength] == String(stored.count), "\(range)")
                #expect(Data(response.body.readableBytesView) == stored, "\(range)")
            }
        }
    }

    @Test func ifRangeKeepsTheRangeOnlyWhileTheFileIsTheSame() async throws {
        let (fixture, uri, stored) = try Self.photo()
        let file = try Self.originalFile(fixture, fixture.assets[0])
        try await fixture.withServer { client in
            func status(_ ifRange: String) async throws -> HTTPResponse.Status {
                let response = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=10-19", .ifRange: ifRange])
                let body = Data(response.body.readableBytesView)
                #expect(body == (response.status == .partialContent ? stored[10...19] : stored), "\(ifRange)")
                return response.status
            }
            func validators(modified: Date) async throws -> (etag: String, date: String) {
                try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
                let head = try await client.call(.head, uri, token: fixture.readWrite)
                return (try #require(head.headers[.eTag]), try #require(head.headers[.lastModified]))
            }
            let fresh = try await client.call(.get, uri, token: fixture.readWrite)
            let etag = try #require(fresh.headers[.eTag])
            #expect(try await status(etag) == .partialContent)
            #expect(try await status("W/\(etag)") == .ok, "a weak tag never matches strongly")
            #expect(try await status("\"another\"") == .ok)

            // Changed within the last second (here: a clock ahead), the date is a weak validator.
            let recent = try await validators(modified: Date(timeIntervalSinceNow: 60))
            #expect(recent.etag != etag, "the tag follows the modification time")
            #expect(try await status(etag) == .ok, "the tag of the file before it changed")
            #expect(try await status(recent.etag) == .partialContent)
            #expect(try await status(recent.date) == .ok)

            // An hour old, it is a strong one.
            let old = try await validators(modified: Date(timeIntervalSinceNow: -3600))
            #expect(try await status(old.date) == .partialContent)
            #expect(try await status(old.etag) == .partialContent)
            #expect(try await status("Thu, 01 Jan 1970 00:00:00 GMT") == .ok)
            #expect(try await status("not a date") == .ok)
        }
    }

    @Test func headAnswersTheHeadersOfAGetWithoutTheBody() async throws {
        let (fixture, uri, stored) = try Self.photo()
        try await fixture.withServer { client in
            let get = try await client.call(.get, uri, token: fixture.readWrite)
            let head = try await client.call(.head, uri, token: fixture.readWrite)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            for name in [HTTPField.Name.contentLength, .contentType, .acceptRanges, .eTag, .lastModified, .contentDisposition, .cacheControl] {
                #expect(head.headers[name] != nil && head.headers[name] == get.headers[name], "\(name)")
            }
            #expect(head.headers[.contentLength] == String(stored.count))
            // RFC 9110 defines range handling for GET only.
            let ranged = try await client.call(.head, uri, token: fixture.readWrite, headers: [.range: "bytes=0-99"])
            #expect(ranged.status == .ok && ranged.headers[.contentRange] == nil && ranged.headers[.contentLength] == String(stored.count))
            let missing = try await client.call(.head, "/api/assets/\(UUID().uuidString)/original", token: fixture.readWrite)
            #expect(missing.status == .notFound)
        }
    }

    @Test func ifNoneMatchWithTheCurrentTagAnswers304() async throws {
        let (fixture, uri, _) = try Self.photo()
        try await fixture.withServer { client in
            let etag = try #require(try await client.call(.head, uri, token: fixture.readWrite).headers[.eTag])
            for tags in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let response = try await client.call(.get, uri, token: fixture.readWrite, headers: [.ifNoneMatch: tags, .range: "bytes=0-9"])
                #expect(response.status == .notModified, "\(tags)")
                #expect(response.body.readableBytes == 0 && response.headers[.eTag] == etag, "\(tags)")
            }
            let other = try await client.call(.get, uri, token: fixture.readWrite, headers: [.ifNoneMatch: "\"other\""])
            #expect(other.status == .ok)
        }
    }

    /// Several megabytes of seeded random bytes in a video, read in chunks from disk.
    @Test func aRangeOfALargeVideoStreamsByteForByte() async throws {
        let fixture = try ServerFixture(photos: 1)
        let (id, stored) = try Self.addVideo(to: fixture, mediaBytes: 6 << 20)
        let uri = "/api/assets/\(id)/original"
        try await fixture.withServer { client in
            let range = 1_000_003...5_500_000
            let asked: HTTPFields = [.range: "bytes=\(range.lowerBound)-\(range.upperBound)"]
            let response = try await client.call(.get, uri, token: fixture.readWrite, headers: asked)
            #expect(response.status == .partialContent)
            #expect(response.headers[.contentRange] == "bytes \(range.lowerBound)-\(range.upperBound)/\(stored.count)")
            #expect(response.headers[.contentType] == "video/mp4")
            #expect(response.body.readableBytes == range.count)
            #expect(Data(response.body.readableBytesView) == stored[range])
            let whole = try await client.call(.get, uri, token: fixture.readWrite)
            #expect(whole.status == .ok && Data(whole.body.readableBytesView) == stored)
        }
    }

    /// A limited token reads ranges of its allow-listed assets only; others are 404 to every
    /// method, with or without `Range`, as if they didn't exist.
    @Test func limitedTokensRangeReadOnlyTheirAllowList() async throws {
        let fixture = try ServerFixture(photos: 2)
        let allowed = "/api/assets/\(ServerFixture.uuid(fixture.assets[0]))/original"
        let (video, _) = try Self.addVideo(to: fixture, mediaBytes: 64 << 10)
        try await fixture.withServer { client in
            #expect(try await client.call(.get, allowed, token: fixture.limited, headers: [.range: "bytes=0-9"]).status == .partialContent)
            for id in [ServerFixture.uuid(fixture.assets[1]), video] {
                let uri = "/api/assets/\(id)/original"
                let calls: [(HTTPRequest.Method, HTTPFields)] = [(.get, [.range: "bytes=0-9"]), (.get, [.range: "bytes=-1"]), (.head, [:])]
                for (method, headers) in calls {
                    let response = try await client.call(method, uri, token: fixture.limited, headers: headers)
                    #expect(response.status == .notFound, "\(method) \(uri) \(headers)")
                    #expect(response.headers[.contentRange] == nil && response.headers[.eTag] == nil)
                }
                #expect(try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=0-9"]).status == .partialContent)
            }
            #expect(try await client.call(.head, allowed, token: fixture.addOnly).status == .forbidden)
            #expect(try await client.call(.head, allowed, token: nil).status == .unauthorized)
        }
    }

    /// An original in a remote store has no local file until it is fetched: until then it is
    /// answered whole, without ranges; its fetched copy is then served like any file.
    @Test func remoteOriginalsGetRangesOnceFetched() async throws {
        let fixture = try ServerFixture(photos: 1)
        let server = try TestHTTPServer()
        defer { server.stop() }
        let photo = try TestImages.jpeg(width: 900, height: 600, noisy: true)
        var created = ""
        try fixture.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.shouldReferenceFile = true
            request.addResource(with: .photo, fileURL: server.serve(photo, at: "/store/remote.jpg"), options: options)
            created = request.placeholderForCreatedAsset!.localIdentifier
        }
        let asset = try #require(fixture.asset(created))
        let uri = "/api/assets/\(ServerFixture.uuid(created))/original"
        try await fixture.withServer { client in
            let before = try await client.call(.head, uri, token: fixture.readWrite, headers: [.range: "bytes=0-9"])
            #expect(before.status == .ok && before.headers[.acceptRanges] == "none" && before.headers[.contentLength] == String(photo.count))
            // A GET fetches it (network access allowed) and streams it whole.
            let whole = try await client.call(.get, uri, token: fixture.readWrite)
            #expect(whole.status == .ok && Data(whole.body.readableBytesView) == photo)

            let options = PHImageRequestOptions()
            options.deliveryMode = .highQualityFormat
            options.isNetworkAccessAllowed = true
            options.isSynchronous = true
            var fetched = false
            PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 90, height: 60), contentMode: .aspectFit, options: options) {
                image, _ in fetched = image != nil
            }
            #expect(fetched)

            let after = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=100-1099"])
            #expect(after.status == .partialContent && after.headers[.acceptRanges] == "bytes")
            #expect(Data(after.body.readableBytesView) == photo[100...1099])
        }
    }

    /// Over a loopback socket: swift-nio frames the 206, the bodiless `HEAD` and 304 answers
    /// (which announce the file's length) and the 416.
    @Test func rangesOverARealConnection() async throws {
        let fixture = try ServerFixture(photos: 1)
        let (id, stored) = try Self.addVideo(to: fixture, mediaBytes: 3 << 20)
        let uri = "/api/assets/\(id)/original"
        try await fixture.withServer(live: true) { client in
            let tail = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=-2000000"])
            #expect(tail.status == .partialContent)
            #expect(Data(tail.body.readableBytesView) == stored.suffix(2_000_000))
            let head = try await client.call(.head, uri, token: fixture.readWrite)
            #expect(head.status == .ok && head.headers[.contentLength] == String(stored.count) && head.body.readableBytes == 0)
            let past = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=\(stored.count)-"])
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */\(stored.count)")
            let etag = try #require(head.headers[.eTag])
            let unchanged = try await client.call(.get, uri, token: fixture.readWrite, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified && unchanged.body.readableBytes == 0)
            // The connection still works after each.
            let first = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=0-99"])
            #expect(Data(first.body.readableBytesView) == stored.prefix(100))
        }
    }

    // MARK: - Fixtures

    /// A fixture's first photo: the fixture, its `/original` URI and its bytes.
    static func photo(function: String = #function) throws -> (ServerFixture, String, Data) {
        let fixture = try ServerFixture(photos: 1, function: function)
        let stored = try Data(contentsOf: fixture.temporary.scratch.appendingPathComponent("photo0.jpg"))
        try #require(stored.count >= 3000, "the ranges above need a file of 3,000 bytes or more: \(stored.count)")
        return (fixture, "/api/assets/\(ServerFixture.uuid(fixture.assets[0]))/original", stored)
    }

    /// The library's file of an asset's original.
    static func originalFile(_ fixture: ServerFixture, _ localIdentifier: String) throws -> URL {
        let asset = try #require(fixture.asset(localIdentifier))
        return try #require(fixture.library.withCurrent { PHAssetResource.assetResources(for: asset).first?.localFileURL })
    }

    /// Adds an MP4 whose media data is `mediaBytes` seeded random bytes; its id and bytes.
    static func addVideo(to fixture: ServerFixture, mediaBytes: Int) throws -> (String, Data) {
        var movie = TestMovie()
        movie.mediaDataSize = mediaBytes
        var bytes = [UInt8](movie.data())
        let start = try #require((0..<256).first { bytes[$0..<($0 + 4)].elementsEqual("mdat".utf8) }) + 4
        var generator = SeededGenerator(seed: 27923)
        bytes.withUnsafeMutableBytes { raw in
            for offset in stride(from: start, to: start + mediaBytes - 7, by: 8) {
                raw.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
            }
        }
        let url = fixture.temporary.scratch.appendingPathComponent("clip-\(mediaBytes).mp4")
        try Data(bytes).write(to: url)
        var created = ""
        try fixture.library.performChangesAndWait {
            created = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: url)!.placeholderForCreatedAsset!.localIdentifier
        }
        return (ServerFixture.uuid(created), Data(bytes))
    }
}
