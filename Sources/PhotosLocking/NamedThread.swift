import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of the library's own background work, named as `top -H`, `/proc` and tests show it.
///
/// Named from inside, by writing its `/proc/thread-self/comm` (what `pthread_setname_np` does;
/// Glibc's module doesn't offer that GNU function to Swift): on Linux a new thread keeps its
/// creator's name (an event loop's, say) until it is named, and Foundation's `Thread.name` set
/// from the new thread can be lost: it names the thread only once the creator has recorded it,
/// which the new thread may run before (seen as a text recognition thread still called
/// "NIO-SGLTN-1-#1" after its first photo).
package enum NamedThread {
    /// Starts a thread called `name` (Linux keeps 15 bytes of it), at utility priority, that
    /// runs `body`.
    package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            nameCurrentThread(name)
            body()
        }
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Names the calling thread.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
            let file = open("/proc/thread-self/comm", O_WRONLY)
            guard file >= 0 else { return }
            defer { close(file) }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        #endif
    }
}
