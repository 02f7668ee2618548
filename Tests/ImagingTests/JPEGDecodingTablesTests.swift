import Foundation
import PhotosTestSupport
import Testing

@testable import Imaging

/// Issue 33: a JPEG whose tables a decoder can't build is refused when probed, with its reason;
/// libvips (libjpeg) can't decode any of them either.
@Suite("JPEG decoding tables")
struct JPEGDecodingTablesTests {
    /// The damaged-table variants of `MalformedInputs.jpeg()`.
    static func variants() throws -> [MalformedInput] {
        try MalformedInputs.jpeg().filter { ["jpeg-dht-", "jpeg-dqt-", "jpeg-sof-mcu"].contains(where: $0.name.hasPrefix) }
    }

    @Test("each damaged table is refused, naming it; libjpeg refuses to decode every one too")
    func refusedAsLibjpegRefuses() throws {
        let folder = try TemporaryFolder()
        let inputs = try Self.variants()
        #expect(inputs.count == 6)
        for input in inputs {
            let url = try input.write(into: folder.url)
            let reason = try #require(MediaProbe.Context.jpegProblem(try FileSource(url: url)), "\(input.name) was accepted")
            #expect(reason.contains(input.expectedReason ?? "?"), "\(input.name): \(reason)")
            // Not a false refusal: libvips' pixel decode (libjpeg) stops too. (Not in its own
            // words: libvips keeps one error buffer per process, which tests decoding at the same
            // time fill and clear, so its message here may be another's or a generic one.)
            var decoded = false
            do {
                try VipsImage(contentsOf: url, access: .sequential).validatePixels()
                decoded = true
            } catch {}
            #expect(!decoded, "\(input.name) decodes, but the probe refuses it: \(reason)")
        }
    }

    /// The kinds whose header libjpeg reads without complaint: only the check sees them before
    /// a decode.
    @Test("a table libjpeg only builds when decoding is refused although libvips reads the header")
    func refusedWhereTheHeaderReads() throws {
        let folder = try TemporaryFolder()
        let url = try MalformedInputs.bogusHuffmanJPEG().write(into: folder.url)
        let header = try VipsImage(contentsOf: url)
        #expect(header.width == 500 && header.height == 375, "libvips reads its header")
        let error = #expect(throws: ImagingError.self) { try MediaProbe.probe(fileAt: url) }
        #expect(error?.code == .corrupt)
        #expect(
            error?.message == "\(url.path) is a damaged JPEG: the Huffman table DC 0 (DHT at offset 16267) is bogus: its counts of codes by "
                + "length (0 3 4 1 1 1 1 1 0 0 0 0 0 0 0 0) make no prefix code, running out of codes at 3 bits")
        #expect(throws: ImagingError.self) { try MediaProbe.probe(data: Data(contentsOf: url)) }
    }

    /// T.81's example tables (Annex K.3) fit; a code using all ones, or more codes of a length
    /// than fit, doesn't.
    @Test("code lengths: the standard tables fit, overfull ones run out where libjpeg says")
    func codeLengths() {
        let luminanceDC = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        let luminanceAC = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]
        let chrominanceAC = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77]
        for counts in [luminanceDC, luminanceAC, chrominanceAC, [Int](repeating: 0, count: 16), [1] + [Int](repeating: 0, count: 15)] {
            #expect(JPEGDecodingTables.overflowingLength(counts) == nil, "\(counts)")
        }
        // Two 1-bit codes: the second is all ones.
        #expect(JPEGDecodingTables.overflowingLength([2] + [Int](repeating: 0, count: 15)) == 1)
        #expect(JPEGDecodingTables.overflowingLength([0, 4] + [Int](repeating: 0, count: 14)) == 2)
        // Room for exactly 2^16 - 1 codes of 16 bits and no more.
        #expect(JPEGDecodingTables.overflowingLength([Int](repeating: 0, count: 15) + [255]) == nil)
        #expect(JPEGDecodingTables.overflowingLength([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]) == nil)
        #expect(JPEGDecodingTables.overflowingLength([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]) == 16)
    }

    /// A table the scan names that no DHT defines is left to the decoder (the standard tables
    /// for 0 and 1; a render failure for others), as before; a bogus table no scan uses is
    /// never built, by libjpeg or the check.
    @Test("undefined and unused tables are left to the decoder")
    func undefinedAndUnusedTables() throws {
        let folder = try TemporaryFolder()
        let undefined = try MalformedInputs.undecodableJPEG().write(into: folder.url)
        #expect(throws: Never.self) { try MediaProbe.probe(fileAt: undefined) }
        // sample1.jpg with every DHT removed: a Motion JPEG frame's layout, decoded with the
        // standard tables.
        let sample = [UInt8](try Data(contentsOf: Fixtures.url("sample1.jpg")))
        #expect(JPEGStructure(source: DataSource(sample)).tables.huffman.count == 4)
        var bytes = sample
        var offset = 2
        while offset + 4 < bytes.count, bytes[offset + 1] != 0xDA {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if bytes[offset + 1] == 0xC4 { bytes.removeSubrange(offset ..< offset + 2 + length) } else { offset += 2 + length }
        }
        let sos = offset
        let motion = folder.file("no-dht.jpg")
        try Data(bytes).write(to: motion)
        #expect(throws: Never.self) { try MediaProbe.probe(fileAt: motion) }
        #expect(throws: Never.self) { try VipsImage(contentsOf: motion, access: .sequential).validatePixels() }
        // A DC table 2 of two 1-bit codes (the second all ones), which no scan uses.
        var unused = sample
        let dht: [UInt8] = [0xFF, 0xC4, 0x00, 0x15, 0x02, 2] + [UInt8](repeating: 0, count: 15) + [0, 1]
        unused.insert(contentsOf: dht, at: sos + (sample.count - bytes.count))
        let spare = folder.file("unused-dht.jpg")
        try Data(unused).write(to: spare)
        #expect(throws: Never.self) { try MediaProbe.probe(fileAt: spare) }
        #expect(throws: Never.self) { try VipsImage(contentsOf: spare, access: .sequential).validatePixels() }
    }
}
