import Foundation

/// Keeps a database URL's password out of `ps`: the password in an argument such as
/// `--database postgresql://ana:PASSWORD@db/photos` (the user part's, or a `password=`
/// parameter) is overwritten with `*` in the process's own argument memory, which `ps` and
/// `/proc/PID/cmdline` read, once the arguments have been copied for parsing. Until then, and
/// for a process that reads `/proc` at that instant, it shows: libpq's advice stands, and
/// `~/.pgpass` or `PGPASSWORD` keep a password out of arguments altogether.
enum ProcessListSecrets {
    static func hide() {
        // The arguments are copied (parsed later) before their memory is overwritten.
        _ = CommandLine.arguments
        for index in 0 ..< Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) })
            for range in passwordRanges(in: bytes) {
                for offset in range { argument[offset] = CChar(bitPattern: UInt8(ascii: "*")) }
            }
        }
    }

    /// `text` with its passwords masked, for a message.
    static func masked(_ text: String) -> String {
        var bytes = Array(text.utf8)
        for range in passwordRanges(in: bytes) {
            for offset in range { bytes[offset] = UInt8(ascii: "*") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The byte ranges of the passwords in `text`: a URL's user-part password
    /// (`scheme://user:PASSWORD@host`) and `password=` parameters.
    static func passwordRanges(in text: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let scheme = Array("://".utf8)
        var start = 0
        while let found = firstIndex(of: scheme, in: text, from: start) {
            let authorityStart = found + scheme.count
            let authorityEnd = text[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? text.count
            if let at = text[authorityStart ..< authorityEnd].lastIndex(of: UInt8(ascii: "@")),
               let colon = text[authorityStart ..< at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at
            {
                ranges.append(colon + 1 ..< at)
            }
            start = authorityEnd
        }
        let parameter = Array("password=".utf8)
        start = 0
        while let found = firstIndex(of: parameter, in: text, from: start) {
            let valueStart = found + parameter.count
            let before = found == 0 ? nil : text[found - 1]
            let valueEnd = text[valueStart...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "#") } ?? text.count
            if (before == UInt8(ascii: "?") || before == UInt8(ascii: "&")), valueStart < valueEnd { ranges.append(valueStart ..< valueEnd) }
            start = valueEnd
        }
        return ranges
    }

    private static func firstIndex(of needle: [UInt8], in text: [UInt8], from start: Int) -> Int? {
        guard needle.count <= text.count, start <= text.count - needle.count else { return nil }
        return (start ... text.count - needle.count).first { text[$0 ..< $0 + needle.count].elementsEqual(needle) }
    }
}
