public import Foundation
internal import CVips

/// An error from the imaging layer: what went wrong, with which file, and libvips' own words.
///
/// `description` always names the file (path or URL) when there is one, and includes the text
/// libvips left in its error buffer when the failure came from libvips.
public struct ImagingError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kind of failure.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The file could not be read: missing, a directory, no permission, an I/O error.
        case unreadable
        /// The bytes are not a photo or video format this library can read.
        case unsupportedFormat
        /// The format was recognised but the file is truncated or damaged.
        case corrupt
        /// libvips could not decode or process the image.
        case decodeFailed
        /// libvips could not encode the image.
        case encodeFailed
        /// The caller asked for something impossible (a crop outside the image, a zero size).
        case invalidArgument
        /// A tool gave up within the time it was given (text recognition).
        case timedOut
    }

    /// The kind of failure.
    public let code: Code
    /// A human-readable explanation, naming the file when there is one.
    public let message: String
    /// The file concerned, when the failure is about a file.
    public let url: URL?

    /// Creates an error. `message` should already name the file; `url` is kept for callers.
    public init(_ code: Code, _ message: String, url: URL? = nil) {
        self.code = code
        self.message = message
        self.url = url
    }

    /// "code: message", e.g. "corrupt: /photos/a.jpg is a truncated JPEG: ...".
    public var description: String { "\(code.rawValue): \(message)" }
}

extension ImagingError {
    /// The file as it appears in messages: a path for file URLs, the URL otherwise.
    static func displayName(_ url: URL?) -> String {
        guard let url else { return "<data>" }
        return url.isFileURL ? url.path : url.absoluteString
    }

    /// Builds an error from the libvips error buffer (and clears it).
    static func vips(_ code: Code, _ what: String, url: URL?) -> ImagingError {
        let detail = VipsRuntime.takeErrorBuffer()
        var message = "\(what) \(displayName(url))"
        if !detail.isEmpty { message += ": \(detail)" }
        return ImagingError(code, message, url: url)
    }
}
