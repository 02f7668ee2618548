import Foundation
import Logging
import PhotosLocking
import PhotosStore

/// A job of background work every process and instance of a library shares (a video's
/// rendition, a photo's words), as its queue in the library reads it.
protocol SharedJob: Sendable {
    var assetID: Int64 { get }
    var assetUUID: String { get }
    /// Whether the job is to be done now: pending, or failed and past its retry time.
    var isDue: Bool { get }
}

extension RenditionJob: SharedJob {
    var isDue: Bool { (state == .pending || state == .failed) && notBefore <= Date() }
}

extension TextRecognitionJob: SharedJob {
    var isDue: Bool { (state == .pending || state == .failed) && notBefore <= Date() }
}

/// What one process does of a kind of shared background work (``VideoRenditions``,
/// ``TextRecognitionWork``): the jobs it is doing, each with its claim (``JobClaim``, which
/// keeps other processes and instances off it) and what waits for it (`Waiting`: the callers
/// of a rendition; nothing for text); and the jobs whose outcome it could not record (a
/// library opened read-only, a database that refuses writes), passed over until their retry:
/// the store still says they are due, and ``claimNext(idle:due:claim:reread:notDue:)`` would
/// hand them out again at once, in a loop.
final class SharedWorkClaims<Waiting: Sendable>: Sendable {
    private struct State {
        var busy: [Int64: Waiting] = [:]
        var claims: [Int64: any JobClaim] = [:]
        var unrecorded: [Int64: Date] = [:]
    }

    private let state = Mutex(State())
    private let store: LibraryDatabase
    private let logger: Logger
    /// The work's name in log lines ("the rendition", "the text recognition").
    private let work: String
    /// The claim key of an asset's job.
    private let key: @Sendable (Int64) -> JobKey

    init(store: LibraryDatabase, logger: Logger, work: String, key: @escaping @Sendable (Int64) -> JobKey) {
        self.store = store
        self.logger = logger
        self.work = work
        self.key = key
    }

    /// Takes the next due job nobody is doing: not this process, nor another process or
    /// instance (its claim, taken without waiting; a job claimed elsewhere is passed over),
    /// read again under the claim (`reread`: another instance may have done it since). A job
    /// no longer due is let go, and `notDue` told with it as recorded and what waited for it.
    /// Nil when nothing is due or all of it is claimed.
    func claimNext<Job: SharedJob>(
        idle: Waiting, due: (_ excluding: Set<Int64>) -> Job?, reread: (Job) -> Job?,
        notDue: (_ job: Job, _ recorded: Job?, Waiting?) -> Void = { _, _, _ in }
    ) -> Job? {
        var elsewhere = Set<Int64>()
        while true {
            let passedOver = state.withLock { state in
                let now = Date()
                state.unrecorded = state.unrecorded.filter { $0.value > now }
                return Set(state.busy.keys).union(state.unrecorded.keys)
            }
            guard let job = due(passedOver.union(elsewhere)) else { return nil }
            let claim = logger.attempt(.warning, "claim \(work) of \(job.assetUUID)") {
                try store.claimJob(key(job.assetID), waiting: false)
            }
            guard let claim else {
                elsewhere.insert(job.assetID)
                continue
            }
            let taken = state.withLock { state -> Bool in
                guard state.busy[job.assetID] == nil else { return false }
                state.busy[job.assetID] = idle
                state.claims[job.assetID] = claim
                return true
            }
            guard taken else {
                claim.release()
                continue
            }
            let fresh = reread(job)
            if let fresh, fresh.isDue { return fresh }
            notDue(job, fresh, finish(job.assetID))
            elsewhere.insert(job.assetID)
        }
    }

    /// Runs `body` on what waits for `assetID` (nil when this process isn't doing it), under
    /// the lock: a caller joins a job under way, or begins one.
    func waiting<T>(for assetID: Int64, _ body: (inout Waiting?) -> T) -> T {
        state.withLock { state in body(&state.busy[assetID]) }
    }

    /// Keeps `claim` until the job of `assetID` is finished.
    func hold(_ claim: any JobClaim, for assetID: Int64) {
        state.withLock { $0.claims[assetID] = claim }
    }

    /// The job of `assetID` is done here: its claim let go, and what waited for it returned.
    @discardableResult
    func finish(_ assetID: Int64) -> Waiting? {
        let (waiting, claim) = state.withLock { state in
            (state.busy.removeValue(forKey: assetID), state.claims.removeValue(forKey: assetID))
        }
        claim?.release()
        return waiting
    }

    /// The job's outcome could not be recorded: passed over by this process until `date`.
    func passOver(_ assetID: Int64, until date: Date) {
        state.withLock { $0.unrecorded[assetID] = date }
    }
}
