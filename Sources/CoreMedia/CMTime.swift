public import Foundation

/// A count of `timescale` units; `CMTimeValue / CMTimeScale` seconds.
public typealias CMTimeValue = Int64
/// Units per second.
public typealias CMTimeScale = Int32
/// Times in a `CMTime` are relative to this epoch (usually 0).
public typealias CMTimeEpoch = Int64

/// The flags of a ``CMTime``. Raw values are Apple's.
public struct CMTimeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// How ``CMTime/convertScale(_:method:)`` rounds. Raw values are Apple's.
public enum CMTimeRoundingMethod: UInt32, Sendable {
    case roundHalfAwayFromZero = 1
    case roundTowardZero = 2
    case roundAwayFromZero = 3
    case quickTime = 4
    case roundTowardNegativeInfinity = 5
    case roundTowardPositiveInfinity = 6
    public static let `default` = CMTimeRoundingMethod.roundHalfAwayFromZero
}

/// A rational time, `value / timescale` seconds, as Core Media has it.
///
/// Linux: a stand-in with Apple's member names and arithmetic, so code that reads a video's
/// duration (`CMTimeGetSeconds(asset.duration)`, `duration.seconds`) compiles unchanged.
/// Arithmetic between different timescales is done in the larger one, rounding half away
/// from zero (Apple picks a common scale the same way for the scales video uses: 600, 1000,
/// 30000, 44100, 48000, 90000).
public struct CMTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var value: CMTimeValue
    public var timescale: CMTimeScale
    public var flags: CMTimeFlags
    public var epoch: CMTimeEpoch

    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// `value / timescale` seconds; an invalid time when `timescale` is not positive.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: 0)
    }

    /// `seconds` in units of `1 / preferredTimescale`, rounded half away from zero;
    /// infinities and NaN give the matching special times.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        if seconds.isNaN {
            self = .invalid
        } else if seconds == .infinity {
            self = .positiveInfinity
        } else if seconds == -.infinity {
            self = .negativeInfinity
        } else {
            let scaled = (seconds * Double(preferredTimescale)).rounded(.toNearestOrAwayFromZero)
            let clamped = min(max(scaled, Double(Int64.min)), Double(Int64.max))
            self.init(value: Int64(clamped), timescale: preferredTimescale, flags: .valid, epoch: 0)
        }
    }

    public static let zero = CMTime(value: 0, timescale: 1)
    public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    public var isValid: Bool { flags.contains(.valid) }
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Valid and not infinite or indefinite.
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }
    public var hasBeenRounded: Bool { flags.contains(.hasBeenRounded) }

    /// The time in seconds (NaN when invalid or indefinite, ±infinity for the infinities).
    public var seconds: Double {
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        guard isNumeric, timescale > 0 else { return .nan }
        return Double(value) / Double(timescale)
    }

    /// This time in another timescale.
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        guard isNumeric, newTimescale > 0 else { return self }
        if newTimescale == timescale { return self }
        let exact = Double(value) * Double(newTimescale) / Double(timescale)
        let rounded: Double =
            switch method {
            case .roundTowardZero: exact.rounded(.towardZero)
            case .roundAwayFromZero: exact.rounded(.awayFromZero)
            case .roundTowardNegativeInfinity: exact.rounded(.down)
            case .roundTowardPositiveInfinity: exact.rounded(.up)
            case .roundHalfAwayFromZero, .quickTime: exact.rounded(.toNearestOrAwayFromZero)
            }
        var flags: CMTimeFlags = .valid
        if rounded != exact || hasBeenRounded { flags.insert(.hasBeenRounded) }
        return CMTime(value: Int64(rounded), timescale: newTimescale, flags: flags, epoch: epoch)
    }

    public var description: String {
        if !isValid { return "CMTime(invalid)" }
        if isIndefinite { return "CMTime(indefinite)" }
        if isPositiveInfinity { return "CMTime(+infinity)" }
        if isNegativeInfinity { return "CMTime(-infinity)" }
        return "CMTime(\(value)/\(timescale) = \(seconds)s)"
    }

    // MARK: Comparison and arithmetic

    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) < 0 }

    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) == 0 }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rankForCompare)
        if rankForCompare == 2 { hasher.combine(seconds) }
    }

    fileprivate static func common(_ a: CMTime, _ b: CMTime) -> (Int64, Int64, Int32) {
        let scale = max(a.timescale, b.timescale)
        return (a.convertScale(scale, method: .default).value, b.convertScale(scale, method: .default).value, scale)
    }

    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeAdd(lhs, rhs) }
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeSubtract(lhs, rhs) }
    public static func += (lhs: inout CMTime, rhs: CMTime) { lhs = lhs + rhs }
    public static func -= (lhs: inout CMTime, rhs: CMTime) { lhs = lhs - rhs }
    public static func * (time: CMTime, multiplier: Int32) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
    public static func * (time: CMTime, multiplier: Float64) -> CMTime { CMTimeMultiplyByFloat64(time, multiplier: multiplier) }
}

// MARK: - Core Media's C functions

public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }

public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    time.convertScale(newTimescale, method: method)
}

/// -1, 0 or 1, ordering invalid < -infinity < numeric < +infinity < indefinite.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    let (a, b) = (time1.rankForCompare, time2.rankForCompare)
    if a != b { return a < b ? -1 : 1 }
    guard a == 2 else { return 0 }
    let (x, y, _) = CMTime.common(time1, time2)
    return x == y ? 0 : (x < y ? -1 : 1)
}

public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    if !lhs.isValid || !rhs.isValid { return .invalid }
    if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
    if (lhs.isPositiveInfinity && rhs.isNegativeInfinity) || (lhs.isNegativeInfinity && rhs.isPositiveInfinity) { return .invalid }
    if lhs.isPositiveInfinity || rhs.isPositiveInfinity { return .positiveInfinity }
    if lhs.isNegativeInfinity || rhs.isNegativeInfinity { return .negativeInfinity }
    let (a, b, scale) = CMTime.common(lhs, rhs)
    return CMTime(value: a &+ b, timescale: scale)
}

public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    var negated = rhs
    if rhs.isPositiveInfinity {
        negated = .negativeInfinity
    } else if rhs.isNegativeInfinity {
        negated = .positiveInfinity
    } else {
        negated.value = -rhs.value
    }
    return CMTimeAdd(lhs, negated)
}

public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    guard time.isNumeric else { return time }
    return CMTime(value: time.value &* Int64(multiplier), timescale: time.timescale)
}

/// As Apple's: the result's timescale is the time's, doubled until it is at least 65536.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    guard time.isNumeric else { return time }
    var scale = Int64(time.timescale)
    while scale < 65536 { scale *= 2 }
    return CMTime(seconds: time.seconds * multiplier, preferredTimescale: Int32(clamping: scale))
}

public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    guard time.isNumeric, divisor != 0 else { return divisor == 0 ? .invalid : time }
    return CMTime(value: time.value * Int64(multiplier) / Int64(divisor), timescale: time.timescale)
}

public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    guard time.isNumeric else { return time.isNegativeInfinity ? .positiveInfinity : time }
    return CMTime(value: abs(time.value), timescale: time.timescale, flags: time.flags, epoch: time.epoch)
}

public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) <= 0 ? time1 : time2 }
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) >= 0 ? time1 : time2 }

public let kCMTimeZero = CMTime.zero
public let kCMTimeInvalid = CMTime.invalid
public let kCMTimeIndefinite = CMTime.indefinite
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity

extension CMTime {
    fileprivate var rankForCompare: Int {
        if !isValid { return 0 }
        if isNegativeInfinity { return 1 }
        if isPositiveInfinity { return 3 }
        if isIndefinite { return 4 }
        return 2
    }
}

extension CMTimeFlags: Codable {}

extension CMTime: Codable {
    private enum CodingKeys: String, CodingKey { case value, timescale, flags, epoch }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            value: try container.decode(Int64.self, forKey: .value), timescale: try container.decode(Int32.self, forKey: .timescale),
            flags: try container.decode(CMTimeFlags.self, forKey: .flags), epoch: try container.decode(Int64.self, forKey: .epoch))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(timescale, forKey: .timescale)
        try container.encode(flags, forKey: .flags)
        try container.encode(epoch, forKey: .epoch)
    }
}

extension NSValue {
    /// The type code of a boxed time. Linux: Foundation here boxes no structs, so the time is
    /// boxed as its 24 bytes (Apple's code is `{CMTime=qiIq}`).
    private static let timeType = "[\(MemoryLayout<CMTime>.size)C]"

    /// A time boxed as a value, as AVFoundation's image generator takes its times.
    public convenience init(time: CMTime) {
        var time = time
        self.init(bytes: &time, objCType: Self.timeType)
    }

    /// The time a value made by ``init(time:)`` holds; `.invalid` for any other value.
    public var timeValue: CMTime {
        guard String(cString: objCType) == Self.timeType else { return .invalid }
        var time = CMTime.invalid
        getValue(&time)
        return time
    }
}
