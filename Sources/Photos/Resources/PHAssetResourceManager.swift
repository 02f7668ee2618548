public import Foundation
import Logging
import PhotosLocking

#if canImport(Glibc)
    import Glibc
#endif

/// Identifies a data request so it can be cancelled.
public typealias PHAssetResourceDataRequestID = Int32

/// Options for reading a resource's data.
public final class PHAssetResourceRequestOptions: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: configured before the request, then only read.
    /// Fetch originals kept in a remote store (`http`/`https` resources) into the library's
    /// local copy first; without it, reading one that was not fetched yet fails with
    /// `PHPhotosError.Code.networkAccessRequired`, as on Apple's platforms for iCloud originals.
    public var isNetworkAccessAllowed: Bool = false
    /// Called with the fraction done so far, on a background queue: of the download while a
    /// remote original is fetched, else of the read.
    public var progressHandler: ((Double) -> Void)?

    public override init() {
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHAssetResourceRequestOptions()
        copy.isNetworkAccessAllowed = isNetworkAccessAllowed
        copy.progressHandler = progressHandler
        return copy
    }
}

/// Reads the files behind assets: streamed in chunks, or copied to a file.
public final class PHAssetResourceManager: NSObject, @unchecked Sendable {
    // @unchecked Sendable: the only mutable state is the request table, behind a Mutex.
    private let requests = Mutex<(next: Int32, cancelled: Set<Int32>)>((1, []))
    private let queue = DispatchQueue(label: "PHAssetResourceManager", attributes: .concurrent)

    /// The size of the chunks ``requestData(for:options:dataReceivedHandler:completionHandler:)`` delivers.
    static let chunkSize = 1 << 20

    private static let shared = PHAssetResourceManager()

    public class func `default`() -> PHAssetResourceManager { shared }

    public override init() {
        super.init()
    }

    /// Streams a resource's bytes: `dataReceivedHandler` gets each chunk in order, then
    /// `completionHandler` gets `nil`, or the error that stopped the read. Both run on a
    /// background queue.
    @discardableResult
    public func requestData(
        for resource: PHAssetResource, options: PHAssetResourceRequestOptions?,
        dataReceivedHandler handler: @escaping (Data) -> Void,
        completionHandler: @escaping ((any Error)?) -> Void
    ) -> PHAssetResourceDataRequestID {
        let id = requests.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        // Apple declares the three closures without @Sendable; they are called in order, one
        // at a time, from the one background task below.
        // One box per value (a tuple destructured from a box in an escaping closure is
        // over-released by Swift 6.3.1; see performChanges).
        let received = UncheckedSendable(handler)
        let completion = UncheckedSendable(completionHandler)
        let progress = UncheckedSendable(options?.progressHandler)
        let networkAllowed = options?.isNetworkAccessAllowed ?? false
        queue.async {
            completion.value(self.stream(resource, id: id, networkAllowed: networkAllowed, progress: progress.value, handler: received.value))
        }
        return id
    }

    /// The file to read: the library's, or a remote original's local copy, fetched first when
    /// allowed (progress reported, stopped by a cancel).
    private func localFile(
        of resource: PHAssetResource, networkAllowed: Bool, progress: ((Double) -> Void)?, id: Int32?
    ) throws(PHPhotosError) -> URL {
        if let local = resource.localFileURL { return local }
        guard networkAllowed else {
            throw PHPhotosError(
                .networkAccessRequired,
                "\(resource.originalFilename) is in a remote store (\(resource.fileURL.absoluteString)); allow network access to fetch it",
                localIdentifiers: [resource.assetLocalIdentifier])
        }
        let progress = UncheckedSendable(progress)
        try RemoteOriginals.fetch(resource.fileURL, to: resource.localURL) { [requests] fraction in
            progress.value?(fraction)
            guard let id else { return false }
            return requests.withLock { $0.cancelled.contains(id) }
        }
        return resource.localURL
    }

    private func stream(
        _ resource: PHAssetResource, id: Int32, networkAllowed: Bool, progress: ((Double) -> Void)?, handler: (Data) -> Void
    ) -> (any Error)? {
        defer { _ = requests.withLock { $0.cancelled.remove(id) } }
        let url: URL
        // Progress follows the download of a remote original, else the read.
        let downloads = resource.localFileURL == nil
        do throws(PHPhotosError) {
            url = try localFile(of: resource, networkAllowed: networkAllowed, progress: progress, id: id)
        } catch {
            return error
        }
        let file: FileHandle
        do {
            file = try FileHandle(forReadingFrom: url)
        } catch {
            return PHPhotosError(
                .missingResource,
                "The file of \(resource.originalFilename) is missing from the library (\(url.path)): \(Logger.reason(error))",
                localIdentifiers: [resource.assetLocalIdentifier])
        }
        // try?: closing a file that was only read loses nothing.
        defer { try? file.close() }
        var read: Int64 = 0
        while true {
            if requests.withLock({ $0.cancelled.contains(id) }) {
                return PHPhotosError(.userCancelled, "The request for \(resource.originalFilename) was cancelled")
            }
            let chunk: Data
            do {
                chunk = try file.read(upToCount: Self.chunkSize) ?? Data()
            } catch {
                return PHPhotosError(.missingResource, "Reading \(resource.fileURL.path) failed: \(error.localizedDescription)")
            }
            guard !chunk.isEmpty else { break }
            read += Int64(chunk.count)
            handler(chunk)
            if !downloads { progress?(resource.fileSize > 0 ? min(1, Double(read) / Double(resource.fileSize)) : 1) }
        }
        return nil
    }

    /// Stops a data request; its completion handler gets a `.userCancelled` error.
    public func cancelDataRequest(_ requestID: PHAssetResourceDataRequestID) {
        _ = requests.withLock { $0.cancelled.insert(requestID) }
    }

    /// Copies a resource's file to `fileURL`, which must not exist yet (the handler then gets
    /// an error, as on Apple's platforms). The copy is written beside the destination and
    /// linked into place, so the destination is either complete or absent.
    public func writeData(
        for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        // Apple's handler is not @Sendable; it is called once, from that task.
        let completion = UncheckedSendable(completionHandler)
        let progress = UncheckedSendable(options?.progressHandler)
        let networkAllowed = options?.isNetworkAccessAllowed ?? false
        queue.async {
            do throws(PHPhotosError) {
                let source = try self.localFile(of: resource, networkAllowed: networkAllowed, progress: progress.value, id: nil)
                completion.value(Self.copy(resource, from: source, to: fileURL))
            } catch {
                completion.value(error)
            }
        }
    }

    /// Copies a resource's file to `fileURL`, as ``writeData(for:toFile:options:completionHandler:)``
    /// does, returning when it is written and throwing what its handler would get.
    public func writeData(for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writeData(for: resource, toFile: fileURL, options: options) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    private static func copy(_ resource: PHAssetResource, from source: URL, to destination: URL) -> (any Error)? {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: destination.path) {
            return PHPhotosError(.invalidResource, "Can't write \(resource.originalFilename) to \(destination.path): the file exists")
        }
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try fileManager.copyItem(at: source, to: temporary)
        } catch {
            // try?: a partial copy is a dot-file beside the destination; the error returned is
            // the report.
            try? fileManager.removeItem(at: temporary)
            return PHPhotosError(
                .missingResource, "Can't copy \(resource.originalFilename) to \(destination.path): \(error.localizedDescription)")
        }
        defer { unlink(temporary.path) }
        guard link(temporary.path, destination.path) == 0 else {
            return PHPhotosError(
                .invalidResource, "Can't write \(resource.originalFilename) to \(destination.path): \(String(cString: strerror(errno)))")
        }
        return nil
    }
}
