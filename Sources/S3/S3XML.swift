import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// S3's XML answers read into a tree of elements (names without namespaces, text trimmed).
struct S3XMLElement {
    var name: String
    var text = ""
    var children: [S3XMLElement] = []

    func child(_ name: String) -> S3XMLElement? {
        children.first { $0.name == name }
    }

    func all(_ name: String) -> [S3XMLElement] {
        children.filter { $0.name == name }
    }

    subscript(_ name: String) -> String? {
        child(name)?.text
    }

    static func parse(_ data: Data) -> S3XMLElement? {
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [S3XMLElement] = []
        var root: S3XMLElement?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(S3XMLElement(name: local))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard var element = stack.popLast() else { return }
            element.text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}

/// A page of ListObjectsV2.
struct S3ListPage {
    var objects: [S3Client.ListedObject]
    /// The continuation token of the next page, when the listing is truncated.
    var next: String?

    init(xml: Data) throws(S3Error) {
        guard let root = S3XMLElement.parse(xml), root.name == "ListBucketResult" else {
            throw S3Error(.failed, "The bucket's listing is not a ListBucketResult: \(String(decoding: xml.prefix(200), as: UTF8.self))")
        }
        objects = root.all("Contents").compactMap { contents in
            guard let key = contents["Key"] else { return nil }
            return S3Client.ListedObject(
                key: key, size: Int64(contents["Size"] ?? "") ?? 0, lastModified: contents["LastModified"].flatMap(S3XMLDate.parse),
                eTag: contents["ETag"])
        }
        next = root["IsTruncated"] == "true" ? root["NextContinuationToken"] : nil
    }
}

enum S3XMLDate {
    /// `2026-12-03T07:20:22.000Z`, with or without the fraction.
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// An error answer (`<Error><Code>…</Code><Message>…</Message></Error>`) as an ``S3Error``.
enum S3ServerError {
    static func make(status: Int, body: Data, name: String, what: String) -> S3Error {
        let root = body.isEmpty ? nil : S3XMLElement.parse(body)
        let code = root?["Code"] ?? defaultCode(status)
        let message = root?["Message"].map { ": \($0)" } ?? ""
        let said = "Could not \(what) \(name): the server answered \(status) \(code)\(message)"
        let kind: S3Error.Kind
        switch code {
        case "NoSuchBucket": kind = .noSuchBucket
        case "NoSuchKey", "NotFound": kind = .noSuchKey
        case "RequestTimeTooSkewed":
            return S3Error(.clockSkew, said + " (\(skew(root)); set it right, e.g. with NTP)", status: status, code: code)
        case "InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "Forbidden", "InvalidToken", "ExpiredToken":
            kind = .credentials
        case "BadDigest", "InvalidDigest", "XAmzContentSHA256Mismatch", "IncompleteBody": kind = .integrity
        default: kind = status >= 500 || status == 429 ? .unavailable : .failed
        }
        return S3Error(kind, said, status: status, code: code)
    }

    /// What a body-less answer (to HEAD) means.
    static func defaultCode(_ status: Int) -> String {
        switch status {
        case 404: "NotFound"
        case 403: "Forbidden"
        case 400: "BadRequest"
        case 503: "ServiceUnavailable"
        default: "HTTP\(status)"
        }
    }

    /// How far this machine's clock is from the store's, from a `RequestTimeTooSkewed`
    /// answer's `RequestTime` (`20250101T120000Z`) and `ServerTime` (ISO 8601).
    static func skew(_ root: S3XMLElement?) -> String {
        let signed = root?["RequestTime"].flatMap { text -> Date? in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return formatter.date(from: text)
        }
        let server = root?["ServerTime"].flatMap { ISO8601DateFormatter().date(from: $0) }
        guard let signed, let server else { return "this machine's clock is too far from the store's" }
        let minutes = Int((abs(signed.timeIntervalSince(server)) / 60).rounded())
        return "this machine's clock is \(minutes) minute\(minutes == 1 ? "" : "s") \(signed < server ? "behind" : "ahead of") the store's"
    }
}
