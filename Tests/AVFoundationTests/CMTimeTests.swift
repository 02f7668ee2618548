import CoreMedia
import Testing

@Suite struct CMTimeTests {
    @Test func secondsAndScales() {
        let time = CMTime(value: 1001, timescale: 30000)
        #expect(abs(time.seconds - 0.033366) < 1e-6)
        #expect(CMTimeGetSeconds(CMTimeMakeWithSeconds(2.5, preferredTimescale: 600)) == 2.5)
        #expect(CMTime(seconds: 1.0 / 3.0, preferredTimescale: 600).value == 200)
        #expect(CMTime(value: 1, timescale: 3).convertScale(600, method: .default).value == 200)
        #expect(CMTime(value: 1, timescale: 7).convertScale(10, method: .default).hasBeenRounded)
        #expect(CMTime.invalid.seconds.isNaN)
        #expect(CMTime.positiveInfinity.seconds == .infinity)
    }

    @Test func arithmeticAcrossTimescales() {
        let a = CMTime(value: 1, timescale: 2)
        let b = CMTime(value: 300, timescale: 600)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect((a + b).seconds == 1)
        #expect((a - CMTime(value: 3, timescale: 4)).seconds == -0.25)
        #expect((a * Int32(3)).seconds == 1.5)
        #expect(CMTimeMultiplyByFloat64(a, multiplier: 0.5).seconds == 0.25)
        #expect(CMTimeAdd(.positiveInfinity, .negativeInfinity) == .invalid)
        #expect(CMTimeAdd(a, .positiveInfinity).isPositiveInfinity)
    }

    @Test func ordering() {
        let ordered: [CMTime] = [.invalid, .negativeInfinity, CMTime(value: -1, timescale: 1), .zero, CMTime(value: 1, timescale: 1000), .positiveInfinity, .indefinite]
        #expect(ordered.shuffled().sorted() == ordered)
        #expect(CMTimeMinimum(.zero, .positiveInfinity) == .zero)
        #expect(CMTimeMaximum(.zero, CMTime(value: 1, timescale: 10)).seconds == 0.1)
    }

    @Test func ranges() {
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 2, timescale: 1))
        #expect(range.end.seconds == 3)
        #expect(range.containsTime(CMTime(value: 2, timescale: 1)))
        #expect(!range.containsTime(CMTime(value: 3, timescale: 1)))
        let other = CMTimeRange(start: CMTime(value: 2, timescale: 1), end: CMTime(value: 5, timescale: 1))
        #expect(range.intersection(other) == CMTimeRange(start: CMTime(value: 2, timescale: 1), duration: CMTime(value: 1, timescale: 1)))
        #expect(range.union(other).duration.seconds == 4)
        #expect(CMTimeRange(start: .zero, duration: .positiveInfinity).isValid)
        #expect(!CMTimeRange(start: .zero, duration: CMTime(value: -1, timescale: 1)).isValid)
    }
}
