import Foundation
import Hummingbird
import HummingbirdTesting
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Connections over a real socket: what browsers do besides asking (abort, keep spare
/// connections open) and what a refused WebSocket upgrade answers.
@Suite("Server connections")
struct ConnectionTests {
    /// A browser aborting a request (a grid cell scrolled away) closes its connection; the
    /// server allows half-closure, so it closes its side at once and cancels work for it
    /// (``ConnectionWatch``) instead of keeping it until the answer is written.
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func aClientThatClosesItsSideIsDisconnected() async throws {
        let fixture = try ServerFixture(photos: 0)
        try await fixture.withServer(live: true) { client in
            let connection = try RawConnection(port: #require(client.port))
            try connection.send("GET /favicon.svg HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try await connection.readResponse()
            #expect(response.status == 200)
            connection.shutdownWrite()
            let end = await connection.readToEnd()
            #expect(end.closed && end.bytes.isEmpty, "the server closed the connection (not the 30 s read timeout)")
        }
    }

    /// A connection that never asks anything is closed after the first-request timeout.
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func aConnectionThatAsksNothingIsClosed() async throws {
        let fixture = try ServerFixture(photos: 0)
        var configuration = ServerConfiguration()
        configuration.firstRequestTimeout = 0.3
        try await fixture.withServer(configuration, live: true) { client in
            let connection = try RawConnection(port: #require(client.port), timeout: 20)
            let started = Date()
            let end = await connection.readToEnd()
            let waited = Date().timeIntervalSince(started)
            #expect(end.closed, "closed by the server, not by the 20 s read timeout")
            #expect(waited >= 0.25, "closed after \(waited) s, before the timeout")
            // A connection that asks in time is served.
            let prompt = try RawConnection(port: #require(client.port))
            try prompt.send("GET /favicon.svg HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await prompt.readResponse().status == 200)
        }
    }

    /// A request whose body stops coming is closed after the idle timeout; before, the route
    /// waited for the body for good (found by `make reliability`: a connection held for 80 s
    /// and counting).
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func aStalledBodyIsClosed() async throws {
        let fixture = try ServerFixture(photos: 1)
        var configuration = ServerConfiguration()
        configuration.idleTimeout = 0.5
        try await fixture.withServer(configuration, live: true) { client in
            let connection = try RawConnection(port: #require(client.port), timeout: 20)
            // Measured from before the send: the server's clock starts when it reads the head.
            let started = Date()
            try connection.send(
                "POST /api/changes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(fixture.readWrite)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"operations\"")
            let end = await connection.readToEnd()
            let waited = Date().timeIntervalSince(started)
            #expect(end.closed, "closed by the server, not by the 20 s read timeout")
            #expect(waited >= 0.4, "closed after \(waited) s, before the timeout")
        }
    }

    /// A body that trickles in, each piece within the idle timeout, is read to its end and
    /// answered, however long it takes in all.
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func aSlowBodyThatKeepsComingIsAnswered() async throws {
        let fixture = try ServerFixture(photos: 1)
        var configuration = ServerConfiguration()
        configuration.idleTimeout = 1.5
        try await fixture.withServer(configuration, live: true) { client in
            let connection = try RawConnection(port: #require(client.port), timeout: 20)
            let body = Array(#"{"operations": [{"op": "favorite", "asset": "\#(fixture.assets[0])", "value": true}]}"#.utf8)
            try connection.send(
                "POST /api/changes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(fixture.readWrite)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
            // Five pieces 0.5 s apart: 2.5 s in all, longer than the timeout, never idle that long.
            let size = (body.count + 4) / 5
            let pieces = stride(from: 0, to: body.count, by: size).map { String(decoding: body[$0..<min($0 + size, body.count)], as: UTF8.self) }
            try await connection.trickle(pieces, every: 0.5)
            #expect(try await connection.readResponse().status == 200)
        }
    }

    /// A kept-alive connection that asks nothing after its answer is closed after the idle
    /// timeout, as one that never asked anything is after the first-request timeout.
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func aKeptAliveConnectionThatAsksNoMoreIsClosed() async throws {
        let fixture = try ServerFixture(photos: 0)
        var configuration = ServerConfiguration()
        configuration.idleTimeout = 0.5
        try await fixture.withServer(configuration, live: true) { client in
            let connection = try RawConnection(port: #require(client.port), timeout: 20)
            // Measured from before the request: the server's clock starts when its answer ends.
            let started = Date()
            try connection.send("GET /favicon.svg HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await connection.readResponse().status == 200)
            let end = await connection.readToEnd()
            let waited = Date().timeIntervalSince(started)
            #expect(end.closed && end.bytes.isEmpty, "closed by the server, not by the 20 s read timeout")
            #expect(waited >= 0.4, "closed after \(waited) s, before the timeout")
        }
    }

    /// A request with an `Upgrade` header the server won't follow is answered as HTTP/1.1;
    /// before, swift-nio's upgrade handler lost its head and the connection closed without an
    /// answer (found by `make reliability`: `curl --http2` asks `Upgrade: h2c`).
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor)), arguments: [
        ("h2c, as curl --http2 asks", "GET /openapi.json", "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n", 200),
        ("an unknown protocol", "GET /openapi.json", "Upgrade: foo/2\r\nConnection: Upgrade\r\n", 200),
        ("WebSocket on another path", "GET /api/assets", "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n", 200),
        ("a body", "POST /api/changes", "Upgrade: foo\r\nContent-Type: application/json\r\nContent-Length: 18\r\n", 400),
    ])
    func upgradesTheServerWontFollowAreAnswered(what: String, line: String, headers: String, status: Int) async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withServer(live: true) { client in
            let connection = try RawConnection(port: #require(client.port))
            let body = line.hasPrefix("POST") ? #"{"operations": []}"# : ""
            try connection.send("\(line) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(fixture.readWrite)\r\n\(headers)\r\n\(body)")
            #expect(try await connection.readResponse().status == status, "\(what)")
        }
    }

    /// Spare connections that asked nothing don't hold the server's shutdown (they would,
    /// forever, without ``LiveUpgradeGate``: before its first request a connection has none of
    /// Hummingbird's shutdown handling).
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func idleConnectionsDontHoldTheShutdown() async throws {
        let fixture = try ServerFixture(photos: 0)
        var configuration = ServerConfiguration()
        configuration.firstRequestTimeout = 3600  // the shutdown, not the timeout, closes them
        let connections = try await fixture.withServer(configuration, live: true) { client in
            let idle = try (0..<3).map { _ in try RawConnection(port: #require(client.port), timeout: 10) }
            // The server accepts in order: once a later connection is answered, the idle ones
            // are the server's (before, one still in the kernel's backlog was reset by the
            // shutdown instead of closed, and the test failed about one run in two).
            let later = try RawConnection(port: #require(client.port))
            try later.send("GET /favicon.svg HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await later.readResponse().status == 200)
            return idle
        }
        for connection in connections { #expect(await connection.readToEnd().closed, "closed by the server's shutdown") }
    }

    /// A refused upgrade of `/api/live` answers like any API request: its status and a reason.
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func refusedWebSocketUpgradesSayWhy() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withServer(live: true) { client in
            let port = try #require(client.port)
            func upgrade(_ extra: String) async throws -> (status: Int, headers: [String: String], reason: String) {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "GET /api/live HTTP/1.1\r\nHost: localhost:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extra)\r\n")
                let response = try await connection.readResponse()
                let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                return (response.status, response.headers, (object?["error"] as? [String: Any])?["reason"] as? String ?? "")
            }
            let anonymous = try await upgrade("")
            #expect(anonymous.status == 401 && anonymous.reason.contains("Sign in"), "\(anonymous)")
            #expect(anonymous.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            let forged = try await upgrade("Authorization: Bearer pk_nonsense\r\n")
            #expect(forged.status == 401 && forged.reason.contains("not valid"), "\(forged)")
            let addOnly = try await upgrade("Authorization: Bearer \(fixture.addOnly)\r\n")
            #expect(addOnly.status == 403 && addOnly.reason.contains("add-only"), "\(addOnly)")
            let elsewhere = try await upgrade("Authorization: Bearer \(fixture.readWrite)\r\nOrigin: http://evil.example\r\n")
            #expect(elsewhere.status == 403 && elsewhere.reason.contains("own pages"), "\(elsewhere)")
            let sameSite = try await upgrade("Authorization: Bearer \(fixture.readWrite)\r\nOrigin: http://localhost:\(port)\r\n")
            #expect(sameSite.status == 101 && sameSite.headers["upgrade"]?.lowercased() == "websocket", "\(sameSite)")
            let limited = try await upgrade("Authorization: Bearer \(fixture.limited)\r\n")
            #expect(limited.status == 101)
        }
    }
}
