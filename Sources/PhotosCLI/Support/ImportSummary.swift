import Foundation
import Photos

/// The end-of-import summary, as text or JSON.
enum ImportSummary {
    static func text(_ report: PHImportReport, library: URL, listedDuplicates: Int) -> String {
        let imported = report.imported
        let videos = imported.filter { if case .imported(_, .video) = $0.outcome { true } else { false } }.count
        let photos = imported.count - videos
        let live = imported.filter { $0.files.count > 1 && $0.files.contains(where: isMovie) }.count
        var first = "Imported \(plural(photos, "photo")) and \(plural(videos, "video"))"
        var extras: [String] = []
        if live > 0 { extras.append(plural(live, "Live Photo")) }
        if report.burstCount > 0 { extras.append(plural(report.burstCount, "burst")) }
        if !extras.isEmpty { first += " (\(extras.joined(separator: ", ")))" }
        first += " into \(library.path) in \(String(format: "%.1f", report.elapsed)) s."
        var lines = [first]
        let duplicates = report.duplicates
        if !duplicates.isEmpty {
            lines.append("Skipped \(plural(duplicates.count, "duplicate")) (already in the library):")
            for item in duplicates.prefix(listedDuplicates) { lines.append("  \(ByteNamedFiles.displayPath(of: item.files[0])): \(describe(item.outcome))") }
            if duplicates.count > listedDuplicates { lines.append("  … and \(duplicates.count - listedDuplicates) more (--json lists all)") }
        }
        if !report.failures.isEmpty { lines.append(failures(report).trimmingCharacters(in: .newlines)) }
        if let problem = report.burstProblem { lines.append("Note: \(problem)") }
        if report.wasCancelled {
            lines.append("Stopped before reading \(plural(report.notReached.count, "file")); import again to resume.")
        }
        return lines.joined(separator: "\n")
    }

    static func failures(_ report: PHImportReport) -> String {
        let failures = report.failures
        var lines = ["Skipped \(plural(failures.reduce(0) { $0 + $1.files.count }, "file")) that can't be imported:"]
        for item in failures { lines.append("  \(item.files.map(ByteNamedFiles.displayPath(of:)).joined(separator: " + ")): \(describe(item.outcome))") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ outcome: PHImportReport.Outcome) -> String {
        switch outcome {
        case .imported(let identifier, _): "imported as \(identifier)"
        case .duplicateOfAsset(let identifier, let trashed):
            trashed ? "same as \(identifier), in Recently Deleted (photos recover \(identifier))" : "same as \(identifier)"
        case .duplicateOfFile(let url): "same as \(url.path), imported now"
        case .failed(let reason): reason
        }
    }

    private static func isMovie(_ url: URL) -> Bool {
        ["mov", "mp4", "m4v", "qt"].contains(url.pathExtension.lowercased())
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    struct JSON: Encodable {
        struct Item: Encodable {
            var files: [String]
            var outcome: String
            var localIdentifier: String?
            var duplicateOf: String?
            var isInRecentlyDeleted: Bool?
            var reason: String?
        }

        var imported: Int
        var duplicates: Int
        var failed: Int
        var bursts: Int
        var wasCancelled: Bool
        var notReached: [String]
        var seconds: Double
        var items: [Item]

        init(_ report: PHImportReport) {
            imported = report.imported.count
            duplicates = report.duplicates.count
            failed = report.failures.count
            bursts = report.burstCount
            wasCancelled = report.wasCancelled
            notReached = report.notReached.map(\.path)
            seconds = (report.elapsed * 1000).rounded() / 1000
            items = report.items.map { item in
                var json = Item(files: item.files.map(ByteNamedFiles.displayPath(of:)), outcome: "")
                switch item.outcome {
                case .imported(let identifier, _):
                    json.outcome = "imported"
                    json.localIdentifier = identifier
                case .duplicateOfAsset(let identifier, let trashed):
                    json.outcome = "duplicate"
                    json.duplicateOf = identifier
                    json.isInRecentlyDeleted = trashed
                case .duplicateOfFile(let url):
                    json.outcome = "duplicate"
                    json.duplicateOf = url.path
                case .failed(let reason):
                    json.outcome = "failed"
                    json.reason = reason
                }
                return json
            }
        }
    }
}
