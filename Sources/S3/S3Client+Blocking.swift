import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import PhotosLocking

extension S3Client {
    /// ``download(bucket:key:to:range:progress:)`` for synchronous code (PhotoKit's blocking
    /// requests): the calling thread waits; nothing of it runs on Swift concurrency's threads,
    /// which a caller may be holding (async-http-client's event loops receive, a queue of its
    /// own writes, with the connection's reads paced by the writes). `progress` gets the bytes
    /// written and the total and returns true to stop (``S3Error/Kind/cancelled``). Retried as
    /// the other calls are; the file is replaced.
    public func downloadWaiting(
        bucket: String, key: String, to destination: URL, progress: (@Sendable (_ written: Int64, _ total: Int64) -> Bool)? = nil
    ) throws(S3Error) {
        let name = "s3://\(bucket)/\(key)"
        let target = address(bucket: bucket, key: key)
        let signer = SignatureV4(credentials: configuration.credentials, region: configuration.region)
        var attempt = 1
        while true {
            var signed = SignatureV4.Request(method: "GET", path: target.path, headers: [("host", target.host)])
            signer.sign(&signed, payloadHash: SignatureV4.emptyPayloadHash, date: Date())
            let writer: FileWriter
            let failure: S3Error
            let transient: Bool
            do {
                var request = try HTTPClient.Request(url: target.origin + target.path, method: .GET)
                for (header, value) in signed.headers where header != "host" { request.headers.add(name: header, value: value) }
                writer = FileWriter(destination: destination, progress: progress)
                defer { writer.close() }
                let outcome = try http.execute(request: request, delegate: writer, deadline: .now() + .hours(6)).wait()
                switch outcome {
                case .written(let written, let total):
                    guard total < 0 || written == total else {
                        throw S3Error(.integrity, "\(name) ended after \(written) of \(total) bytes")
                    }
                    return
                case .refused(let status, let body):
                    failure = S3ServerError.make(status: status, body: body, name: name, what: "read")
                    transient = [500, 502, 503, 504, 429].contains(status) || failure.code == "SlowDown"
                }
            } catch let error as S3Error {
                if error.kind == .cancelled { throw error }
                failure = error
                transient = error.kind == .integrity
            } catch {
                failure = S3Error(.unavailable, "Could not read \(name) at \(target.origin): \(Self.describe(error))")
                transient = Self.isTransient(error) && !Self.isConnectFailure(error)
            }
            guard transient, attempt < retry.attempts else {
                // Retried: unavailable, however it began, and saying how often it was tried.
                guard transient, attempt > 1 else { throw failure }
                throw S3Error(
                    failure.kind == .integrity ? .integrity : .unavailable, "\(failure.message) (after \(attempt) attempts)",
                    status: failure.status, code: failure.code)
            }
            logger.notice("s3: could not read \(name) (attempt \(attempt) of \(retry.attempts)): \(failure)")
            let delay = retry.delay(after: attempt)
            Thread.sleep(forTimeInterval: Double(Self.nanoseconds(delay)) / 1e9)
            attempt += 1
        }
    }
}

/// Writes a response's body to a file on a queue of its own, each part's write answering the
/// event loop's future (so the connection reads no faster than the disk writes); an error
/// answer's body is kept (16 KiB at most) to be read for its code.
final class FileWriter: HTTPClientResponseDelegate, Sendable {
    enum Outcome: Sendable {
        case written(Int64, total: Int64)
        case refused(status: Int, body: Data)
    }

    private struct State {
        var status = 0
        var total: Int64 = -1
        var written: Int64 = 0
        var errorBody = Data()
        var handle: FileHandle?
    }

    private let destination: URL
    private let progress: (@Sendable (Int64, Int64) -> Bool)?
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "photokit.s3.file-writer")

    init(destination: URL, progress: (@Sendable (Int64, Int64) -> Bool)?) {
        self.destination = destination
        self.progress = progress
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        let total = head.headers.first(name: "content-length").flatMap { Int64($0) } ?? -1
        state.withLock {
            $0.status = status
            $0.total = total
        }
        guard (200..<300).contains(status) else { return task.eventLoop.makeSucceededVoidFuture() }
        let promise = task.eventLoop.makePromise(of: Void.self)
        queue.async { [destination, state] in
            // A file of its own name, replaced: a partial one is the caller's to remove.
            guard FileManager.default.createFile(atPath: destination.path, contents: nil), let handle = try? FileHandle(forWritingTo: destination) else {
                promise.fail(S3Error(.configuration, "Can't write \(destination.path)"))
                return
            }
            state.withLock { $0.handle = handle }
            promise.succeed()
        }
        return promise.futureResult
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let refused = state.withLock { state -> Bool in
            guard !(200..<300).contains(state.status) else { return false }
            if state.errorBody.count < 16 << 10 { state.errorBody.append(contentsOf: buffer.readableBytesView) }
            return true
        }
        if refused { return task.eventLoop.makeSucceededVoidFuture() }
        let promise = task.eventLoop.makePromise(of: Void.self)
        queue.async { [state, progress, destination] in
            let (handle, total) = state.withLock { ($0.handle, $0.total) }
            do {
                try handle?.write(contentsOf: Data(buffer.readableBytesView))
            } catch {
                promise.fail(S3Error(.configuration, "Can't write \(destination.path): \(error.localizedDescription)"))
                return
            }
            let written = state.withLock { state -> Int64 in
                state.written += Int64(buffer.readableBytes)
                return state.written
            }
            if let progress, progress(written, total) {
                promise.fail(S3Error(.cancelled, "Reading \(destination.lastPathComponent) was stopped"))
            } else {
                promise.succeed()
            }
        }
        return promise.futureResult
    }

    func didReceiveError(task: HTTPClient.Task<Outcome>, _ error: any Error) {}

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        state.withLock { state -> Outcome in
            (200..<300).contains(state.status)
                ? .written(state.written, total: state.total) : .refused(status: state.status, body: state.errorBody)
        }
    }

    /// Closes the file, after the queue's last write (by the waiting caller, off the loops).
    func close() {
        queue.sync {
            // try?: a close that fails after every write succeeded loses nothing written.
            try? state.withLock { state in
                defer { state.handle = nil }
                return state.handle
            }?.close()
        }
    }
}
