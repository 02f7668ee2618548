/// The sample tables of an MP4/MOV/3GP movie, checked without decoding: every chunk of every
/// track (its offset in `stco`/`co64`, its samples' sizes from `stsc` and `stsz`) must lie inside
/// the file. (A track without sample tables is left to the decoder: a movie made of its header
/// alone is what metadata tests write, and a fragmented one keeps its samples in `moof` boxes.)
enum MovieStructure {
    /// What is wrong, or `nil`. Tracks whose data is in another file (a `dref` entry without the
    /// self-contained flag) are not checked.
    static func structureProblem(parser: ISOBMFFParser, moov: ISOBox) -> String? {
        let fileSize = parser.source.size
        let children = parser.children(of: moov)
        var trackNumber = 0
        for trak in children where trak.type == "trak" {
            trackNumber += 1
            guard let mdia = parser.child("mdia", of: trak) else { continue }
            var handler = "unknown"
            if let hdlr = parser.child("hdlr", of: mdia), let bytes = parser.payload(hdlr, limit: 4096), bytes.count >= 12 {
                handler = String(bytes[8 ..< 12].map { Character(Unicode.Scalar($0)) })
            }
            let name = "track \(trackNumber) ('\(handler)')"
            guard let minf = parser.child("minf", of: mdia), let stbl = parser.child("stbl", of: minf) else { continue }
            if isExternal(parser: parser, minf: minf) { continue }
            let tables = parser.children(of: stbl)
            let chunkBox = tables.first { $0.type == "stco" || $0.type == "co64" }
            guard let chunkBox, let chunkBytes = parser.payload(chunkBox, limit: 64 << 20) else { continue }
            var offsets = PayloadReader(chunkBytes)
            guard offsets.skip(4), let chunkCount = offsets.u32() else { return "the chunk offsets of \(name) are damaged" }
            if chunkCount == 0 { continue }
            let wide = chunkBox.type == "co64"
            guard Int64(chunkCount) * (wide ? 8 : 4) <= Int64(offsets.remaining) else {
                return "the chunk offsets of \(name) list \(chunkCount) chunks but hold fewer"
            }
            // Samples per chunk (stsc) and sample sizes (stsz); without them only offsets are checked.
            let sizes = sampleSizes(parser: parser, tables: tables)
            let runs = chunkRuns(parser: parser, tables: tables)
            var sample = 0
            var run = 0
            for chunk in 1 ... Int(chunkCount) {
                guard let offset = wide ? offsets.u64() : offsets.u32().map(UInt64.init) else { break }
                guard offset < UInt64(fileSize) else {
                    return "chunk \(chunk) of \(name) is at offset \(offset), past the end of the file (\(fileSize) bytes)"
                }
                guard let sizes, let runs, !runs.isEmpty else { continue }
                while run + 1 < runs.count, runs[run + 1].firstChunk <= chunk { run += 1 }
                var end = Int64(offset)
                let perChunk = runs[run].samplesPerChunk
                if sizes.uniform > 0 {
                    end += sizes.uniform * Int64(perChunk)
                } else {
                    // Up to the table's end: counting on past it, a run of 2^24 samples a chunk
                    // spun 2^24 times for each of a 16 KB movie's 4,000 chunks.
                    for _ in 0 ..< min(perChunk, sizes.table.count - sample) {
                        end += Int64(sizes.table[sample])
                        sample += 1
                    }
                }
                guard end <= fileSize else {
                    return "chunk \(chunk) of \(name) at offset \(offset) runs to byte \(end), past the end of the file (\(fileSize) bytes)"
                }
            }
        }
        return nil
    }

    /// Whether a track's first data reference points outside the file.
    private static func isExternal(parser: ISOBMFFParser, minf: ISOBox) -> Bool {
        guard let dinf = parser.child("dinf", of: minf), let dref = parser.child("dref", of: dinf),
            let first = parser.children(from: dref.payloadStart + 8, to: dref.end).boxes.first,
            let flags = parser.source.bytes(at: first.payloadStart, count: 4)
        else { return false }
        return flags[3] & 1 == 0
    }

    struct SampleSizes {
        var uniform: Int64
        var table: [UInt32]
    }

    private static func sampleSizes(parser: ISOBMFFParser, tables: [ISOBox]) -> SampleSizes? {
        guard let stsz = tables.first(where: { $0.type == "stsz" }), let bytes = parser.payload(stsz, limit: 64 << 20) else { return nil }
        var r = PayloadReader(bytes)
        guard r.skip(4), let uniform = r.u32(), let count = r.u32() else { return nil }
        if uniform > 0 { return SampleSizes(uniform: Int64(uniform), table: []) }
        var table: [UInt32] = []
        table.reserveCapacity(Int(min(count, UInt32(r.remaining / 4))))
        for _ in 0 ..< count {
            guard let size = r.u32() else { break }
            table.append(size)
        }
        return SampleSizes(uniform: 0, table: table)
    }

    private static func chunkRuns(parser: ISOBMFFParser, tables: [ISOBox]) -> [(firstChunk: Int, samplesPerChunk: Int)]? {
        guard let stsc = tables.first(where: { $0.type == "stsc" }), let bytes = parser.payload(stsc, limit: 64 << 20) else { return nil }
        var r = PayloadReader(bytes)
        guard r.skip(4), let count = r.u32() else { return nil }
        var runs: [(Int, Int)] = []
        for _ in 0 ..< count {
            guard let first = r.u32(), let perChunk = r.u32(), r.skip(4) else { break }
            // A run claiming absurdly many samples per chunk is checked up to the table's end.
            runs.append((Int(first), Int(min(perChunk, 1 << 24))))
        }
        return runs
    }
}
