import Foundation
import PhotosTestSupport
import Testing

@testable import Imaging

/// A HEIC's thumbnail item (`thmb`) as the source of a small thumbnail (issue 19): used when it
/// needs no upscaling to the box, and then the same picture, the same way up, as the primary
/// image scaled down.
@Suite("HEIC thumbnail items")
struct HEIFThumbnailItemTests {
    /// The corpus' iPhone HEIC: a 3024 × 4032 grid image with a 240 × 320 HEVC thumbnail.
    static let iPhone = MalformedInputs.corpus.appendingPathComponent("pillowheif__heif_other_arrow.heic")

    @Test func aThumbnailItemIsUsedOnlyWhenItCoversTheBox() throws {
        guard FileManager.default.fileExists(atPath: Self.iPhone.path) else {
            Issue.record("no corpus at \(MalformedInputs.corpus.path): run scripts/fetch-corpus.sh")
            return
        }
        let fit = try #require(HEIFDecoder.coveringThumbnail(fileAt: Self.iPhone, box: .init(width: 256, height: 256, coversBothSides: false)))
        #expect(fit.width == 240 && fit.height == 320)
        // Filled or stretched boxes need both sides: 240 < 256.
        #expect(HEIFDecoder.coveringThumbnail(fileAt: Self.iPhone, box: .init(width: 256, height: 256, coversBothSides: true)) == nil)
        #expect(HEIFDecoder.coveringThumbnail(fileAt: Self.iPhone, box: .init(width: 192, height: 256, coversBothSides: true)) != nil)
        #expect(HEIFDecoder.coveringThumbnail(fileAt: Self.iPhone, box: .init(width: 512, height: 512, coversBothSides: false)) == nil)
    }

    @Test func theThumbnailMatchesThePrimaryImageScaledDown() throws {
        guard FileManager.default.fileExists(atPath: Self.iPhone.path) else {
            Issue.record("no corpus at \(MalformedInputs.corpus.path): run scripts/fetch-corpus.sh")
            return
        }
        // The renderer's box for a 256 px aspect-fit cell: exactly 192 × 256.
        let fromItem = try VipsImage.thumbnail(fileAt: Self.iPhone, width: 192, height: 256, exact: true)
        let fromPrimary = try HEIFDecoder.primaryImage(fileAt: Self.iPhone).resized(toFit: 192, height: 256, exact: true).materialized()
        #expect(fromItem.width == 192 && fromItem.height == 256)
        let a = try fromItem.greyPixels(), b = try fromPrimary.greyPixels()
        try #require(a.count == b.count)
        let meanDifference = zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.count)
        #expect(meanDifference < 8, "mean grey difference \(meanDifference): another picture, or turned")
        // Upside down, the same picture differs far more (the check can fail).
        let mirrored = try HEIFDecoder.primaryImage(fileAt: Self.iPhone).applyingOrientation(3).resized(toFit: 192, height: 256, exact: true)
            .materialized().greyPixels()
        let upsideDown = zip(a, mirrored).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.count)
        #expect(upsideDown > meanDifference * 2, "upside down: \(upsideDown), as is: \(meanDifference)")
    }
}
