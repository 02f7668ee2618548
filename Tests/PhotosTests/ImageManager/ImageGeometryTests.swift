import Foundation
import Testing

@testable import Photos

/// The size and region each option combination delivers, for a 4000 × 3000 source.
@Suite("Image request geometry")
struct ImageGeometryTests {
    static func plan(
        _ width: Double, _ height: Double, _ mode: PHImageContentMode, _ resize: PHImageRequestOptionsResizeMode,
        crop: CGRect = .zero, source: (Int, Int) = (4000, 3000)
    ) -> ImageGeometry {
        ImageGeometry.plan(
            sourceWidth: source.0, sourceHeight: source.1, target: CGSize(width: width, height: height), contentMode: mode,
            resizeMode: resize, normalizedCrop: crop)
    }

    static func size(_ geometry: ImageGeometry) -> [Int] { [geometry.width, geometry.height] }

    @Test func aspectFitFitsInsideAndAspectFillCovers() {
        #expect(Self.size(Self.plan(400, 400, .aspectFit, .exact)) == [400, 300])
        #expect(Self.size(Self.plan(400, 400, .aspectFit, .fast)) == [400, 300])
        #expect(Self.size(Self.plan(400, 400, .aspectFill, .fast)) == [533, 400])
        let fill = Self.plan(400, 400, .aspectFill, .exact)
        #expect(Self.size(fill) == [400, 400], "exact fill is the target, centre-cropped")
        #expect(fill.scaledWidth == 533 && fill.scaledHeight == 400 && fill.cropsAfterScaling)
    }

    @Test func onlyExactUpscales() {
        #expect(Self.size(Self.plan(8000, 8000, .aspectFit, .fast)) == [4000, 3000])
        #expect(Self.size(Self.plan(8000, 8000, .aspectFit, .none)) == [4000, 3000])
        #expect(Self.size(Self.plan(8000, 8000, .aspectFit, .exact)) == [8000, 6000])
    }

    @Test func noneKeepsAShrinkOnLoadScale() {
        // 400 × 300 is 1/10: the largest power-of-two shrink that still covers it is 1/8.
        #expect(Self.size(Self.plan(400, 400, .aspectFit, .none)) == [500, 375])
        #expect(Self.size(Self.plan(1500, 1500, .aspectFit, .none)) == [2000, 1500])
        #expect(Self.size(Self.plan(3000, 3000, .aspectFit, .none)) == [4000, 3000])
        #expect(Self.size(Self.plan(10, 10, .aspectFit, .none)) == [500, 375], "at most 1/8")
    }

    @Test func maximumSizeIsTheWholeImage() {
        let whole = Self.plan(-1, -1, .aspectFit, .fast)
        #expect(Self.size(whole) == [4000, 3000] && whole.region == .init(x: 0, y: 0, width: 4000, height: 3000))
        let cropped = Self.plan(-1, -1, .aspectFit, .exact, crop: CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5))
        #expect(Self.size(cropped) == [2000, 1500])
    }

    @Test func cropAppliesOnlyWithExact() {
        let crop = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.5)
        let exact = Self.plan(500, 500, .aspectFit, .exact, crop: crop)
        #expect(exact.region == .init(x: 1000, y: 1500, width: 2000, height: 1500))
        #expect(Self.size(exact) == [500, 375])
        #expect(Self.plan(500, 500, .aspectFit, .fast, crop: crop).region.width == 4000, "ignored without .exact")
        // Outside the unit square: clamped; empty: ignored.
        let clamped = Self.plan(500, 500, .aspectFit, .exact, crop: CGRect(x: 0.75, y: -1, width: 1, height: 3))
        #expect(clamped.region == .init(x: 3000, y: 0, width: 1000, height: 3000))
        #expect(Self.plan(500, 500, .aspectFit, .exact, crop: CGRect(x: 2, y: 2, width: 1, height: 1)).region.width == 4000)
    }

    @Test func oddSizesRoundAndNeverReachZero() {
        #expect(Self.size(Self.plan(100, 100, .aspectFit, .exact, source: (10_000, 10))) == [100, 1])
        #expect(Self.size(Self.plan(99.6, 99.4, .aspectFill, .exact)) == [100, 99])
    }
}
