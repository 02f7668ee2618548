public import Foundation

/// The error domain of ``PHPhotosError``: `"PHPhotosErrorDomain"`, as on Apple's platforms.
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// `userInfo` key of the local identifiers an error concerns (`[String]`).
public let PHLocalIdentifiersErrorKey = "PHLocalIdentifiersErrorKey"

/// An error from the Photos framework, with Apple's domain, codes and numbering.
///
/// Catch it as `PHPhotosError` and switch on ``code``, catch one code with a pattern
/// (`catch PHPhotosError.networkAccessRequired`), or bridge it to `NSError` and compare `code`
/// with Apple's raw values. Make one as Apple's overlay does, `PHPhotosError(.invalidResource,
/// userInfo: [NSLocalizedDescriptionKey: "…"])`.
///
/// Linux: every error the library throws carries a message naming the file, object or index
/// at fault (`localizedDescription`). Errors are compared by code, message and local
/// identifiers; other `userInfo` entries ride along but are not compared. The type is a
/// Swift struct bridged to `NSError` through `CustomNSError` (Apple's is a bridged stored
/// `NSError`), so `init(_nsError:)` is not offered.
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
    public static let relinquishingLibraryBundleToWriter = Code.relinquishingLibraryBundleToWriter
    public static let switchingSystemPhotoLibrary = Code.switchingSystemPhotoLibrary
    public static let networkAccessRequired = Code.networkAccessRequired
    public static let networkError = Code.networkError
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
    public static let libraryInFileProviderSyncRoot = Code.libraryInFileProviderSyncRoot
    public static let persistentChangeTokenExpired = Code.persistentChangeTokenExpired
    public static let persistentChangeDetailsUnavailable = Code.persistentChangeDetailsUnavailable

    public let code: Code
    /// What went wrong, naming the file, object or index at fault.
    public let message: String
    /// The local identifiers the error concerns, if any (`PHLocalIdentifiersErrorKey`).
    public let localIdentifiers: [String]
    /// The other `userInfo` entries given to ``init(_:userInfo:)``.
    private let otherInfo: UncheckedSendable<[String: Any]>

    public init(_ code: Code, _ message: String, localIdentifiers: [String] = []) {
        self.code = code
        self.message = message
        self.localIdentifiers = localIdentifiers
        otherInfo = UncheckedSendable([:])
    }

    /// An error with `code` and `userInfo`, as Apple's overlay makes one: the message from
    /// `NSLocalizedDescriptionKey` (else Foundation's wording for the code), the identifiers
    /// from ``PHLocalIdentifiersErrorKey``; other entries are kept in ``userInfo``.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        message = userInfo[NSLocalizedDescriptionKey] as? String
            ?? "The operation couldn’t be completed. (\(PHPhotosErrorDomain) error \(code.rawValue).)"
        localIdentifiers = userInfo[PHLocalIdentifiersErrorKey] as? [String] ?? []
        // `userInfo` values are whatever the caller put there; they are only read back.
        otherInfo = UncheckedSendable(userInfo.filter { $0.key != NSLocalizedDescriptionKey && $0.key != PHLocalIdentifiersErrorKey })
    }

    public static var errorDomain: String { PHPhotosErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info = otherInfo.value
        info[NSLocalizedDescriptionKey] = message
        if !localIdentifiers.isEmpty { info[PHLocalIdentifiersErrorKey] = localIdentifiers }
        return info
    }
    /// The error's `userInfo`, as its `NSError` has it.
    public var userInfo: [String: Any] { errorUserInfo }
    public var errorDescription: String? { message }

    public static func == (lhs: PHPhotosError, rhs: PHPhotosError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.localIdentifiers == rhs.localIdentifiers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(localIdentifiers)
    }
}

extension PHPhotosError.Code {
    /// Matches an error of this code, a ``PHPhotosError`` or an `NSError` in
    /// ``PHPhotosErrorDomain``: `catch PHPhotosError.networkAccessRequired { … }`.
    public static func ~= (match: PHPhotosError.Code, error: any Error) -> Bool {
        if let error = error as? PHPhotosError { return error.code == match }
        let bridged = error as NSError
        return bridged.domain == PHPhotosErrorDomain && bridged.code == match.rawValue
    }
}
