import Foundation

/// A span of time: a start and a duration, as Core Media has it.
///
/// Linux: a stand-in with Apple's member names (export sessions' `timeRange`, tracks'
/// `timeRange`).
public struct CMTimeRange: Sendable, Hashable, Codable, CustomStringConvertible {
    public var start: CMTime
    public var duration: CMTime

    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// The range from `start` up to (not including) `end`.
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: end - start)
    }

    /// The range of nothing: starts at 0, lasts 0.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)

    /// `start + duration`.
    public var end: CMTime { start + duration }
    public var isValid: Bool { start.isValid && duration.isValid && duration >= .zero && !duration.isNegativeInfinity }
    public var isEmpty: Bool { isValid && duration == .zero }
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }

    public func containsTime(_ time: CMTime) -> Bool { time >= start && time < end }

    public func containsTimeRange(_ range: CMTimeRange) -> Bool { range.start >= start && range.end <= end }

    /// The overlap of the two ranges (empty when they don't overlap).
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
        let start = CMTimeMaximum(self.start, otherRange.start)
        let end = CMTimeMinimum(self.end, otherRange.end)
        return end > start ? CMTimeRange(start: start, end: end) : CMTimeRange(start: start, duration: .zero)
    }

    /// The smallest range holding both.
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange {
        CMTimeRange(start: CMTimeMinimum(start, otherRange.start), end: CMTimeMaximum(end, otherRange.end))
    }

    public var description: String { "CMTimeRange(start: \(start), duration: \(duration))" }
}

public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange { CMTimeRange(start: start, duration: duration) }
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool { range.containsTime(time) }
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange { range.intersection(otherRange) }
public let kCMTimeRangeZero = CMTimeRange.zero
public let kCMTimeRangeInvalid = CMTimeRange.invalid
