// Re-exported so a file that says `import PhotosLocking` has `Atomic` too; and since this module
// imports Synchronization, its `Mutex` shadows Synchronization's wherever both are imported.
@_exported public import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock around a value, with the API of the standard library's `Synchronization.Mutex`,
/// built on `pthread_mutex_t`.
///
/// Why not the standard library's: on Linux it locks with raw `futex` calls, which
/// ThreadSanitizer can't see, so `make tsan` reported every value behind one as raced (VipsRuntime's
/// state, the import's claimed files, the change dispatcher's observers). ThreadSanitizer
/// intercepts pthread locks, so with this one it checks what the lock really orders. Uncontended,
/// both cost about the same; this one is a class, so it can also be captured and shared.
package final class Mutex<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `withLock`, under `lock`.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ initialValue: Value) {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with the value, holding the lock; not reentrant (calling it again from
    /// `body` deadlocks, as the standard library's does).
    package func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
