import Foundation
import PhotosTestSupport
import Testing

@testable import S3

/// Signature V4 against AWS's published S3 examples ("Signature Calculations for the
/// Authorization Header: Transferring Payload in a Single Chunk" and "Authenticating Requests:
/// Using Query Parameters") and against botocore's `S3SigV4Auth` on randomized requests.
@Suite("S3 Signature V4")
struct SignatureV4Tests {
    static let example = SignatureV4(
        credentials: AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    /// 20130524T000000Z.
    static let exampleDate = Date(timeIntervalSince1970: 1_369_353_600)

    static func signature(_ request: SignatureV4.Request) -> String? {
        request.headers.first { $0.name == "authorization" }?.value.components(separatedBy: "Signature=").last
    }

    @Test func awsGetObjectExample() {
        var request = SignatureV4.Request(
            method: "GET", path: "/test.txt", headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")])
        Self.example.sign(&request, payloadHash: SignatureV4.emptyPayloadHash, date: Self.exampleDate)
        #expect(request.headers.contains { $0 == ("x-amz-date", "20130524T000000Z") })
        #expect(
            request.headers.last?.value
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func awsPutObjectExample() {
        let body = Data("Welcome to Amazon S3.".utf8)
        #expect(SignatureV4.payloadHash(body) == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        var request = SignatureV4.Request(
            method: "PUT", path: "/" + S3Key.encodePath("test$file.text"),
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
            ])
        Self.example.sign(&request, payloadHash: SignatureV4.payloadHash(body), date: Self.exampleDate)
        #expect(request.path == "/test%24file.text")
        #expect(Self.signature(request) == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test func awsListObjectsExample() {
        var request = SignatureV4.Request(
            method: "GET", path: "/", query: [("max-keys", "2"), ("prefix", "J")], headers: [("Host", "examplebucket.s3.amazonaws.com")])
        Self.example.sign(&request, payloadHash: SignatureV4.emptyPayloadHash, date: Self.exampleDate)
        #expect(Self.signature(request) == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test func awsPresignedURLExample() {
        let request = SignatureV4.Request(method: "GET", path: "/test.txt", headers: [("Host", "examplebucket.s3.amazonaws.com")])
        let query = Self.example.presignedQuery(request, expires: 86_400, date: Self.exampleDate)
        #expect(query.last?.name == "X-Amz-Signature")
        #expect(query.last?.value == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        #expect(
            SignatureV4.canonicalQuery(query).hasPrefix(
                "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"))
    }

    @Test func keysAreEncodedAsS3SignsThem() {
        #expect(S3Key.encodePath("a b/ü+é=~x.jpg") == "a%20b/%C3%BC%2B%C3%A9%3D~x.jpg")
        #expect(S3Key.encode("a/b") == "a%2Fb")
        #expect(SignatureV4.timestamp(Self.exampleDate) == "20130524T000000Z")
    }

    /// 300 random requests: methods, keys with spaces, slashes and any Unicode, queries with
    /// empty values, headers with runs of spaces, dates, payloads and session tokens, each
    /// signed here and by botocore (the signer of the AWS CLI and boto3).
    @Test(.enabled(if: Self.botocoreReason == nil, Comment(rawValue: Self.botocoreReason ?? "")))
    func randomizedRequestsSignAsBotocoreDoes() throws {
        var random = SeededGenerator(seed: 0x5163_7634)
        let alphabet = Array("abcXYZ019 -_.~/!$&'()*+,;=:@%?#[]éüß日本😀\"<>")
        func text(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        var cases: [[String: Any]] = []
        var signed: [String] = []
        var described: [String] = []
        for index in 0..<300 {
            let credentials = AWSCredentials(
                accessKeyID: "AKID\(index)", secretAccessKey: text(10...40),
                sessionToken: Bool.random(using: &random) ? "token/\(text(5...30))" : nil)
            let region = ["us-east-1", "eu-west-3", "ap-southeast-2", "garage"].randomElement(using: &random)!
            let signer = SignatureV4(credentials: credentials, region: region)
            let method = ["GET", "PUT", "POST", "DELETE", "HEAD"].randomElement(using: &random)!
            let key = text(1...30)
            let path = "/bucket-\(index)/" + S3Key.encodePath(key)
            let query = (0..<Int.random(in: 0...4, using: &random)).map { _ in (name: text(1...8), value: Bool.random(using: &random) ? "" : text(0...12)) }
            var headers: [(name: String, value: String)] = [("Host", "127.0.0.1:\(9000 + index)")]
            for number in 0..<Int.random(in: 0...3, using: &random) {
                headers.append(("X-Amz-Meta-Field\(number)", "  \(text(1...10))   \(text(0...10))  ".replacingOccurrences(of: "\"", with: "")))
            }
            if Bool.random(using: &random) { headers.append(("Range", "bytes=\(index)-\(index * 7 + 9)")) }
            let body = Data(text(0...50).utf8)
            let date = Date(timeIntervalSince1970: Double(Int.random(in: 1_300_000_000...2_000_000_000, using: &random)))
            var request = SignatureV4.Request(method: method, path: path, query: query, headers: headers)
            signer.sign(&request, payloadHash: SignatureV4.payloadHash(body), date: date)
            signed.append(request.headers.first { $0.name == "authorization" }!.value)
            described.append("\(method) \(path)?\(request.queryString)")
            cases.append([
                "method": method, "url": "http://127.0.0.1:\(9000 + index)\(path)" + (query.isEmpty ? "" : "?" + request.queryString),
                "headers": headers.dropFirst().map { [$0.name, $0.value] }, "body": body.base64EncodedString(),
                "date": SignatureV4.timestamp(date), "key": credentials.accessKeyID, "secret": credentials.secretAccessKey,
                "token": credentials.sessionToken ?? NSNull(), "region": region,
            ])
        }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: cases), as: UTF8.self)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sigv4-\(UUID().uuidString).json")
        try input.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ThrowawayS3.python(Self.botocoreSigner, [file.path])
        let theirs = output.split(separator: "\n").map(String.init)
        #expect(theirs.count == signed.count)
        for (index, (ours, botocore)) in zip(signed, theirs).enumerated() {
            let request = described[index]
            #expect(ours == botocore, "request \(index): \(request)")
        }
    }

    /// Presigned URLs with the answer's headers set (`response-content-disposition`, as a
    /// server redirecting a download makes them) carry the signature botocore's
    /// `S3SigV4QueryAuth` gives the same URL at the same time.
    @Test(.enabled(if: Self.botocoreReason == nil, Comment(rawValue: Self.botocoreReason ?? "")))
    func presignedURLsWithAnswerHeadersSignAsBotocoreDoes() throws {
        let client = S3Client(
            configuration: S3Configuration(
                credentials: AWSCredentials(accessKeyID: "AKIDPRESIGN", secretAccessKey: "secret/with+chars", sessionToken: "token=1"),
                region: "eu-west-3", endpoint: URL(string: "http://127.0.0.1:9000")!))
        let date = Date(timeIntervalSince1970: 1_780_000_000)
        let url = client.presignedURL(
            bucket: "photos", key: "library/originals/a b/ÉTÉ 1.jpeg", expires: 300,
            responseHeaders: [
                ("Content-Disposition", "attachment; filename=\"ÉTÉ 1.jpeg\"; filename*=UTF-8''%C3%89T%C3%89%201.jpeg"),
                ("Content-Type", "image/jpeg"),
            ], date: date)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let ours = try #require(components.queryItems?.first { $0.name == "X-Amz-Signature" }?.value)
        let theirs = try ThrowawayS3.python(
            """
            import datetime, sys, urllib.parse
            import botocore.auth as auth
            from botocore.awsrequest import AWSRequest
            from botocore.credentials import Credentials
            auth.get_current_datetime = lambda: datetime.datetime.utcfromtimestamp(1780000000)
            url = urllib.parse.urlsplit(sys.argv[1])
            kept = [(k, v) for k, v in urllib.parse.parse_qsl(url.query, keep_blank_values=True) if k.startswith('response-')]
            request = AWSRequest(method='GET', url=url._replace(query=urllib.parse.urlencode(kept, quote_via=urllib.parse.quote)).geturl())
            auth.S3SigV4QueryAuth(Credentials('AKIDPRESIGN', 'secret/with+chars', 'token=1'), 's3', 'eu-west-3', expires=300).add_auth(request)
            print(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(request.url).query))['X-Amz-Signature'])
            """, [url.absoluteString])
        #expect(ours == theirs, "\(url)")
    }

    static let botocoreReason: String? = {
        (try? ThrowawayS3.python("import botocore.auth", [])) == nil ? "botocore is not installed (pip install boto3; make test installs it)" : nil
    }()

    /// Signs each request of the JSON file with botocore's S3SigV4Auth at its date; prints
    /// the Authorization headers, one a line.
    static let botocoreSigner = """
        import base64, datetime, json, sys
        import botocore.auth as auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
        for case in json.load(open(sys.argv[1])):
            auth.get_current_datetime = lambda: datetime.datetime.strptime(case['date'], '%Y%m%dT%H%M%SZ')
            request = AWSRequest(method=case['method'], url=case['url'], data=base64.b64decode(case['body']))
            for name, value in case['headers']:
                request.headers[name] = value
            signer = auth.S3SigV4Auth(Credentials(case['key'], case['secret'], case['token']), 's3', case['region'])
            signer.add_auth(request)
            print(request.headers['Authorization'])
        """
}
