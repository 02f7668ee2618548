import Foundation
import Hummingbird
import Photos

/// JSON in and out with one encoder setup, the package's (``JSONOutput/encoder(prettyPrinted:)``:
/// ISO 8601 dates, sorted keys, no escaped slashes).
enum JSONResponse {
    static let encoder = JSONOutput.encoder()

    static func data(_ value: some Encodable) -> Data {
        // Our own types encode plain values only; a failure is a programming error.
        (try? encoder.encode(value)) ?? Data(#"{"error":{"status":500,"reason":"encoding failed"}}"#.utf8)
    }

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data = data(value)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = fields[.cacheControl] ?? "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Decodes a JSON body of at most `limit` bytes, with a 400 naming what was wrong; dates are
    /// ISO 8601, as the API writes them.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 1 << 20) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, "The JSON body is larger than \(limit) bytes")
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(T.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, context) {
            throw APIError(.badRequest, "Invalid JSON body: missing '\(path(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw APIError(.badRequest, "Invalid JSON body at '\(path(context.codingPath))': \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            throw APIError(.badRequest, "Invalid JSON body: \(context.debugDescription)")
        } catch {
            throw APIError(.badRequest, "Invalid JSON body: \(error)")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
