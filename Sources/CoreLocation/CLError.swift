public import Foundation

/// The error domain of ``CLError``: `"kCLErrorDomain"`, as on Apple's platforms.
public let kCLErrorDomain = "kCLErrorDomain"

/// An error from Core Location, with Apple's domain, codes and numbering.
///
/// Linux: only ``CLGeocoder`` reports errors (there are no location services); each carries a
/// message saying what was looked up (`localizedDescription`).
public struct CLError: CustomNSError, Hashable, Sendable, LocalizedError {
    /// Apple's codes, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case locationUnknown = 0
        case denied = 1
        case network = 2
        case headingFailure = 3
        case regionMonitoringDenied = 4
        case regionMonitoringFailure = 5
        case regionMonitoringSetupDelayed = 6
        case regionMonitoringResponseDelayed = 7
        case geocodeFoundNoResult = 8
        case geocodeFoundPartialResult = 9
        case geocodeCanceled = 10
        case deferredFailed = 11
        case deferredNotUpdatingLocation = 12
        case deferredAccuracyTooLow = 13
        case deferredDistanceFiltered = 14
        case deferredCanceled = 15
        case rangingUnavailable = 16
        case rangingFailure = 17
        case promptDeclined = 18
        case historicalLocationError = 19
    }

    public static let locationUnknown = Code.locationUnknown
    public static let denied = Code.denied
    public static let network = Code.network
    public static let geocodeFoundNoResult = Code.geocodeFoundNoResult
    public static let geocodeFoundPartialResult = Code.geocodeFoundPartialResult
    public static let geocodeCanceled = Code.geocodeCanceled

    public let code: Code
    /// What went wrong.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public static var errorDomain: String { kCLErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var errorDescription: String? { message }
}

extension CLError.Code {
    /// Matches an error of this code, a ``CLError`` or an `NSError` in ``kCLErrorDomain``:
    /// `catch CLError.geocodeFoundNoResult { … }`.
    public static func ~= (match: CLError.Code, error: any Error) -> Bool {
        if let error = error as? CLError { return error.code == match }
        let bridged = error as NSError
        return bridged.domain == kCLErrorDomain && bridged.code == match.rawValue
    }
}
