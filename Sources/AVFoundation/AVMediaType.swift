import Foundation

/// The kind of media a track holds. Raw values are Apple's four-character codes.
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let video = AVMediaType("vide")
    public static let audio = AVMediaType("soun")
    public static let text = AVMediaType("text")
    public static let closedCaption = AVMediaType("clcp")
    public static let subtitle = AVMediaType("sbtl")
    public static let timecode = AVMediaType("tmcd")
    public static let metadata = AVMediaType("meta")
    public static let muxed = AVMediaType("muxx")
}

/// A container format, named by its uniform type identifier. Raw values are Apple's.
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let mov = AVFileType("com.apple.quicktime-movie")
    public static let mp4 = AVFileType("public.mpeg-4")
    public static let m4v = AVFileType("com.apple.m4v-video")
    public static let m4a = AVFileType("com.apple.m4a-audio")
    public static let mobile3GPP = AVFileType("public.3gpp")

    /// FFmpeg's muxer for the type.
    var muxer: String? {
        switch self {
        case .mov: "mov"
        case .mp4, .m4v: "mp4"
        case .m4a: "ipod"
        case .mobile3GPP: "3gp"
        default: nil
        }
    }

    /// The usual file name extension.
    var pathExtension: String {
        switch self {
        case .mov: "mov"
        case .m4v: "m4v"
        case .m4a: "m4a"
        case .mobile3GPP: "3gp"
        default: "mp4"
        }
    }
}
