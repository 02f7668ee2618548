public import Foundation

/// The error domain of ``PHPhotosError``: `"PHPhotosErrorDomain"`, as on Apple's platforms.
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// `userInfo` key of the local identifiers an error concerns (`[String]`).
public let PHLocalIdentifiersErrorKey = "PHLocalIdentifiersErrorKey"

/// An error from the Photos framework, with Apple's domain, codes and numbering.
///
/// Catch it as `PHPhotosError` and switch on ``code``, or bridge it to `NSError` and compare
/// `code` with Apple's raw values. Linux: every error carries a message naming the file,
/// object or index at fault (`localizedDescription`).
public struct PHPhotosError: CustomNSError, Hashable, Sendable, LocalizedError {
    /// Apple's error codes, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case internalError = -1
        case userCancelled = 3072
        case libraryVolumeOffline = 3114
        case relinquishingLibraryBundleToWriter = 3142
        case switchingSystemPhotoLibrary = 3143
        case networkAccessRequired = 3164
        case networkError = 3169
        case identifierNotFound = 3201
        case multipleIdentifiersFound = 3202
        case changeNotSupported = 3300
        case operationInterrupted = 3301
        case invalidResource = 3302
        case missingResource = 3303
        case notEnoughSpace = 3305
        case requestNotSupportedForAsset = 3306
        case accessRestricted = 3310
        case accessUserDenied = 3311
        case libraryInFileProviderSyncRoot = 5423
        case persistentChangeTokenExpired = 3105
        case persistentChangeDetailsUnavailable = 3210
    }

    public static let internalError = Code.internalError
    public static let userCancelled = Code.userCancelled
    public static let libraryVolumeOffline = Code.libraryVolumeOffline
    public static let networkAccessRequired = Code.networkAccessRequired
    public static let identifierNotFound = Code.identifierNotFound
    public static let multipleIdentifiersFound = Code.multipleIdentifiersFound
    public static let changeNotSupported = Code.changeNotSupported
    public static let operationInterrupted = Code.operationInterrupted
    public static let invalidResource = Code.invalidResource
    public static let missingResource = Code.missingResource
    public static let notEnoughSpace = Code.notEnoughSpace
    public static let requestNotSupportedForAsset = Code.requestNotSupportedForAsset
    public static let accessRestricted = Code.accessRestricted
    public static let accessUserDenied = Code.accessUserDenied
    public static let persistentChangeTokenExpired = Code.persistentChangeTokenExpired
    public static let persistentChangeDetailsUnavailable = Code.persistentChangeDetailsUnavailable

    public let code: Code
    /// What went wrong, naming the file, object or index at fault.
    public let message: String
    /// The local identifiers the error concerns, if any (`PHLocalIdentifiersErrorKey`).
    public let localIdentifiers: [String]

    public init(_ code: Code, _ message: String, localIdentifiers: [String] = []) {
        self.code = code
        self.message = message
        self.localIdentifiers = localIdentifiers
    }

    public static var errorDomain: String { PHPhotosErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if !localIdentifiers.isEmpty { info[PHLocalIdentifiersErrorKey] = localIdentifiers }
        return info
    }
    public var errorDescription: String? { message }
}
