import Foundation

/// The tables a JPEG decoder builds before it reads the first scan's data: the Huffman tables
/// (DHT) and quantization tables (DQT) the header segments define, and what the frame (SOF) and
/// the first scan (SOS) take from them. Checked as libjpeg checks them, so that a file whose
/// header reads but whose decoding stops at its first scan ("Bogus Huffman table definition",
/// "Quantization table 0x02 was not defined") is refused when probed. Nothing but header
/// segments is read.
///
/// The rules are libjpeg-turbo 2.1's (`jdmarker.c`, `jdhuff.c`, `jdphuff.c`, `jdinput.c`):
/// - **DHT**: each table a class and index byte (DC 0x00–0x03, AC 0x10–0x13), 16 counts of codes
///   of each length summing to at most 256 and to no more than the bytes left, that many
///   symbols; nothing left over after the last table.
/// - **DQT**: each table an index 0–3 and 64 values of 1 byte (or 2, by its precision nibble);
///   nothing left over.
/// - **SOF**: 3 bytes a component, no more and no fewer; sampling factors 1–4.
/// - **SOS**: 1–4 components, 2 bytes each, each one of the frame's.
/// - **The first scan's Huffman tables** (for Huffman-coded files: a sequential scan uses each
///   component's DC and AC table, a progressive one its DC tables in a first DC pass or its one
///   AC table in an AC band) make a prefix code in which no code is all ones, as T.81's
///   Figure C.2 builds it; a DC table's symbols are magnitude categories 0–15.
/// - **The first scan's quantization tables**: each component's is defined.
/// - **The first scan's MCU**: an interleaved scan's components take at most 10 blocks.
///
/// A Huffman table the scan names that no DHT defines is left to the decoder: libjpeg-turbo
/// supplies the standard tables 0 and 1 to a sequential file (Motion JPEG frames rely on them),
/// and a file naming another decodes nothing, which the library records when it first renders
/// it. Tables for later scans may be defined between scans, beyond what is read here.
struct JPEGDecodingTables {
    /// One Huffman table as its DHT segment defines it.
    struct HuffmanTable {
        /// Where its DHT segment starts, from the SOI.
        var segment: Int64
        /// How many codes there are of each length, 1 to 16 bits.
        var counts: [Int]
        /// The symbols, shortest codes first.
        var symbols: [UInt8]
    }

    /// The Huffman tables by class and index (0x00–0x03 DC, 0x10–0x13 AC); a later definition
    /// replaces an earlier one, as in libjpeg.
    private(set) var huffman: [Int: HuffmanTable] = [:]
    /// The quantization tables defined (indexes 0–3).
    private(set) var quantization: Set<Int> = []
    /// The first DHT or DQT segment that a decoder refuses to read, and why.
    private(set) var segmentProblem: String?

    /// Reads a DHT (`marker` C4) or DQT (DB) segment; `payload` is the segment after its length
    /// field, `offset` where it starts.
    mutating func read(segment marker: UInt8, _ payload: [UInt8], at offset: Int64) {
        let problem = marker == 0xC4 ? readHuffman(payload, at: offset) : readQuantization(payload, at: offset)
        if segmentProblem == nil { segmentProblem = problem }
    }

    private mutating func readHuffman(_ payload: [UInt8], at offset: Int64) -> String? {
        var position = 0
        // libjpeg reads tables while more than 16 bytes are left.
        while payload.count - position > 16 {
            let index = Int(payload[position])
            let counts = payload[position + 1 ... position + 16].map(Int.init)
            let total = counts.reduce(0, +)
            let left = payload.count - position - 17
            guard total <= 256 else {
                return "a Huffman table in the DHT segment at offset \(offset) counts \(total) codes, more than 256"
            }
            guard total <= left else {
                return "a Huffman table in the DHT segment at offset \(offset) counts \(total) codes, more than the \(left) bytes after its counts"
            }
            guard (0 ... 3).contains(index) || (0x10 ... 0x13).contains(index) else {
                return "the DHT segment at offset \(offset) defines table \(String(format: "0x%02X", index)), which is neither a DC (0x00–0x03) nor an AC (0x10–0x13) table"
            }
            let symbols = Array(payload[position + 17 ..< position + 17 + total])
            huffman[index] = HuffmanTable(segment: offset, counts: counts, symbols: symbols)
            position += 17 + total
        }
        guard position == payload.count else {
            let left = payload.count - position
            return "the DHT segment at offset \(offset) has \(left) byte\(left == 1 ? "" : "s") after its last table, too few for another"
        }
        return nil
    }

    private mutating func readQuantization(_ payload: [UInt8], at offset: Int64) -> String? {
        var position = 0
        while position < payload.count {
            let index = Int(payload[position] & 0x0F)
            let size = payload[position] >> 4 == 0 ? 65 : 129
            guard index <= 3 else {
                return "the DQT segment at offset \(offset) defines table \(index) (tables are 0–3)"
            }
            guard position + size <= payload.count else {
                return "the DQT segment at offset \(offset) ends inside table \(index) (\(payload.count - position) of its \(size) bytes)"
            }
            quantization.insert(index)
            position += size
        }
        return nil
    }

    /// What stops a decoder before the first scan's data, or `nil`: see the type's rules.
    func problem(frame: JPEGStructure.Frame, scan: JPEGStructure.Scan) -> String? {
        if let segmentProblem { return segmentProblem }
        let sof = String(format: "SOF%d", Int(frame.marker) - 0xC0)
        guard frame.length == 8 + 3 * frame.components else {
            return "the frame header (\(sof)) at offset \(frame.offset) is \(frame.length) bytes, not the \(8 + 3 * frame.components) its \(frame.components) components take"
        }
        for (number, component) in frame.componentSpecs.enumerated()
        where !(1 ... 4).contains(component.horizontalSampling) || !(1 ... 4).contains(component.verticalSampling) {
            return "the frame header (\(sof)) gives component \(number + 1) sampling factors \(component.horizontalSampling) × \(component.verticalSampling) (they are 1–4)"
        }
        guard (1 ... 4).contains(scan.count), scan.length == 6 + 2 * scan.count else {
            return "the scan header (SOS) at offset \(scan.offset) is \(scan.length) bytes for \(scan.count) components (1–4, 2 bytes each, and 6)"
        }
        // Repeated identifiers: libjpeg makes up new ones, so which component a selector means
        // is its guess; the decoder decides.
        let frameIDs = frame.componentSpecs.map(\.id), scanIDs = scan.components.map(\.id)
        guard Set(frameIDs).count == frameIDs.count, Set(scanIDs).count == scanIDs.count else { return nil }
        var blocks = 0
        for selector in scan.components {
            guard let component = frame.componentSpecs.first(where: { $0.id == selector.id }) else {
                return "the scan header (SOS) names component \(selector.id), which the frame header (\(sof)) doesn't have"
            }
            guard quantization.contains(component.quantizationTable) else {
                return "component \(component.id) takes quantization table \(component.quantizationTable), which no DQT segment before the scan defines"
            }
            blocks += component.horizontalSampling * component.verticalSampling
            if frame.isHuffmanCoded, let problem = huffmanProblem(selector, frame: frame, scan: scan) { return problem }
        }
        if scan.count > 1, blocks > 10 {
            return "the scan's \(scan.count) components take \(blocks) blocks an MCU by their sampling factors, more than the 10 a decoder allows"
        }
        return nil
    }

    /// The first problem with the Huffman tables `selector` decodes with in `scan`.
    private func huffmanProblem(_ selector: JPEGStructure.Scan.Component, frame: JPEGStructure.Frame, scan: JPEGStructure.Scan) -> String? {
        var used: [(index: Int, isDC: Bool)] = []
        if !frame.isProgressive {
            used = [(selector.dcTable, true), (0x10 | selector.acTable, false)]
        } else if scan.spectralStart == 0 {
            // A DC scan: its first pass decodes with the DC tables; a refinement reads bits.
            if scan.approximationHigh == 0 { used = [(selector.dcTable, true)] }
        } else {
            used = [(0x10 | selector.acTable, false)]
        }
        for (index, isDC) in used {
            // Not defined: left to the decoder (the standard tables, or a decoding failure).
            guard index & 0x0F <= 3, let table = huffman[index] else { continue }
            let name = "the Huffman table \(isDC ? "DC" : "AC") \(index & 0x0F) (DHT at offset \(table.segment))"
            if let length = Self.overflowingLength(table.counts) {
                let counts = table.counts.map(String.init).joined(separator: " ")
                return "\(name) is bogus: its counts of codes by length (\(counts)) make no prefix code, running out of codes at \(length) bits"
            }
            if isDC, let symbol = table.symbols.first(where: { $0 > 15 }) {
                return "\(name) is bogus: its symbol \(symbol) is no DC magnitude category (0–15)"
            }
        }
        return nil
    }

    /// The code length at which a table's codes run out, or `nil` when they fit. Codes are
    /// assigned in order, shortest first (T.81 Figure C.2); the last code of each length must
    /// stay below 2^length, since no code may be all ones.
    static func overflowingLength(_ counts: [Int]) -> Int? {
        var code = 0
        for (bits, count) in zip(1 ... 16, counts) {
            code += count
            if count > 0, code >= 1 << bits { return bits }
            code <<= 1
        }
        return nil
    }
}
