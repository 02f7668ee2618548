import Foundation
internal import CVips

extension VipsImage {
    /// The image in sRGB: converted from its embedded ICC profile when that describes another
    /// space (Display P3, Adobe RGB, ProPhoto...), unchanged when it has none or an sRGB one.
    func managedToSRGB() throws(ImagingError) -> VipsImage {
        guard let profile = iccProfile, !Self.isSRGB(profile) else { return self }
        let converted = try derive("icc_transform") { out in "srgb".withCString { cvips_icc_transform(pointer, out, $0) } }
        let cast = try converted.derive("cast") { cvips_cast_uchar(converted.pointer, $0) }
        return try cast.materialized()
    }

    /// Whether an ICC profile is an sRGB one, by its description (`desc` tag, ICC v2 text or
    /// v4 multi-localized Unicode): "sRGB IEC61966-2.1", "sRGB built-in", ...
    static func isSRGB(_ profile: Data) -> Bool {
        let bytes = [UInt8](profile)
        guard bytes.count >= 132 else { return false }
        func u32(_ at: Int) -> Int {
            guard at + 4 <= bytes.count else { return 0 }
            return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        guard Array(bytes[16..<20]) == Array("RGB ".utf8) else { return false }
        let count = min(u32(128), 256)
        for index in 0..<count {
            let entry = 132 + index * 12
            guard entry + 12 <= bytes.count, Array(bytes[entry..<entry + 4]) == Array("desc".utf8) else { continue }
            let offset = u32(entry + 4), size = u32(entry + 8)
            guard offset >= 0, size > 0, offset + size <= bytes.count else { return false }
            let text = bytes[offset..<offset + size]
            let ascii: [UInt8] = Array("sRGB".utf8)
            let utf16: [UInt8] = [0, 0x73, 0, 0x52, 0, 0x47, 0, 0x42]  // "sRGB" in UTF-16BE
            return text.windows(ascii.count).contains { Array($0) == ascii } || text.windows(utf16.count).contains { Array($0) == utf16 }
        }
        return false
    }
}

extension ArraySlice where Element == UInt8 {
    fileprivate func windows(_ size: Int) -> [ArraySlice<UInt8>] {
        guard count >= size else { return [] }
        return (startIndex...(endIndex - size)).map { self[$0..<$0 + size] }
    }
}
