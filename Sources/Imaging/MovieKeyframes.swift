public import Foundation

/// Where a movie's video can be entered: its key frames (sync samples) as an MP4/MOV/3GP
/// lists them in its sample tables (`stss`), read without decoding; what a frame generator plans
/// its decoding from (a frame costs the decoding from the key frame before it).
///
/// Numbers are 0-based positions in decode order, which is where a key frame is shown too when
/// its group of pictures is closed (no frame after it refers to one before): good for planning,
/// not for naming frames.
public enum MovieKeyframes: Sendable, Equatable {
    /// Every frame is a key frame: the track has no `stss` table.
    case every
    /// The key frames' numbers, ascending.
    case listed([Int])

    /// The first video track's key frames; nil when the file is not an ISO/QuickTime movie, has
    /// no video track, keeps its samples in fragments (`moof`), or its tables can't be read.
    public static func read(from url: URL) -> MovieKeyframes? {
        guard let source = try? FileSource(url: url) else { return nil }
        let parser = ISOBMFFParser(source: source)
        guard let moov = parser.topLevel().boxes.first(where: { $0.type == "moov" }) else { return nil }
        for trak in parser.children(of: moov) where trak.type == "trak" {
            guard let mdia = parser.child("mdia", of: trak), let hdlr = parser.child("hdlr", of: mdia),
                let handler = parser.payload(hdlr, limit: 4096), handler.count >= 12, handler[8 ..< 12].elementsEqual("vide".utf8),
                let stbl = parser.descend(mdia, "minf", "stbl")
            else { continue }
            let tables = parser.children(of: stbl)
            // A fragmented movie's sample tables are empty: its samples are in `moof` boxes.
            guard let stsz = tables.first(where: { $0.type == "stsz" || $0.type == "stz2" }),
                stsz.payloadSize >= 12, let sizes = source.bytes(at: stsz.payloadStart, count: 12)
            else { return nil }
            var header = PayloadReader(sizes)
            guard header.skip(8), let sampleCount = header.u32(), sampleCount > 0 else { return nil }
            guard let stss = tables.first(where: { $0.type == "stss" }) else { return .every }
            guard let bytes = parser.payload(stss, limit: 64 << 20) else { return nil }
            var reader = PayloadReader(bytes)
            guard reader.skip(4), let count = reader.u32(), Int64(count) * 4 <= Int64(reader.remaining) else { return nil }
            var numbers: [Int] = []
            numbers.reserveCapacity(Int(count))
            for _ in 0 ..< count {
                // 1-based sample numbers, ascending in a valid table; out of order ones are dropped.
                guard let number = reader.u32(), number >= 1 else { return nil }
                if let last = numbers.last, Int(number) - 1 <= last { continue }
                numbers.append(Int(number) - 1)
            }
            return numbers.isEmpty ? nil : .listed(numbers)
        }
        return nil
    }

    /// The last key frame at or before `frame`: where decoding it starts (0 before the first).
    public func keyframe(atOrBefore frame: Int) -> Int {
        switch self {
        case .every:
            return max(0, frame)
        case .listed(let numbers):
            // Binary search for the last number <= frame.
            var low = 0, high = numbers.count
            while low < high {
                let middle = (low + high) / 2
                if numbers[middle] <= frame { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? 0 : numbers[low - 1]
        }
    }
}
