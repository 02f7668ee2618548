import ArgumentParser
import Foundation
import Photos

/// `photos cache warm|status|trim`: the library's derivatives (grid thumbnails, previews,
/// videos' browser renditions).
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Make, count or trim the thumbnails, previews and local copies of originals the library keeps.",
        subcommands: [CacheWarmCommand.self, CacheStatusCommand.self, CacheTrimCommand.self])
}

struct CacheWarmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warm", abstract: "Make the missing grid thumbnails (and with --previews, previews) on every core.")

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Also make the 1440 px previews (otherwise made when first shown).") var previews = false
    @Flag(help: "Also make videos' browser renditions (H.264 MP4s of videos browsers can't play), retrying failed ones.")
    var videos = false
    @Flag(help: "Also read the text in photos for search (Tesseract), retrying failed ones.")
    var text = false
    @Flag(help: "With --text, read again the photos skipped before (Tesseract choked on them, or they failed three times).")
    var retrySkipped = false
    @OptionGroup var textOptions: TextRecognitionOptions
    @Option(help: "The size a gallery will ask for, WIDTHxHEIGHT: above 256 px, previews are made too.") var size: String?

    func run() throws {
        var withPreviews = previews
        if let size {
            let target = try ThumbnailCommand.parseSize(size)
            withPreviews = withPreviews || target.width > 256 || target.height > 256
        }
        let library = try options.open { textOptions.apply(to: &$0) }
        let start = Date()
        let (made, failed) = try library.makeDerivatives(previews: withPreviews)
        let seconds = Date().timeIntervalSince(start)
        print(String(format: "Made %d derivative%@ in %.1f s%@.", made, made == 1 ? "" : "s", seconds,
                     failed > 0 ? " (\(failed) photo\(failed == 1 ? "" : "s") could not be read)" : ""))
        var videoFailures = 0
        if videos {
            let start = Date()
            let counts = try library.videoRenditions.makeAllDue(retryingFailures: true)
            videoFailures = counts.failed
            print(String(format: "Videos: %d rendition%@ made, %d play as they are, %d failed (%.1f s).", counts.made,
                         counts.made == 1 ? "" : "s", counts.notNeeded, counts.failed, Date().timeIntervalSince(start)))
            for job in library.videoRenditions.failures() {
                print("  \(job.assetUUID): \(job.lastError ?? "failed")")
            }
        }
        if text {
            let start = Date()
            let counts = try library.textRecognition.readAllDue(
                workers: ProcessInfo.processInfo.activeProcessorCount, retryingSkipped: retrySkipped)
            print(String(format: "Text: %d photo%@ read, %d failed, %d skipped, %d pending (%.1f s).", counts.done, counts.done == 1 ? "" : "s",
                         counts.failed, counts.skipped, counts.pending, Date().timeIntervalSince(start)))
            for job in library.textRecognition.failures() {
                print("  \(job.assetUUID): \(job.lastError ?? "failed")")
            }
        }
        if failed > 0 || videoFailures > 0 { throw ExitCode(1) }
    }
}

struct CacheStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Count the thumbnails, previews and local copies of originals (of a library whose originals are in a bucket) on disk.")

    @OptionGroup var options: LibraryOptions

    func run() throws {
        let library = try options.open(forReading: true)
        let status = library.derivativeCacheStatus()
        print("Thumbnails  \(status.thumbnails)  (\(CacheTrimCommand.format(status.thumbnailBytes)))")
        print("Previews    \(status.previews)  (\(CacheTrimCommand.format(status.previewBytes)))")
        let originals = library.originalsCacheStatus()
        print("Originals   \(originals.files)  (\(CacheTrimCommand.format(originals.bytes)) of \(CacheTrimCommand.format(originals.limit)), local copies of remote originals)")
        let videos = try library.videoRenditions.counts()
        print("Videos      \(videos.total): \(videos.made) renditions made, \(videos.notNeeded) play as they are, \(videos.pending) pending, \(videos.failed) failed")
        let text = try library.textRecognition.counts()
        print("Text        \(text.total) photos: \(text.done) read, \(text.pending) pending, \(text.failed) failed, \(text.skipped) skipped")
    }
}

struct CacheTrimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trim", abstract: "Remove the least recently used previews, or local copies of originals, until they fit a limit.")

    @OptionGroup var options: LibraryOptions
    @Option(help: "Bytes the previews may take: 500M, 2G, 0 ...") var limit: String?
    @Option(help: "Bytes the local copies of remote originals may take: 500M, 2G, 0 ... (fetched again on next need)")
    var originalsLimit: String?

    func validate() throws {
        if limit == nil && originalsLimit == nil { throw ValidationError("give --limit (previews), --originals-limit, or both") }
    }

    func run() throws {
        let previews = try limit.map { text in
            guard let bytes = Self.parse(text) else { throw CLIError("--limit \(text): give a size like 500M or 2G") }
            return bytes
        }
        let originals = try originalsLimit.map { text in
            guard let bytes = Self.parse(text) else { throw CLIError("--originals-limit \(text): give a size like 500M or 2G") }
            return bytes
        }
        let library = try options.open()
        if let previews {
            let removed = library.trimDerivativeCache(toBytes: previews)
            let status = library.derivativeCacheStatus()
            print("Removed \(removed) preview\(removed == 1 ? "" : "s"); \(status.previews) left (\(Self.format(status.previewBytes))).")
        }
        if let originals {
            let removed = library.trimOriginalsCache(toBytes: originals)
            let status = library.originalsCacheStatus()
            print("Removed \(removed) local cop\(removed == 1 ? "y" : "ies") of originals; \(status.files) left (\(Self.format(status.bytes))).")
        }
    }

    static func parse(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = text.uppercased()
        var factor: Int64 = 1
        if digits.hasSuffix("B") { digits.removeLast() }
        if let last = digits.last, let unit = units[last] {
            factor = unit
            digits.removeLast()
        }
        guard let value = Double(digits), value >= 0 else { return nil }
        return Int64(value * Double(factor))
    }

    static func format(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
    }
}
