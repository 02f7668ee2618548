import Dispatch

/// A task executor on a serial dispatch queue, for a test's minutes of synchronous work (a
/// walk of blocking library calls, each a round trip on PostgreSQL): run under
/// `withTaskExecutorPreference(_:operation:)`, its jobs run on a thread of the queue's, not
/// on one of Swift concurrency's cooperative threads (two on two cores), which the suite's
/// socket tests need for their continuations. The task stays the test's, so its task-locals
/// (the running test, which its expectations are recorded against) go with it.
public final class DispatchQueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue
    private static let labelKey = DispatchSpecificKey<String>()

    public init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.labelKey, value: label)
    }

    /// The label of the executor the caller runs on, nil on any other thread.
    public static var current: String? { DispatchQueue.getSpecific(key: labelKey) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
