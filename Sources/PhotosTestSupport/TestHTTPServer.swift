public import Foundation
import PhotosLocking

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for tests of remote originals: `GET` of the paths
/// it was given, sent in chunks (with a pause between them, so clients see progress), 404
/// otherwise. One connection at a time; stopped at `deinit` or `stop()`.
public final class TestHTTPServer: @unchecked Sendable {
    // @unchecked Sendable: `files` and `hits` sit behind Mutexes; the socket is used by one thread.
    private let listener: Int32
    public let port: UInt16
    private let files = Mutex<[String: Data]>([:])
    private let hits = Mutex<[String: Int]>([:])
    private let stopped = Atomic<Bool>(false)
    /// Bytes per chunk and the pause after each.
    public let chunkSize: Int
    public let chunkDelay: TimeInterval

    public init(chunkSize: Int = 64 * 1024, chunkDelay: TimeInterval = 0.005) throws {
        self.chunkSize = chunkSize
        self.chunkDelay = chunkDelay
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { stop() }

    /// Serves `data` at `path` (such as `/photo.jpg`); returns its URL.
    @discardableResult
    public func serve(_ data: Data, at path: String) -> URL {
        files.withLock { $0[path] = data }
        return URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// What is served at `path`.
    public func body(at path: String) -> Data? { files.withLock { $0[path] } }

    /// How many `GET`s of `path` were answered.
    public func hitCount(_ path: String) -> Int { hits.withLock { $0[path, default: 0] } }

    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: [13, 10, 13, 10]) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request += buffer[..<count]
            if request.count > 65536 { return }
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, line[0] == "GET" else { return }
        let path = String(line[1])
        guard let body = files.withLock({ $0[path] }) else {
            send(connection, Data("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        hits.withLock { $0[path, default: 0] += 1 }
        send(connection, Data("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8))
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + chunkSize)
            guard send(connection, body[offset..<end]) else { return }
            offset = end
            if chunkDelay > 0 { Thread.sleep(forTimeInterval: chunkDelay) }
        }
    }

    @discardableResult
    private func send(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
