/// CRC-32 (ISO-HDLC, the polynomial of PNG chunks and zlib's `crc32`), slicing by 8 bytes: about
/// 1 GB/s in a release build, so checking every chunk of a PNG costs less than copying it.
enum CRC32 {
    /// Eight 256-entry tables end to end: entry `k * 256 + b` is the CRC of byte `b` followed by
    /// `k` zero bytes.
    private static let table: [UInt32] = {
        var first = [UInt32](repeating: 0, count: 256)
        for n in 0 ..< 256 {
            var c = UInt32(n)
            for _ in 0 ..< 8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            first[n] = c
        }
        var tables = [first]
        for k in 1 ..< 8 {
            tables.append((0 ..< 256).map { n in
                let previous = tables[k - 1][n]
                return first[Int(previous & 0xFF)] ^ (previous >> 8)
            })
        }
        return tables.flatMap { $0 }
    }()

    /// The running CRC state for `bytes` continued from `state` (start with `begin`, finish with
    /// `end(_:)`).
    static func update(_ state: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc = state
        return table.withUnsafeBufferPointer { t in
            var i = 0
            let count = bytes.count
            while i + 8 <= count {
                let lo = crc ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                let hi = UInt32(bytes[i + 4]) | UInt32(bytes[i + 5]) << 8 | UInt32(bytes[i + 6]) << 16 | UInt32(bytes[i + 7]) << 24
                crc = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < count {
                crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
            return crc
        }
    }

    static let begin: UInt32 = 0xFFFF_FFFF
    static func end(_ state: UInt32) -> UInt32 { ~state }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        end(bytes.withUnsafeBufferPointer { update(begin, $0) })
    }
}
