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
        try retryingWaiting(name: name, what: "read", bucket: bucket, key: key) { target, signer throws in
            var signed = SignatureV4.Request(method: "GET", path: target.path, headers: [("host", target.host)])
            signer.sign(&signed, payloadHash: SignatureV4.emptyPayloadHash, date: Date())
            var request = try HTTPClient.Request(url: target.origin + target.path, method: .GET)
            for (header, value) in signed.headers where header != "host" { request.headers.add(name: header, value: value) }
            let writer = FileWriter(destination: destination, progress: progress)
            defer { writer.close() }
            switch try http.execute(request: request, delegate: writer, deadline: .now() + .hours(6)).wait() {
            case .written(let written, let total):
                guard total < 0 || written == total else {
                    throw S3Error(.integrity, "\(name) ended after \(written) of \(total) bytes")
                }
                return nil
            case .refused(let status, let body):
                return (status, body)
            }
        }
    }

    /// ``putObject(bucket:key:file:contentType:sha256Hex:multipartThreshold:partSize:concurrency:)``
    /// for synchronous code, as ``downloadWaiting(bucket:key:to:progress:)`` is: one `PUT` with
    /// `x-amz-checksum-sha256`, or for files of `multipartThreshold` bytes or more a multipart
    /// upload (`partSize` bytes a part, more when 10,000 parts wouldn't hold the file;
    /// `concurrency` parts at once, each with its own checksum; aborted on failure). Files are
    /// read in 1 MiB chunks on a queue of their own, each read after the previous chunk was
    /// written (memory stays flat), and nothing runs on Swift concurrency's threads
    /// (async-http-client streams an async body from an unstructured task, which would need
    /// one). Returns once the store has confirmed the checksums; retried as the other calls are.
    public func putObjectWaiting(
        bucket: String, key: String, file: URL, contentType: String? = nil, sha256Hex: String? = nil,
        multipartThreshold: Int64 = 64 << 20, partSize: Int64 = 16 << 20, concurrency: Int = 4
    ) throws(S3Error) {
        let name = "s3://\(bucket)/\(key)"
        let size: Int64
        do {
            size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw S3Error(.configuration, "Could not read \(file.path): \(error.localizedDescription)")
        }
        if size >= max(multipartThreshold, 5 << 20) {
            try multipartUploadWaiting(
                bucket: bucket, key: key, file: file, size: size, contentType: contentType,
                partSize: Self.partSize(forFileOf: size, preferred: partSize), concurrency: concurrency)
            return
        }
        let digest: SHA256Digest
        do {
            digest = try sha256Hex.flatMap(SHA256Digest.init(hex:)) ?? SHA256Digest(fileAt: file)
        } catch {
            throw S3Error(.configuration, "Could not read \(file.path): \(error.localizedDescription)")
        }
        _ = try putWaiting(name: name, what: "store", bucket: bucket, key: key, query: [], file: file, range: 0..<size, digest: digest, contentType: contentType)
    }

    /// A part size for a file of `size` bytes: `preferred` (at least S3's 5 MiB), or the
    /// whole MiBs that fit the file in S3's 10,000 parts.
    static func partSize(forFileOf size: Int64, preferred: Int64) -> Int64 {
        let fitting = (size + 9_999) / 10_000
        return max(5 << 20, preferred, (fitting + (1 << 20) - 1) / (1 << 20) * (1 << 20))
    }

    /// One `PUT` of `range` of the file, with its checksum, retried: the answer's `ETag`.
    private func putWaiting(
        name: String, what: String, bucket: String, key: String, query: [(name: String, value: String)], file: URL, range: Range<Int64>,
        digest: SHA256Digest, contentType: String?
    ) throws(S3Error) -> String? {
        let eTag = Mutex<String?>(nil)
        try retryingWaiting(name: name, what: what, bucket: bucket, key: key) { target, signer throws in
            var headers = [("host", target.host)] + digest.headers + [("content-length", String(range.count))]
            if let contentType { headers.append(("content-type", contentType)) }
            var signed = SignatureV4.Request(method: "PUT", path: target.path, query: query, headers: headers)
            signer.sign(&signed, payloadHash: digest.hex, date: Date())
            var request = try HTTPClient.Request(
                url: target.origin + target.path + (query.isEmpty ? "" : "?" + signed.queryString), method: .PUT)
            for (header, value) in signed.headers where header != "host" && header != "content-length" {
                request.headers.add(name: header, value: value)
            }
            let streamer = FileStreamer(file: file, range: range)
            request.body = .stream(contentLength: Int64(range.count)) { writer in streamer.stream(to: writer, on: http.eventLoopGroup.any()) }
            let collector = FileWriter(destination: nil, progress: nil)
            switch try http.execute(request: request, delegate: collector, deadline: .now() + .hours(6)).wait() {
            case .written:
                eTag.withLock { $0 = collector.eTag }
                return nil
            case .refused(let status, let body): return (status, body)
            }
        }
        return eTag.withLock { $0 }
    }

    /// The multipart upload of ``multipartUpload(bucket:key:file:size:contentType:partSize:concurrency:)``
    /// for synchronous code: the parts go up as ``putObjectWaiting`` sends a file, each lane
    /// of `concurrency` a serial queue of its own; the first failure stops the parts not
    /// started and aborts the upload.
    func multipartUploadWaiting(
        bucket: String, key: String, file: URL, size: Int64, contentType: String?, partSize: Int64, concurrency: Int
    ) throws(S3Error) {
        let name = "s3://\(bucket)/\(key)"
        let uploadID = try Self.waiting { () async throws(S3Error) in try await startUpload(bucket: bucket, key: key, contentType: contentType) }
        let ranges = stride(from: Int64(0), to: size, by: Int(partSize)).map { $0..<min($0 + partSize, size) }
        let parts = Mutex<[UploadedPart]>([])
        let failure = Mutex<S3Error?>(nil)
        let group = DispatchGroup()
        let lanes = (0..<min(max(1, concurrency), ranges.count)).map { DispatchQueue(label: "photokit.s3.part-\($0)") }
        for (index, range) in ranges.enumerated() {
            lanes[index % lanes.count].async(group: group) {
                guard failure.withLock({ $0 == nil }) else { return }
                let number = index + 1
                do throws(S3Error) {
                    let digest: SHA256Digest
                    do {
                        digest = try SHA256Digest(fileAt: file, range: range)
                    } catch {
                        throw S3Error(.configuration, "Could not read \(file.path): \(error.localizedDescription)")
                    }
                    let eTag = try putWaiting(
                        name: name, what: "upload part \(number) of", bucket: bucket, key: key,
                        query: [("partNumber", String(number)), ("uploadId", uploadID)], file: file, range: range, digest: digest, contentType: nil)
                    guard let eTag else { throw S3Error(.failed, "Part \(number) of \(name) was answered without an ETag") }
                    parts.withLock { $0.append(UploadedPart(number: number, eTag: eTag, checksum: digest.base64)) }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        group.wait()
        do throws(S3Error) {
            if let error = failure.withLock({ $0 }) { throw error }
            let sorted = parts.withLock { $0 }.sorted { $0.number < $1.number }
            try Self.waiting { () async throws(S3Error) in try await completeUpload(bucket: bucket, key: key, uploadID: uploadID, parts: sorted) }
        } catch {
            _ = try? Self.waiting { () async throws(S3Error) in try await abortUpload(bucket: bucket, key: key, uploadID: uploadID) }
            throw error
        }
    }

    /// Runs `attempt` until it succeeds (nil), retrying refusals and failures that may pass
    /// (5xx, 429, `SlowDown`, dropped connections, a short body) with backoff, as ``send``
    /// does; the waits are on the calling thread. `attempt` returns an error answer's status and
    /// body, or throws.
    func retryingWaiting(
        name: String, what: String, bucket: String, key: String,
        _ attempt: (Address, SignatureV4) throws -> (status: Int, body: Data)?
    ) throws(S3Error) {
        let target = address(bucket: bucket, key: key)
        let signer = SignatureV4(credentials: configuration.credentials, region: configuration.region)
        var count = 1
        while true {
            let failure: S3Error
            let transient: Bool
            do {
                guard let (status, body) = try attempt(target, signer) else { return }
                failure = S3ServerError.make(status: status, body: body, name: name, what: what)
                transient = [500, 502, 503, 504, 429].contains(status) || failure.code == "SlowDown" || failure.code == "RequestTimeout"
            } catch let error as S3Error {
                if error.kind == .cancelled || error.kind == .configuration { throw error }
                failure = error
                transient = error.kind == .integrity
            } catch {
                failure = S3Error(.unavailable, "Could not \(what) \(name) at \(target.origin): \(Self.describe(error))")
                transient = Self.isTransient(error) && !Self.isConnectFailure(error)
            }
            guard transient, count < retry.attempts else {
                // Retried: unavailable, however it began, and saying how often it was tried.
                guard transient, count > 1 else { throw failure }
                throw S3Error(
                    failure.kind == .integrity ? .integrity : .unavailable, "\(failure.message) (after \(count) attempts)",
                    status: failure.status, code: failure.code)
            }
            logger.notice("s3: could not \(what) \(name) (attempt \(count) of \(retry.attempts)): \(failure)")
            let delay = retry.delay(after: count)
            Thread.sleep(forTimeInterval: Double(Self.nanoseconds(delay)) / 1e9)
            count += 1
        }
    }
}

/// A file sent as a request's body: 1 MiB read on a queue of its own, written to the
/// connection, and the next read only when that write is done.
final class FileStreamer: Sendable {
    private let file: URL
    /// The bytes to send (the whole file when nil).
    private let range: Range<Int64>?
    private let handle = Mutex<FileHandle?>(nil)
    /// Bytes of the range not read yet.
    private let left = Mutex<Int64>(.max)
    private let queue = DispatchQueue(label: "photokit.s3.file-streamer")

    init(file: URL, range: Range<Int64>? = nil) {
        self.file = file
        self.range = range
    }

    func stream(to writer: HTTPClient.Body.StreamWriter, on loop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = loop.makePromise(of: Void.self)
        queue.async { [self] in
            do {
                // A retried request streams the file again from its start.
                try handle.withLock { handle in
                    try handle?.close()
                    handle = try FileHandle(forReadingFrom: file)
                    if let range { try handle?.seek(toOffset: UInt64(range.lowerBound)) }
                }
                left.withLock { $0 = range.map { Int64($0.count) } ?? .max }
                next(writer, promise)
            } catch {
                promise.fail(S3Error(.configuration, "Could not read \(file.path): \(error.localizedDescription)"))
            }
        }
        return promise.futureResult
    }

    private func next(_ writer: HTTPClient.Body.StreamWriter, _ promise: EventLoopPromise<Void>) {
        let chunk: Data?
        do {
            let wanted = Int(left.withLock { min($0, 1 << 20) })
            chunk = wanted == 0 ? nil : try handle.withLock { try $0?.read(upToCount: wanted) }
            left.withLock { $0 -= Int64(chunk?.count ?? 0) }
        } catch {
            finish()
            promise.fail(S3Error(.configuration, "Could not read \(file.path): \(error.localizedDescription)"))
            return
        }
        guard let chunk, !chunk.isEmpty else {
            finish()
            promise.succeed()
            return
        }
        writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).whenComplete { [self] result in
            switch result {
            case .success: queue.async { self.next(writer, promise) }
            case .failure(let error):
                finish()
                promise.fail(error)
            }
        }
    }

    private func finish() {
        // try?: a read-only handle's close loses nothing.
        try? handle.withLock { handle in
            defer { handle = nil }
            try handle?.close()
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
        var eTag: String?
        var total: Int64 = -1
        var written: Int64 = 0
        var errorBody = Data()
        var handle: FileHandle?
    }

    /// Nil: a success's body is not kept (a `PUT`'s answer).
    private let destination: URL?
    private let progress: (@Sendable (Int64, Int64) -> Bool)?
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "photokit.s3.file-writer")

    init(destination: URL?, progress: (@Sendable (Int64, Int64) -> Bool)?) {
        self.destination = destination
        self.progress = progress
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        let total = head.headers.first(name: "content-length").flatMap { Int64($0) } ?? -1
        state.withLock {
            $0.status = status
            $0.total = total
            $0.eTag = head.headers.first(name: "etag")
        }
        guard (200..<300).contains(status), let destination else { return task.eventLoop.makeSucceededVoidFuture() }
        let promise = task.eventLoop.makePromise(of: Void.self)
        queue.async { [state] in
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
        guard !refused, let destination else { return task.eventLoop.makeSucceededVoidFuture() }
        let promise = task.eventLoop.makePromise(of: Void.self)
        queue.async { [state, progress] in
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

    /// The answer's `ETag` (a part's name in the multipart upload it belongs to).
    var eTag: String? { state.withLock { $0.eTag } }

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

extension S3Client {
    /// Runs one of this client's async calls and waits for it on the calling thread, for
    /// synchronous code (a PhotoKit change block's uploads, a deletion after a commit).
    ///
    /// The call runs on a queue of its own (a task executor), never on Swift concurrency's
    /// cooperative threads: a caller may be holding one of those (there are as many as cores),
    /// and a call waited for from one that needed another would hang.
    public static func waiting<T: Sendable>(_ operation: @escaping @Sendable () async throws(S3Error) -> T) throws(S3Error) -> T {
        let outcome = Mutex<Result<T, S3Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: BlockingCallExecutor.shared) {
            let result: Result<T, S3Error>
            do throws(S3Error) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // The task signals only after setting it.
        return try outcome.withLock { $0! }.get()
    }
}

/// The task executor ``S3Client/waiting(_:)`` runs its calls on: serial dispatch queues, taken
/// in turn. Serial ones, because on Linux a concurrent queue shares the default root queue's
/// threads (one per core) with Swift concurrency's pool, which the waiting callers may hold
/// every one of; a serial queue gets a thread of its own when it has work.
final class BlockingCallExecutor: TaskExecutor {
    static let shared = BlockingCallExecutor()
    private let queues = (0..<4).map { DispatchQueue(label: "photokit.s3.blocking-calls-\($0)") }
    private let next = Mutex(0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let index = next.withLock { next in
            defer { next = (next + 1) % queues.count }
            return next
        }
        queues[index].async { job.runSynchronously(on: executor) }
    }
}
