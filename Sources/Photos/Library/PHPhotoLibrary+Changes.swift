import Foundation
package import PhotosStore

extension PHPhotoLibrary {
    /// Runs `changeBlock` on the library's change queue and commits every request made in it,
    /// in one transaction: all of them, or (on error) none.
    ///
    /// `completionHandler` runs afterwards on a serial background queue (never the main
    /// thread), once per call, in commit order, after the change is visible to fetches, and
    /// before change observers hear of the change: an observer unregistered in the completion
    /// handler is not called for it (Apple's sample apps rely on this order).
    /// Change requests may only be made inside the block; elsewhere they stop the process,
    /// as Apple's raise `NSInternalInconsistencyException`.
    public func performChanges(
        _ changeBlock: @escaping () -> Void, completionHandler: ((Bool, (any Error)?) -> Void)? = nil
    ) {
        if ChangeContext.current != nil {
            fatalError("performChanges(_:completionHandler:) can't be called from inside a change block")
        }
        // One box per value: destructuring a tuple held in a generic box inside an escaping
        // closure over-releases it with Swift 6.3.1 (use-after-free found with ASan).
        let block = UncheckedSendable(changeBlock)
        let completion = UncheckedSendable(completionHandler)
        changeQueue.async {
            var failure: (any Error)?
            // Observers wait for the completion handler to return.
            let gate = completion.value == nil ? nil : DeliveryGate()
            do {
                try self.runChangeBlock(block.value, gate: gate)
            } catch {
                failure = error
            }
            guard let gate else { return }
            let outcome = UncheckedSendable(failure)
            self.callbackQueue.async {
                completion.value?(outcome.value == nil, outcome.value)
                gate.open()
            }
        }
    }

    /// Runs `changeBlock` and commits its requests, returning when they are saved.
    ///
    /// Throws the ``PHPhotosError`` that made the change fail; then nothing was changed.
    /// Linux: the method runs in its caller's isolation (`nonisolated(nonsending)`), so a
    /// `@MainActor` view model passes a change block that captures its state, as it does with
    /// Apple's imported method in Swift 6 mode.
    public nonisolated(nonsending) func performChanges(_ changeBlock: @escaping () -> Void) async throws {
        let block = UncheckedSendable(changeBlock)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            performChanges(block.value) { success, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// Runs `changeBlock` on the calling thread, commits its requests and returns when they
    /// are saved; other change blocks of this library wait their turn.
    ///
    /// Don't call it from inside a change block (Apple raises; this stops the process).
    public func performChangesAndWait(_ changeBlock: () -> Void) throws {
        try runAndWait(changeBlock)
    }
}

extension PHPhotoLibrary {
    /// ``performChangesAndWait(_:)``, returning the change token of its own commit (the
    /// current one when the block asked for nothing): for `photos serve`'s answer, without a
    /// read of the library's position after the commit (a round trip on PostgreSQL), and
    /// exact when another instance commits right after.
    package func performChangesAndWaitForToken(_ changeBlock: () -> Void) throws -> PHPersistentChangeToken {
        guard let position = try runAndWait(changeBlock) else { return currentChangeToken }
        return changeToken(at: position)
    }

    /// ``performChangesAndWait(_:)`` for an import batch: the commit also marks the batch done
    /// with its new assets, and fails (changing nothing) when the batch is already finished.
    package func performChangesAndWait(_ changeBlock: () -> Void, completing importBatch: ImportBatchCompletion) throws {
        try runAndWait(changeBlock, importBatch: importBatch)
    }

    /// The `performChangesAndWait` variants: `changeBlock` run and committed on the change
    /// queue, the caller waiting; the library's position after the commit (nil: nothing asked).
    @discardableResult
    private func runAndWait(_ changeBlock: () -> Void, importBatch: ImportBatchCompletion? = nil) throws -> Int64? {
        if ChangeContext.current != nil {
            fatalError("performChangesAndWait(_:) can't be called from inside a change block")
        }
        return try withoutActuallyEscaping(changeBlock) { block in
            let work = UncheckedSendable(block)
            return try changeQueue.sync {
                try self.runChangeBlock(work.value, importBatch: importBatch)
            }
        }
    }
}
