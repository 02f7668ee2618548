import Dispatch

/// Holds the delivery of one local commit to observers until it is opened.
///
/// `performChanges(_:completionHandler:)` makes one per call with a completion handler and
/// opens it once the handler has returned, so a change reaches observers only after the code
/// that made it was told (Apple's SamplePhotosApp unregisters an observer in the completion
/// handler of a delete, then force-unwraps `objectAfterChanges` in that observer).
final class DeliveryGate: Sendable {
    private let group = DispatchGroup()

    init() { group.enter() }

    /// Lets the delivery go; called exactly once.
    func open() { group.leave() }

    /// Blocks the observers' queue until ``open()``.
    func wait() { group.wait() }
}
