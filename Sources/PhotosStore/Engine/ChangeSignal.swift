package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells other processes that the library changed: after each commit the writer rewrites a
/// small file beside the database, and ``ChangeSignalWatcher`` wakes on the kernel's
/// `inotify` event for it. The journal, not the file, says what changed; the file only
/// wakes readers, so a lost or merged wake-up costs nothing but latency (the watcher also
/// looks every ``ChangeSignalWatcher/fallbackInterval``).
package struct ChangeSignal: Sendable {
    package let file: URL

    init(layout: LibraryLayout) {
        file = layout.databaseFolder.appendingPathComponent("changes.signal")
    }

    /// Writes the new position; watchers see the file closed after writing.
    func post(position: Int64) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        var value = position.littleEndian
        _ = withUnsafeBytes(of: &value) { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}

/// Calls a handler when another process (or this one) may have committed a change.
package final class ChangeSignalWatcher: ChangeWatch, @unchecked Sendable {
    // @unchecked Sendable: the sources are only touched in init and cancel(); dispatch
    // serializes their handlers.

    /// How often the watcher looks without a wake-up (for file systems without `inotify`).
    package static let fallbackInterval: DispatchTimeInterval = .seconds(1)

    private let readSource: (any DispatchSourceRead)?
    private let timer: any DispatchSourceTimer

    /// Starts watching `signal`; `handler` runs on `queue`, also every `fallback` (`.never`: on
    /// the signal file's wake-ups only).
    package init(
        _ signal: ChangeSignal, queue: DispatchQueue, fallback: DispatchTimeInterval = fallbackInterval,
        handler: @escaping @Sendable () -> Void
    ) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if descriptor >= 0,
            inotify_add_watch(descriptor, signal.file.deletingLastPathComponent().path, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0
        {
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler {
                // Drain the queued events; which file changed doesn't matter.
                var buffer = [UInt8](repeating: 0, count: 4096)
                while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
                handler()
            }
            source.setCancelHandler { close(descriptor) }
            source.resume()
            readSource = source
        } else {
            if descriptor >= 0 { close(descriptor) }
            readSource = nil
        }
        timer = Self.fallbackTimer(queue: queue, every: fallback, handler: handler)
    }

    /// A started timer that runs `handler` on `queue` every `interval` (`.never`: not at all),
    /// the look every engine's watch takes besides its wake-ups.
    package static func fallbackTimer(
        queue: DispatchQueue, every interval: DispatchTimeInterval, handler: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        if interval == .never {
            timer.schedule(deadline: .distantFuture, repeating: .never)
        } else {
            timer.schedule(deadline: .now() + interval, repeating: interval)
        }
        timer.setEventHandler(handler: handler)
        timer.resume()
        return timer
    }

    /// Stops watching; the handler isn't called after the queue drains.
    package func cancel() {
        readSource?.cancel()
        timer.cancel()
    }

    deinit { cancel() }
}
