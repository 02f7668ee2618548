import Foundation
import PhotosLocking

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy of a test's own on a loopback port, forwarding to `127.0.0.1:upstream`, that can
/// stall (``pause()``: nothing forwarded either way, connections kept open, as a network that
/// stops carrying packets) and go on (``resume()``). `tc netem` isn't available here; this is
/// what stands between an instance and its database in the failure drills.
public final class TCPProxy: @unchecked Sendable {
    // @unchecked Sendable: the listening socket is set once; state is behind Mutexes.
    /// The port it listens on.
    public let port: Int
    private let upstream: Int
    private let listener: Int32
    private let paused = Mutex(false)
    private let stopped = Mutex(false)
    private let sockets = Mutex<[Int32]>([])
    private let fromUpstream = Mutex(0)

    /// The bytes forwarded from the upstream server to clients so far, over every connection.
    public var bytesFromUpstream: Int { fromUpstream.withLock { $0 } }

    public init(to upstream: Int) throws {
        self.upstream = upstream
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ThrowawayPostgres.Failure("socket() failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 64) == 0 else {
            close(fd)
            throw ThrowawayPostgres.Failure("the proxy can't listen on 127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// Stops forwarding, both ways, on every connection (they stay open).
    public func pause() { paused.withLock { $0 = true } }

    /// Forwards again what waited and what comes.
    public func resume() { paused.withLock { $0 = false } }

    /// Closes the listener and every connection.
    public func stop() {
        guard !stopped.withLock({ let was = $0; $0 = true; return was }) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in sockets.withLock({ $0 }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(upstream).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(client)
                close(server)
                continue
            }
            sockets.withLock { $0 += [client, server] }
            Thread.detachNewThread { [self] in pump(from: client, to: server, counting: false) }
            Thread.detachNewThread { [self] in pump(from: server, to: client, counting: true) }
        }
    }

    /// Copies bytes until either side closes; while paused, neither reads nor writes.
    private func pump(from source: Int32, to destination: Int32, counting: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        defer {
            shutdown(destination, Int32(SHUT_WR))
        }
        while true {
            while paused.withLock({ $0 }) && !stopped.withLock({ $0 }) { usleep(5_000) }
            var ready = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 10)
            if polled < 0 { return }
            if polled == 0 { continue }
            // Data is in: forwarded only while not paused (checked again after the wait).
            if paused.withLock({ $0 }) { continue }
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { return }
            if counting { fromUpstream.withLock { $0 += count } }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + sent, count - sent) }
                guard written > 0 else { return }
                sent += written
            }
        }
    }
}
