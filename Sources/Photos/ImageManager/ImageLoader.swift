import Foundation
import PhotosLocking

/// Runs image renders on a bounded pool (one per core), visible requests before preheating,
/// and coalesces requests for the same ``ImageKey``: the second asker subscribes to the render
/// already queued or running. Finished images go to the shared memory cache.
///
/// Cancelling a request unsubscribes it; a render nobody waits for any more is dropped if it
/// has not started (a running one finishes and is cached).
///
/// Each library has its own (``PHPhotoLibrary/Configuration``), with its own cache and pool.
final class ImageLoader: Sendable {
    enum Priority: Int, Sendable {
        case visible = 0
        case preheat = 1
    }

    typealias Completion = @Sendable (Result<UIImage, PHPhotosError>) -> Void

    private final class Job: @unchecked Sendable {
        // @unchecked Sendable: mutable fields are only touched under the loader's lock.
        let key: ImageKey
        let render: @Sendable () throws(PHPhotosError) -> UIImage
        var priority: Priority
        var subscribers: [Int32: Completion] = [:]
        /// Preheating holds a job without a completion.
        var preheaters = 0
        var started = false

        init(key: ImageKey, priority: Priority, render: @escaping @Sendable () throws(PHPhotosError) -> UIImage) {
            self.key = key
            self.priority = priority
            self.render = render
        }

        var isWanted: Bool { !subscribers.isEmpty || preheaters > 0 }
    }

    private struct State {
        var jobs: [ImageKey: Job] = [:]
        var queues: [[Job]] = [[], []]
        var running = 0
    }

    private let state = Mutex(State())
    private let renders = Atomic<Int>(0)
    let cache: ImageMemoryCache
    let maximumConcurrentRenders: Int
    private let workQueue = DispatchQueue(label: "PHImageManager.render", qos: .userInitiated, attributes: .concurrent)
    /// Told of each step (``PHPhotoLibrary/Delegate/imageLoader(didReport:)``).
    private let delegate: any PHPhotoLibrary.Delegate
    /// Told when each render begins and ends: gives the heap's free pages back once renders
    /// have been idle a moment.
    let memoryRelease: IdleMemoryRelease

    init(
        cache: ImageMemoryCache, maximumConcurrentRenders: Int = ProcessInfo.processInfo.activeProcessorCount,
        memoryRelease: IdleMemoryRelease = .shared, delegate: any PHPhotoLibrary.Delegate = QuietLibraryDelegate()
    ) {
        self.cache = cache
        self.maximumConcurrentRenders = max(1, maximumConcurrentRenders)
        self.memoryRelease = memoryRelease
        self.delegate = delegate
    }

    private func tell(_ happened: [ImageLoaderEvent]) {
        for event in happened { delegate.imageLoader(didReport: event) }
    }

    /// Loads `key` (from the cache, a render in flight, or a new render) and calls `completion`
    /// once, on a render thread, unless ``cancel(requestID:key:)`` comes first.
    func load(
        _ key: ImageKey, requestID: Int32, priority: Priority,
        render: @escaping @Sendable () throws(PHPhotosError) -> UIImage, completion: @escaping Completion
    ) {
        if let image = cache.image(for: key) {
            completion(.success(image))
            return
        }
        let queued = state.withLock { state -> Bool in
            var queued = false
            let job = state.jobs[key] ?? {
                let job = Job(key: key, priority: priority, render: render)
                state.jobs[key] = job
                state.queues[priority.rawValue].append(job)
                queued = true
                return job
            }()
            job.subscribers[requestID] = completion
            if priority.rawValue < job.priority.rawValue, !job.started {
                // A visible request for a preheated image moves it ahead.
                state.queues[job.priority.rawValue].removeAll { $0 === job }
                job.priority = priority
                state.queues[priority.rawValue].append(job)
            }
            return queued
        }
        if queued { tell([.queued(assetUUID: key.assetUUID, preheat: priority == .preheat)]) }
        drain()
    }

    /// Renders `key` at preheating priority for the cache, with nobody waiting.
    func preheat(_ key: ImageKey, render: @escaping @Sendable () throws(PHPhotosError) -> UIImage) {
        guard cache.image(for: key) == nil else { return }
        let queued = state.withLock { state -> Bool in
            if let job = state.jobs[key] {
                job.preheaters += 1
                return false
            }
            let job = Job(key: key, priority: .preheat, render: render)
            job.preheaters = 1
            state.jobs[key] = job
            state.queues[Priority.preheat.rawValue].append(job)
            return true
        }
        if queued { tell([.queued(assetUUID: key.assetUUID, preheat: true)]) }
        drain()
    }

    /// Stops preheating `key` (a render already running finishes).
    func stopPreheating(_ key: ImageKey) {
        let dropped = state.withLock { state -> [ImageLoaderEvent] in
            guard let job = state.jobs[key], job.preheaters > 0 else { return [] }
            job.preheaters -= 1
            return !job.isWanted && !job.started ? [Self.drop(job, from: &state)] : []
        }
        tell(dropped)
    }

    /// Stops every preheat that has not started.
    func stopAllPreheating() {
        let dropped = state.withLock { state -> [ImageLoaderEvent] in
            var dropped: [ImageLoaderEvent] = []
            for job in state.jobs.values where job.preheaters > 0 {
                job.preheaters = 0
                if !job.isWanted, !job.started { dropped.append(Self.drop(job, from: &state)) }
            }
            return dropped
        }
        tell(dropped)
    }

    /// Unsubscribes a request; returns false when it was not waiting (already delivered).
    @discardableResult
    func cancel(requestID: Int32, key: ImageKey) -> Bool {
        let (waiting, dropped) = state.withLock { state -> (Bool, [ImageLoaderEvent]) in
            guard let job = state.jobs[key], job.subscribers.removeValue(forKey: requestID) != nil else { return (false, []) }
            return (true, !job.isWanted && !job.started ? [Self.drop(job, from: &state)] : [])
        }
        tell(dropped)
        return waiting
    }

    /// Renders run so far (for tests and statistics).
    var renderCount: Int { renders.load(ordering: .relaxed) }

    /// Jobs waiting to start (for tests and statistics).
    var queuedCount: Int { state.withLock { $0.queues.reduce(0) { $0 + $1.count } } }

    private static func drop(_ job: Job, from state: inout State) -> ImageLoaderEvent {
        state.jobs[job.key] = nil
        state.queues[job.priority.rawValue].removeAll { $0 === job }
        return .dropped(assetUUID: job.key.assetUUID)
    }

    /// Starts queued jobs while fewer than the maximum run.
    private func drain() {
        while let job = takeNext() {
            // Before the job is handed over, so that the job ending it (which drains first)
            // never leaves the count at zero in between.
            memoryRelease.begin()
            workQueue.async { [self] in run(job) }
        }
    }

    private func takeNext() -> Job? {
        state.withLock { state in
            guard state.running < maximumConcurrentRenders else { return nil }
            for index in state.queues.indices where !state.queues[index].isEmpty {
                let job = state.queues[index].removeFirst()
                job.started = true
                state.running += 1
                return job
            }
            return nil
        }
    }

    private func run(_ job: Job) {
        // Below the rest of the process when it asks (`photos serve`: below its event loops).
        BackgroundPriority.lowerCurrentThread()
        renders.add(1, ordering: .relaxed)
        tell([.started(assetUUID: job.key.assetUUID, preheat: job.priority == .preheat)])
        let result: Result<UIImage, PHPhotosError>
        do throws(PHPhotosError) {
            result = .success(try job.render())
        } catch {
            result = .failure(error)
        }
        if case .success(let image) = result { cache.insert(image, for: job.key) }
        let subscribers = state.withLock { state in
            state.running -= 1
            state.jobs[job.key] = nil
            let subscribers = job.subscribers
            job.subscribers = [:]
            return subscribers
        }
        tell([.finished(assetUUID: job.key.assetUUID)])
        for completion in subscribers.values { completion(result) }
        drain()
        memoryRelease.end()
    }
}

/// A step of an ``ImageLoader``'s work, told to ``PHPhotoLibrary/Configuration/imageLoaderEvents``
/// (after Nuke's `TaskQueue.onEvent`): tests wait for the step they mean instead of sleeping.
package enum ImageLoaderEvent: Sendable, Equatable {
    /// A render of the asset was queued (for a request, or to preheat).
    case queued(assetUUID: String, preheat: Bool)
    /// A render began on the pool.
    case started(assetUUID: String, preheat: Bool)
    /// A render ended (its image cached unless it failed); its requests are told next.
    case finished(assetUUID: String)
    /// A queued render nobody wanted any more was dropped before it began.
    case dropped(assetUUID: String)
}
