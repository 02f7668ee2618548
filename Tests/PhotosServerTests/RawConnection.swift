import Foundation
import Glibc

/// A plain TCP connection to the server under test, for what an HTTP client library hides:
/// a refused WebSocket upgrade's status, a half-closed socket, a connection that never asks.
///
/// Its reads block (with a timeout) on a thread of their own: blocking one of Swift
/// concurrency's few threads (two on two cores) would stall the server's handlers too.
/// The default timeout is long (30 s): it only ends a test that failed, and with the whole
/// suite running on two cores an API answer has taken over 5 s (two CI failures, 12-02).
final class RawConnection: Sendable {
    private let socket: Int32

    init(port: Int, timeout: Int = 30) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure("connect: errno \(errno)")
        }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    func send(_ text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure("send: errno \(errno)") }
            sent += count
        }
    }

    /// Sends `pieces` one by one, `interval` apart (the first after one interval), from a thread
    /// of its own: a test's task can wait seconds for the cooperative pool when the whole suite
    /// is running, and a late piece would look to the server like a client that stalled.
    func trickle(_ pieces: [String], every interval: TimeInterval) async throws {
        try await Self.offThread {
            Result { () throws(Failure) in
                for piece in pieces {
                    Thread.sleep(forTimeInterval: interval)
                    try self.send(piece)
                }
            }
        }.get()
    }

    /// Closes the sending side only (what a browser's abort looks like to the server first).
    func shutdownWrite() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Bytes until the server closes (`closed`), or until the timeout (`closed == false`).
    func readToEnd() async -> (bytes: [UInt8], closed: Bool) {
        await Self.offThread { self.blockingReadToEnd() }
    }

    /// One response: the status, the headers (lower-cased names) and a `Content-Length` body.
    func readResponse() async throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        try await Self.offThread { self.blockingReadResponse() }.get()
    }

    private static func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    private func blockingReadToEnd() -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (bytes, true) }
            if count < 0 { return (bytes, false) }
            bytes += buffer[..<count]
        }
    }

    private func blockingReadResponse() -> Result<(status: Int, headers: [String: String], body: [UInt8]), Failure> {
        do {
            return .success(try parseResponse())
        } catch {
            return .failure(error)
        }
    }

    private func parseResponse() throws(Failure) -> (status: Int, headers: [String: String], body: [UInt8]) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        func read() throws(Failure) {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure("the connection ended after \(received.count) bytes (recv \(count), errno \(errno))") }
            received += buffer[..<count]
        }
        var end: Int?
        while end == nil {
            try read()
            end = received.indices.dropLast(3).first { received[$0..<$0 + 4].elementsEqual(separator) }
        }
        let head = String(decoding: received[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw Failure("not an HTTP response: \(head.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while received.count < end! + 4 + length { try read() }
        return (status, headers, Array(received[(end! + 4)..<(end! + 4 + length)]))
    }

    struct Failure: Error, CustomStringConvertible, Sendable {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
