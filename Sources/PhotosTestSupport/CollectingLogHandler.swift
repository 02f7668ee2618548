package import Foundation
package import Logging
import PhotosLocking

/// A swift-log handler that keeps every record it is given, for tests that check what a library
/// logged. Give it to one library, not to the process (no `LoggingSystem.bootstrap`):
///
/// ```swift
/// let handler = CollectingLogHandler()
/// var configuration = PHPhotoLibrary.Configuration()
/// configuration.logger = Logger(label: "photokit", factory: { _ in handler })
/// ```
///
/// Copies share their records (a `Logger` copies its handler), and keep their own level and
/// metadata, as swift-log asks of a handler. Every level is kept unless ``logLevel`` is raised.
package struct CollectingLogHandler: LogHandler {
    /// One log call as the handler received it.
    package struct Record: Sendable, CustomStringConvertible {
        package var level: Logger.Level
        package var message: String
        /// The error passed with the message (`Logger.log(level:_:error:...)`), if any.
        package var error: (any Error)?
        package var metadata: Logger.Metadata
        /// The file (`#fileID`) and line of the call.
        package var file: String
        package var line: UInt

        package var description: String { "[\(level)] \(message) (\(file):\(line))" }
    }

    private final class Storage: Sendable {
        let records = Mutex<[Record]>([])
        let arrived = DispatchSemaphore(value: 0)
    }

    private let storage = Storage()
    package var logLevel: Logger.Level = .trace
    package var metadata: Logger.Metadata = [:]

    package init() {}

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let record = Record(
            level: event.level, message: event.message.description, error: event.error,
            metadata: metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }, file: event.file, line: event.line)
        storage.records.withLock { $0.append(record) }
        storage.arrived.signal()
    }

    /// Every record so far, in order.
    package var records: [Record] { storage.records.withLock { $0 } }

    /// The records at `level` or above.
    package func records(atLeast level: Logger.Level) -> [Record] {
        records.filter { $0.level >= level }
    }

    /// Waits until the records so far satisfy `condition` (a background job's log line);
    /// false after `timeout` seconds.
    @discardableResult
    package func wait(timeout: TimeInterval = 30, until condition: ([Record]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while !condition(records) {
            guard storage.arrived.wait(timeout: deadline) == .success else { return condition(records) }
        }
        return true
    }
}
