import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Logging
import PhotosLocking

/// Fetches originals kept in a remote store (`http`/`https` resource paths, and object stores'
/// such as `s3://` through their ``ObjectStorageBackend``) into local copies, reporting progress; a copy appears complete or not at all (temporary file, rename).
enum RemoteOriginals {
    /// Downloads `url` to `destination`. `progress` gets 0...1 as bytes arrive (when the
    /// server says how many) and returns true to stop.
    static func fetch(_ url: URL, to destination: URL, progress: (@Sendable (Double) -> Bool)? = nil) throws(PHPhotosError) {
        let folder = destination.deletingLastPathComponent()
        // try?: a folder that can't be made fails the download's file below, which says so.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(UUID().uuidString).download")
        if let scheme = url.scheme?.lowercased(), scheme != "http", scheme != "https" {
            do throws(PHPhotosError) {
                try ObjectStorage.requireBackend(for: url).download(url, to: temporary, progress: progress)
            } catch {
                // try?: as below.
                try? FileManager.default.removeItem(at: temporary)
                throw error
            }
            try keep(temporary, at: destination)
            return
        }
        let download = Download(destination: temporary, progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: url).resume()
        download.done.wait()
        if let failure = download.failure {
            // try?: usually there is nothing to remove, and the error thrown is the report; a
            // `.download` left in the library's `cache/remote` goes with a later trim (an hour old).
            try? FileManager.default.removeItem(at: temporary)
            throw PHPhotosError(failure.cancelled ? .userCancelled : .networkError, "Can't fetch \(url.absoluteString): \(failure.message)")
        }
        try keep(temporary, at: destination)
    }

    /// Renames a whole download into place, counting it toward its library's cache budget.
    private static func keep(_ temporary: URL, at destination: URL) throws(PHPhotosError) {
        guard rename(temporary.path, destination.path) == 0 else {
            // try?: as above.
            try? FileManager.default.removeItem(at: temporary)
            throw PHPhotosError(.notEnoughSpace, "Can't keep the fetched original at \(destination.path)")
        }
        OriginalsCache.noteKept(destination)
    }

    private final class Download: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked Sendable: the delegate queue calls one method at a time.
        struct Failure {
            var message: String
            var cancelled = false
        }

        let destination: URL
        let progress: (@Sendable (Double) -> Bool)?
        let done = DispatchSemaphore(value: 0)
        var handle: FileHandle?
        var expected: Int64 = -1
        var received: Int64 = 0
        var failure: Failure?

        init(destination: URL, progress: (@Sendable (Double) -> Bool)?) {
            self.destination = destination
            self.progress = progress
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                failure = Failure(message: "the server answered \(http.statusCode)")
                completionHandler(.cancel)
                return
            }
            expected = response.expectedContentLength
            _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
            do {
                handle = try FileHandle(forWritingTo: destination)
            } catch {
                failure = Failure(message: "can't write \(destination.path): \(Logger.reason(error))")
            }
            completionHandler(handle == nil ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            // Stopped: data already on its way is dropped, and the progress handler hears no more.
            guard failure == nil else { return }
            handle?.write(data)
            received += Int64(data.count)
            if expected > 0, let progress, progress(min(1, Double(received) / Double(expected))) {
                failure = Failure(message: "stopped by the progress handler", cancelled: true)
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            do {
                try handle?.close()
            } catch {
                // Bytes a failed close may not have kept: the copy is not used.
                if failure == nil { failure = Failure(message: "can't finish writing \(destination.path): \(Logger.reason(error))") }
            }
            if failure == nil, let error { failure = Failure(message: error.localizedDescription) }
            if failure == nil, expected > 0, received != expected {
                failure = Failure(message: "got \(received) of \(expected) bytes")
            }
            done.signal()
        }
    }
}
