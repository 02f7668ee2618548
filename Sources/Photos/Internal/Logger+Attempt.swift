import Foundation
import Logging
import PhotosLocking

extension Logger {
    /// Runs `body` and returns what it returns; when it throws, logs "Could not `what`: the
    /// reason" at `level` and returns nil. For work whose failure the caller goes on from (a
    /// derivative not kept, a store read a background job retries), so the failure is not
    /// dropped unseen. `what` names the object ("keep the thumbnail /…/X_thumbnail.jpg") and is
    /// built only when the message is logged. Work retried at every wake-up passes its
    /// ``RecurringFailure``: while it keeps failing, only the first failure is logged at `level`.
    @discardableResult
    func attempt<T>(
        _ level: Logger.Level, _ what: @autoclosure () -> String, recurring: RecurringFailure? = nil,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        _ body: () throws -> T
    ) -> T? {
        running(body, level, what, recurring, file: file, function: function, line: line)
    }

    /// ``attempt(_:_:recurring:file:function:line:_:)`` for a body that answers nil itself (a
    /// claim held elsewhere, no row): nil when it does, or when it throws (logged).
    @discardableResult
    func attempt<T>(
        _ level: Logger.Level, _ what: @autoclosure () -> String, recurring: RecurringFailure? = nil,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        _ body: () throws -> T?
    ) -> T? {
        running(body, level, what, recurring, file: file, function: function, line: line) ?? nil
    }

    private func running<T>(
        _ body: () throws -> T, _ level: Logger.Level, _ what: () -> String, _ recurring: RecurringFailure?,
        file: String, function: String, line: UInt
    ) -> T? {
        do {
            let value = try body()
            recurring?.succeeded()
            return value
        } catch {
            let again = recurring?.failed() ?? false
            failed(again ? .debug : level, what(), error, file: file, function: function, line: line)
            return nil
        }
    }

    /// Logs "Could not `what`: the reason" at `level`, for a failure caught by hand. The reason
    /// is in the message only: swift-log's default handler would print an error passed beside
    /// it (`error:`) again, as a dump.
    func failed(
        _ level: Logger.Level, _ what: @autoclosure () -> String, _ error: any Error,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(level: level, "Could not \(what()): \(Self.reason(error))", file: file, function: function, line: line)
    }

    /// A failure's own words: a `PHPhotosError`'s or the store's message, a file operation's
    /// system reason ("Not a directory"; Foundation's own text on Linux is only "The operation
    /// could not be completed").
    static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError {
            if let underlying = error.underlying.map({ $0 as NSError }), underlying.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(underlying.code)))
            }
            return error.localizedDescription
        }
        if let error = error as? any LocalizedError, let description = error.errorDescription { return description }
        return "\(error)"
    }
}

/// Work a watcher or a worker tries again at every wake-up (reading the library's position,
/// the next due job): while it keeps failing (a database that is gone), ``Logger/attempt(_:_:recurring:file:function:line:_:)``
/// logs the first failure at its level and the ones after at `.debug`, until it succeeds again,
/// instead of a line a second.
final class RecurringFailure: Sendable {
    private let failing = Mutex(false)

    /// Notes a failure; whether the attempt before failed too.
    func failed() -> Bool {
        failing.withLock { failing in
            defer { failing = true }
            return failing
        }
    }

    func succeeded() {
        failing.withLock { $0 = false }
    }
}

extension FileManager {
    /// Removes the item at `url`; one that is not there is no failure (another process, or
    /// the step before, removed it).
    func removeItemIfPresent(at url: URL) throws {
        do {
            try removeItem(at: url)
        } catch let error as CocoaError where error.code == .fileNoSuchFile {
            return
        }
    }
}
