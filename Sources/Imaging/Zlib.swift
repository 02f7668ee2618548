internal import CVips

/// zlib inflation through GLib's GZlibDecompressor (GIO is already linked for libvips), for
/// compressed PNG text chunks.
enum Zlib {
    /// The inflated bytes of a zlib stream, or `nil` if it is damaged or inflates past `limit`.
    static func inflate(_ input: [UInt8], limit: Int = 8 << 20) -> [UInt8]? {
        guard !input.isEmpty, let decompressor = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_ZLIB) else {
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(decompressor)) }
        let converter = decompressor  // GZlibDecompressor implements GConverter
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var consumed = 0
        for _ in 0 ..< 1024 {
            var read: gsize = 0, written: gsize = 0
            var error: UnsafeMutablePointer<GError>?
            let result = input.withUnsafeBytes { inBuf in
                chunk.withUnsafeMutableBytes { outBuf in
                    g_converter_convert(
                        converter, inBuf.baseAddress! + consumed, gsize(inBuf.count - consumed),
                        outBuf.baseAddress, gsize(outBuf.count), G_CONVERTER_INPUT_AT_END, &read, &written, &error)
                }
            }
            if let error { g_error_free(error) }
            consumed += Int(read)
            output += chunk[0 ..< Int(written)]
            guard output.count <= limit else { return nil }
            switch result {
            case G_CONVERTER_FINISHED: return output
            case G_CONVERTER_ERROR: return nil
            default: if read == 0 && written == 0 { return nil }
            }
        }
        return nil
    }
}
