// TEMPORARY until the Imaging module lands.
import Foundation

struct GPSCoordinate: Sendable, Equatable { var latitude: Double; var longitude: Double; var altitude: Double?; var horizontalAccuracy: Double?; var timestamp: Date? }
enum MediaFormat: String { case jpeg, mp4
    var isVideo: Bool { self == .mp4 }; var isRAW: Bool { false }; var uniformTypeIdentifier: String { "public.jpeg" }; var preferredFilenameExtension: String { "jpg" } }
struct MediaMetadata { var format: MediaFormat = .jpeg; var orientedPixelWidth = 0; var orientedPixelHeight = 0; var captureDate: Date?; var captureTimeZoneOffset: Int?; var location: GPSCoordinate?; var duration: Double = 0; var frameRate: Double?; var userComment: String?; var isAnimated = false; var lensModel: String? }
enum MediaProbe { static func probe(fileAt: URL) throws -> MediaMetadata { MediaMetadata() }; static func probe(data: Data) throws -> MediaMetadata { MediaMetadata() } }
final class VipsImage { init(data: Data) throws {}; func autorotated() throws -> VipsImage { self }; func jpegData(quality: Int, keepMetadata: Bool) throws -> Data { Data() }; func pngData() throws -> Data { Data() } }
