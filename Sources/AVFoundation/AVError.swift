public import Foundation

/// The domain of ``AVError``.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

/// An error from AVFoundation: a code with Apple's raw values and a description naming what
/// went wrong (FFmpeg's own message where it had one).
///
/// `catch AVError.fileAlreadyExists` and `(error as? AVError)?.code` work as on Apple's
/// platforms; bridged to `NSError` the domain is ``AVFoundationErrorDomain``.
public struct AVError: Error, CustomNSError, Hashable, Sendable, CustomStringConvertible {
    /// Codes used by the stand-in. Raw values are Apple's.
    public enum Code: Int, Sendable {
        case unknown = -11800
        case diskFull = -11807
        case exportFailed = -11820
        case decodeFailed = -11821
        case invalidSourceMedia = -11822
        case fileAlreadyExists = -11823
        case fileFormatNotRecognized = -11828
        case fileFailedToParse = -11829
        case noImageAtTime = -11832
        case operationNotSupportedForAsset = -11838
        case noSourceTrack = -11869
    }

    public let code: Code
    /// What went wrong, in words.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public static var errorDomain: String { AVFoundationErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var localizedDescription: String { message }
    public var description: String { "AVError(\(code), \(message))" }

    public static let unknown = Code.unknown
    public static let diskFull = Code.diskFull
    public static let exportFailed = Code.exportFailed
    public static let decodeFailed = Code.decodeFailed
    public static let invalidSourceMedia = Code.invalidSourceMedia
    public static let fileAlreadyExists = Code.fileAlreadyExists
    public static let fileFormatNotRecognized = Code.fileFormatNotRecognized
    public static let fileFailedToParse = Code.fileFailedToParse
    public static let noImageAtTime = Code.noImageAtTime
    public static let operationNotSupportedForAsset = Code.operationNotSupportedForAsset
    public static let noSourceTrack = Code.noSourceTrack
}

/// `catch AVError.fileAlreadyExists`.
public func ~= (code: AVError.Code, error: any Error) -> Bool {
    (error as? AVError)?.code == code
}
