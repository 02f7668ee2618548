import Foundation
import Photos

#if canImport(Glibc)
    import Glibc
#endif

/// Command-line arguments as the bytes they were given.
///
/// `CommandLine.arguments` (and so swift-argument-parser) turns bytes that are not UTF-8 into
/// U+FFFD; a path argument naming such a file would then name no file. Its bytes are found
/// again in `argv` and reached through an alias (``ByteNamedFiles``).
enum RawArguments {
    /// A URL for a path argument, keeping bytes that are not UTF-8.
    static func url(forPath argument: String) -> URL {
        let expanded = (argument as NSString).expandingTildeInPath
        guard argument.contains("\u{FFFD}"), let raw = rawArgument(decodingTo: argument) else {
            return URL(fileURLWithPath: expanded)
        }
        var bytes = raw
        if bytes.first != UInt8(ascii: "/") {
            bytes = Array(FileManager.default.currentDirectoryPath.utf8) + [UInt8(ascii: "/")] + bytes
        }
        return ByteNamedFiles.url(forPath: bytes) ?? URL(fileURLWithPath: expanded)
    }

    /// The bytes of the argument that reads as `text` once its bytes that are not UTF-8 are
    /// replaced.
    private static func rawArgument(decodingTo text: String) -> [UInt8]? {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            if String(validating: bytes, as: UTF8.self) == nil, String(decoding: bytes, as: UTF8.self) == text { return bytes }
        }
        return nil
    }
}
