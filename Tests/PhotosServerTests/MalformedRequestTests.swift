import Foundation
import Hummingbird
import HummingbirdTesting
import PhotosTestSupport
import Testing

@testable import PhotosServer

#if canImport(Glibc)
    import Glibc
#endif

/// Requests the HTTP parser refuses get an answer at once (400, 414, 431) and the connection
/// closes; before, the client waited for the idle timeout with no reply.
@Suite("Server malformed requests")
struct MalformedRequestTests {
    /// Sends `raw` on a new connection and reads until the server closes it (`closed`), or until
    /// nothing came for 10 s (the server kept the connection open).
    static func exchange(_ raw: [UInt8], port: Int) throws -> (answer: String, closed: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var sent = 0
        while sent < raw.count {
            let written = raw[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { break }  // the server may stop reading once it has answered
            sent += written
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var closed = false
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                answer += buffer[..<count]
                continue
            }
            // The end of the stream, or a reset (the server closed with the rest of a large
            // request unread); not the receive timeout.
            closed = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            break
        }
        return (String(decoding: answer, as: UTF8.self), closed)
    }

    @Test(arguments: [
        ("control character in a header", Array("GET /api/assets HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u{01}b\r\n\r\n".utf8), "400"),
        ("200 KB query", Array("GET /api/assets?".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 200_000) + Array(" HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), "414"),
        // Just over the 80 KiB limit, sent with its headers in one write as curl and browsers
        // do: the read that crosses the limit holds the line's end too (was answered 431).
        ("84 KB path", Array("GET /".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 84_000) + Array(" HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), "414"),
        ("1 MB header", Array("GET /api/assets HTTP/1.1\r\nHost: localhost\r\nX-Big: ".utf8) + [UInt8](repeating: UInt8(ascii: "b"), count: 1_000_000) + Array("\r\n\r\n".utf8), "431"),
    ])
    func refusedAtOnce(what: String, request: [UInt8], status: String) async throws {
        let fixture = try ServerFixture(photos: 1)
        var configuration = ServerConfiguration()
        // Longer than the client's 10 s: only the close that follows the answer ends the read.
        configuration.refusedRequestLinger = 3600
        try await fixture.withServer(configuration, live: true) { client in
            let port = try #require(client.port)
            let (answer, closed) = try Self.exchange(request, port: port)
            #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(what): \(answer.prefix(80))")
            #expect(answer.contains("Connection: close"), "\(what)")
            #expect(closed, "\(what): the server kept the connection open after answering")
            // The server goes on serving.
            let fine = try await client.call(.get, "/openapi.json", token: nil)
            #expect(fine.status == .ok)
        }
    }
}
