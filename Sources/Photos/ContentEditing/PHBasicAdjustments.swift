public import Foundation
import Imaging

/// The adjustment format the `photos` tool and the web gallery edit with: rotation, crop,
/// exposure, saturation and a filter, stored as JSON adjustment data so a later session (or
/// another program using this type) resumes the edit from the original.
///
/// Linux addition: Apple's Photos app keeps its own format private. The recipe is applied in a
/// fixed order: rotate, crop, exposure, saturation, filter; a movie is trimmed to
/// ``timeRange`` first (``render(movieAt:to:)``).
public struct PHBasicAdjustments: Codable, Equatable, Sendable {
    public static let formatIdentifier = "org.photokit-linux.basic-adjustments"
    public static let formatVersion = "1"

    /// Filters the format knows.
    public enum Filter: String, Codable, Sendable, CaseIterable {
        case none, mono, sepia
    }

    /// Clockwise quarter turns, 0...3.
    public var quarterTurns = 0
    /// The part kept, in unit coordinates of the rotated image (origin top left); nil for all.
    public var crop: CGRect?
    /// Exposure change in stops (EV).
    public var exposure = 0.0
    /// Saturation factor: 0 grey, 1 unchanged, 2 twice as saturated.
    public var saturation = 1.0
    public var filter = Filter.none
    /// For videos: the part of the movie kept (a trim); nil keeps all of it. Photos ignore it.
    public var timeRange: CMTimeRange?

    public init(
        quarterTurns: Int = 0, crop: CGRect? = nil, exposure: Double = 0, saturation: Double = 1, filter: Filter = .none,
        timeRange: CMTimeRange? = nil
    ) {
        self.quarterTurns = quarterTurns
        self.crop = crop
        self.exposure = exposure
        self.saturation = saturation
        self.filter = filter
        self.timeRange = timeRange
    }

    /// Whether it changes nothing.
    public var isIdentity: Bool { self == PHBasicAdjustments() || self == PHBasicAdjustments(crop: CGRect(x: 0, y: 0, width: 1, height: 1)) }

    /// As adjustment data for a `PHContentEditingOutput`.
    public var adjustmentData: PHAdjustmentData {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // try?: only a value that is not finite (NaN, infinity) fails to encode; its empty data
        // then reads back as no recipe (`init?(adjustmentData:)` answers nil).
        let data = (try? encoder.encode(self)) ?? Data()
        return PHAdjustmentData(formatIdentifier: Self.formatIdentifier, formatVersion: Self.formatVersion, data: data)
    }

    /// The recipe stored in adjustment data of this format; nil for another format or damage.
    public init?(adjustmentData: PHAdjustmentData) {
        // try?: damaged data is the nil documented above.
        guard Self.canHandle(adjustmentData), let value = try? JSONDecoder().decode(Self.self, from: adjustmentData.data) else {
            return nil
        }
        self = value
    }

    /// For `PHContentEditingInputRequestOptions.canHandleAdjustmentData`.
    public static func canHandle(_ data: PHAdjustmentData) -> Bool {
        data.formatIdentifier == formatIdentifier && data.formatVersion == formatVersion
    }

    /// Renders the recipe applied to the image at `source` (upright first) as a JPEG at
    /// `destination` (such as `PHContentEditingOutput.renderedContentURL`).
    /// - Throws: a ``PHPhotosError`` naming what failed (an invalid crop, an unreadable image).
    public func render(imageAt source: URL, to destination: URL, quality: Int = 92) throws {
        let data: Data
        do throws(ImagingError) {
            // Random access: a quarter turn (the recipe's or the orientation tag's) reads the
            // source out of order, which a sequential read refuses past a window of lines.
            var image = try VipsImage(contentsOf: source, access: .random).autorotated()
            image = try image.rotated(quarterTurns: quarterTurns)
            if let crop {
                let unit = crop.standardized.intersection(CGRect(x: 0, y: 0, width: 1, height: 1))
                guard !unit.isNull, unit.width > 0, unit.height > 0 else {
                    throw ImagingError(.invalidArgument, "the crop \(crop) lies outside the image")
                }
                let x = Int((unit.minX * Double(image.width)).rounded()), y = Int((unit.minY * Double(image.height)).rounded())
                let width = max(1, min(image.width - x, Int((unit.width * Double(image.width)).rounded())))
                let height = max(1, min(image.height - y, Int((unit.height * Double(image.height)).rounded())))
                image = try image.cropped(x: x, y: y, width: width, height: height)
            }
            image = try image.exposureAdjusted(stops: exposure)
            image = try image.saturationAdjusted(by: saturation)
            switch filter {
            case .none: image = try image.srgb()
            case .mono: image = try image.monochrome()
            case .sepia: image = try image.monochrome(tint: [1.07, 0.74, 0.43])
            }
            data = try image.jpegData(quality: quality, keepMetadata: false)
        } catch {
            throw PHPhotosError(.invalidResource, "Can't render the edit of \(source.lastPathComponent): \(error)")
        }
        do {
            try data.write(to: destination, options: .atomic)
        } catch {
            throw PHPhotosError(.notEnoughSpace, "Can't write the edit to \(destination.path): \(error.localizedDescription)")
        }
    }
}
