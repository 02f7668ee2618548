import BenchmarkSupport
import Foundation
import Photos

#if canImport(Glibc)
    import Glibc
#endif

/// The other process of the cross-process measure: `StoreBenchmark change-writer --library DIR`.
///
/// Reads local identifiers on standard input, one per line; for each, toggles the asset's
/// favorite in one `performChangesAndWait` and prints `START END` (monotonic ns, the system-wide
/// clock, so the observing process can subtract) around the commit.
enum ChangeWriter {
    static func run(library folder: URL) throws {
        let library = try PHPhotoLibrary(url: folder)
        try library.withCurrent {
            while let line = readLine() {
                let options = PHFetchOptions()
                options.includeHiddenAssets = true
                guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [line], options: options).firstObject else {
                    throw BenchmarkFailure("change-writer: no asset \(line)")
                }
                let favorite = !asset.isFavorite
                let start = monotonicNanos()
                try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = favorite }
                let end = monotonicNanos()
                FileHandle.standardOutput.write(Data("\(start) \(end)\n".utf8))
            }
        }
    }
}

/// The parent's end of a `change-writer` child.
final class ChangeWriterProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()

    init(library folder: URL) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["change-writer", "--library", folder.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Asks the child to toggle `identifier`; returns its monotonic times around the commit.
    func toggle(_ identifier: String) throws -> (start: UInt64, end: UInt64) {
        input.fileHandleForWriting.write(Data((identifier + "\n").utf8))
        while !buffered.contains(UInt8(ascii: "\n")) {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw BenchmarkFailure("change-writer exited (status \(process.terminationStatus))") }
            buffered.append(data)
        }
        let newline = buffered.firstIndex(of: UInt8(ascii: "\n"))!
        let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
        buffered.removeSubrange(buffered.startIndex...newline)
        let fields = line.split(separator: " ").compactMap { UInt64($0) }
        guard fields.count == 2 else { throw BenchmarkFailure("change-writer printed '\(line)'") }
        return (fields[0], fields[1])
    }

    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
