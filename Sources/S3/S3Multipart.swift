import AsyncHTTPClient
import Foundation
import NIOCore

extension S3Client {
    /// A part's answer: what CompleteMultipartUpload names it by.
    struct UploadedPart: Sendable {
        var number: Int
        var eTag: String
        var checksum: String
    }

    /// CreateMultipartUpload, the parts (`partSize` bytes each, the last shorter, `concurrency`
    /// at once, each with its SHA-256 checked by the server), CompleteMultipartUpload. Any
    /// failure aborts the upload, so no parts are left behind to be billed.
    func multipartUpload(
        bucket: String, key: String, file: URL, size: Int64, contentType: String?, partSize: Int64, concurrency: Int
    ) async throws(S3Error) {
        let uploadID = try await startUpload(bucket: bucket, key: key, contentType: contentType)
        do throws(S3Error) {
            let parts = try await uploadParts(
                bucket: bucket, key: key, uploadID: uploadID, file: file, size: size, partSize: partSize, concurrency: concurrency)
            try await completeUpload(bucket: bucket, key: key, uploadID: uploadID, parts: parts)
        } catch {
            try? await abortUpload(bucket: bucket, key: key, uploadID: uploadID)
            throw error
        }
    }

    /// CreateMultipartUpload, with SHA-256 as the parts' checksum: the upload's ID.
    func startUpload(bucket: String, key: String, contentType: String?) async throws(S3Error) -> String {
        var headers: [(String, String)] = [("x-amz-checksum-algorithm", "SHA256")]
        if let contentType { headers.append(("content-type", contentType)) }
        let created = try await send(
            "POST", bucket: bucket, key: key, query: [("uploads", "")], headers: headers, payloadHash: SignatureV4.emptyPayloadHash,
            what: "start uploading")
        let createdBody = try await Self.collect(created, what: "the answer to starting s3://\(bucket)/\(key)")
        guard let uploadID = S3XMLElement.parse(createdBody)?["UploadId"] else {
            throw S3Error(.failed, "Starting the upload of s3://\(bucket)/\(key) gave no UploadId")
        }
        return uploadID
    }

    /// CompleteMultipartUpload, naming each part by its number, ETag and SHA-256.
    func completeUpload(bucket: String, key: String, uploadID: String, parts: [UploadedPart]) async throws(S3Error) {
        let xml =
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            + parts.map {
                "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(Self.escapeXML($0.eTag))</ETag>"
                    + "<ChecksumSHA256>\($0.checksum)</ChecksumSHA256></Part>"
            }.joined() + "</CompleteMultipartUpload>"
        let body = Data(xml.utf8)
        let completed = try await send(
            "POST", bucket: bucket, key: key, query: [("uploadId", uploadID)],
            headers: [("content-type", "application/xml"), ("content-length", String(body.count))],
            payloadHash: SignatureV4.payloadHash(body), body: { .bytes(ByteBuffer(bytes: body)) }, what: "finish uploading")
        // A 200 may still carry an error (S3 sends its headers before it knows).
        let answer = try await Self.collect(completed, what: "the answer to finishing s3://\(bucket)/\(key)")
        if let root = S3XMLElement.parse(answer), root.name == "Error" {
            throw S3ServerError.make(status: 200, body: answer, name: "s3://\(bucket)/\(key)", what: "finish uploading")
        }
    }

    private func uploadParts(
        bucket: String, key: String, uploadID: String, file: URL, size: Int64, partSize: Int64, concurrency: Int
    ) async throws(S3Error) -> [UploadedPart] {
        let ranges = stride(from: Int64(0), to: size, by: Int(partSize)).map { $0..<min($0 + partSize, size) }
        do {
            return try await withThrowingTaskGroup(of: UploadedPart.self) { group in
                var parts: [UploadedPart] = []
                var next = 0
                func addPart() {
                    let number = next + 1
                    let range = ranges[next]
                    next += 1
                    group.addTask {
                        try await self.uploadPart(bucket: bucket, key: key, uploadID: uploadID, number: number, file: file, range: range)
                    }
                }
                while next < min(max(1, concurrency), ranges.count) { addPart() }
                while let part = try await group.next() {
                    parts.append(part)
                    if next < ranges.count { addPart() }
                }
                return parts.sorted { $0.number < $1.number }
            }
        } catch let error as S3Error {
            throw error
        } catch {
            throw S3Error(.failed, "Uploading s3://\(bucket)/\(key) failed: \(error)")
        }
    }

    private func uploadPart(bucket: String, key: String, uploadID: String, number: Int, file: URL, range: Range<Int64>) async throws(S3Error)
        -> UploadedPart
    {
        let digest = try await SHA256Digest(file: file, range: range)
        let response = try await send(
            "PUT", bucket: bucket, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
            headers: digest.headers + [("content-length", String(range.count))], payloadHash: digest.hex,
            body: { Self.fileBody(file, range: range) }, what: "upload part \(number) of")
        guard let eTag = response.headers.first(name: "etag") else {
            throw S3Error(.failed, "Part \(number) of s3://\(bucket)/\(key) was answered without an ETag")
        }
        return UploadedPart(number: number, eTag: eTag, checksum: digest.base64)
    }

    /// AbortMultipartUpload: the parts uploaded so far are deleted.
    func abortUpload(bucket: String, key: String, uploadID: String) async throws(S3Error) {
        _ = try await send(
            "DELETE", bucket: bucket, key: key, query: [("uploadId", uploadID)], headers: [], payloadHash: SignatureV4.emptyPayloadHash,
            what: "abort the upload of")
    }

    static func escapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
