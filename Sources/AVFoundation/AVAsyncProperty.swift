public import Foundation

/// A property that ``AVAsynchronousKeyValueLoading/load(_:)`` loads, without its value type.
public class AVPartialAsyncProperty<Root>: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: immutable.
    /// The property's name, as the older key-value loading API spells it (`"duration"`).
    public let name: String

    init(name: String) { self.name = name }

    public var description: String { name }
}

/// A property that ``AVAsynchronousKeyValueLoading/load(_:)`` loads: `.duration`, `.tracks`,
/// `.naturalSize`...
///
/// Linux: loading reads the file with `ffprobe` once per asset (and once per file while its
/// size and modification date stay the same); every property comes from that one reading.
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    // @unchecked Sendable: immutable; `get` runs on whichever task loads.
    let get: (Root) throws -> Value

    init(name: String, get: @escaping (Root) throws -> Value) {
        self.get = get
        super.init(name: name)
    }
}

/// Types whose properties load asynchronously: ``AVAsset`` and ``AVAssetTrack``.
public protocol AVAsynchronousKeyValueLoading {
    /// The older API's status of a property by name.
    func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus
    /// The older API: loads the named properties, then calls `handler` (on a background queue).
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (() -> Void)?)
}

/// Where the older key-value API writes an error: `var error: NSError?` passed as `&error`.
///
/// Linux: Foundation on Linux has no `NSErrorPointer` (an Objective-C autoreleasing pointer
/// on Apple's platforms); the same call sites compile against this one.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// Where a property's loading stands (the older key-value API). Raw values are Apple's.
public enum AVKeyValueStatus: Int, Sendable {
    case unknown = 0
    case loading = 1
    case loaded = 2
    case failed = 3
    case cancelled = 4
}

extension AVAsynchronousKeyValueLoading {
    /// Loads one property: `let duration = try await asset.load(.duration)`.
    public func load<T>(_ property: AVAsyncProperty<Self, T>) async throws -> T {
        try await Self.offThread { try property.get(self) }
    }

    /// Loads several properties at once: `let (duration, tracks) = try await asset.load(.duration, .tracks)`.
    public func load<A, B>(_ a: AVAsyncProperty<Self, A>, _ b: AVAsyncProperty<Self, B>) async throws -> (A, B) {
        try await Self.offThread { (try a.get(self), try b.get(self)) }
    }

    public func load<A, B, C>(
        _ a: AVAsyncProperty<Self, A>, _ b: AVAsyncProperty<Self, B>, _ c: AVAsyncProperty<Self, C>
    ) async throws -> (A, B, C) {
        try await Self.offThread { (try a.get(self), try b.get(self), try c.get(self)) }
    }

    public func load<A, B, C, D>(
        _ a: AVAsyncProperty<Self, A>, _ b: AVAsyncProperty<Self, B>, _ c: AVAsyncProperty<Self, C>, _ d: AVAsyncProperty<Self, D>
    ) async throws -> (A, B, C, D) {
        try await Self.offThread { (try a.get(self), try b.get(self), try c.get(self), try d.get(self)) }
    }

    /// The status of an async property (as Apple's `status(of:)`).
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        var error: NSError?
        switch statusOfValue(forKey: property.name, error: &error) {
        case .loaded:
            if let value = try? property.get(self) { return .loaded(value) }
            return .notYetLoaded
        case .failed: return .failed(error ?? NSError(domain: AVFoundationErrorDomain, code: AVError.Code.unknown.rawValue))
        default: return .notYetLoaded
        }
    }

    /// Runs a (blocking, file-reading) load on a global queue, not on the caller's executor.
    private static func offThread<T>(_ body: @escaping () throws -> T) async throws -> T {
        let body = UncheckedBox(body)
        let result: UncheckedBox<Result<T, any Error>> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: UncheckedBox(Result { try body.value() }))
            }
        }
        return try result.value.get()
    }
}

extension AVAsyncProperty {
    /// What ``AVAsynchronousKeyValueLoading/status(of:)`` says of a property.
    public enum Status {
        case notYetLoaded
        case loading
        case loaded(Value)
        case failed(any Error)
    }
}

/// Carries a value across a queue hop whose two ends never touch it at once.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
