import Foundation
import Photos

/// Import progress on standard error: a bar with rate and time left on a terminal, a plain
/// line every few seconds otherwise (logs, CI), nothing when silent.
final class ImportProgressDisplay {
    enum Mode {
        case automatic, silent
    }

    private let isTerminal: Bool
    private let isSilent: Bool
    /// The first plain line comes after one interval: short imports print only the summary.
    private var lastPlainLine = Date()
    private var lastDraw = Date.distantPast
    private var drewBar = false
    /// Seconds between plain lines.
    static let plainInterval: TimeInterval = 5

    init(mode: Mode) {
        isSilent = mode == .silent
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    func update(_ progress: PHImportProgress) {
        guard !isSilent else { return }
        let now = Date()
        if isTerminal {
            guard now.timeIntervalSince(lastDraw) > 0.1 || progress.processedFiles == progress.totalFiles else { return }
            lastDraw = now
            drewBar = true
            write("\r" + Self.bar(progress) + "\u{1B}[K")
        } else if now.timeIntervalSince(lastPlainLine) >= Self.plainInterval {
            lastPlainLine = now
            write(Self.line(progress) + "\n")
        }
    }

    func finish() {
        if drewBar { write("\r\u{1B}[K") }
    }

    static func line(_ p: PHImportProgress) -> String {
        var text = "Importing: \(p.processedFiles)/\(p.totalFiles) files, \(p.importedAssets) imported"
        if p.duplicateFiles > 0 { text += ", \(p.duplicateFiles) duplicate" }
        if p.failedFiles > 0 { text += ", \(p.failedFiles) failed" }
        text += String(format: ", %.1f files/s", p.filesPerSecond)
        if let eta = p.estimatedTimeRemaining { text += ", \(duration(eta)) left" }
        return text
    }

    static func bar(_ p: PHImportProgress) -> String {
        let fraction = p.totalBytes > 0 ? Double(p.processedBytes) / Double(p.totalBytes) : 0
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var text = "\(bar) \(Int(fraction * 100))%  \(p.processedFiles)/\(p.totalFiles)"
        text += String(format: "  %.1f files/s", p.filesPerSecond)
        if let eta = p.estimatedTimeRemaining { text += "  \(duration(eta)) left" }
        if p.duplicateFiles > 0 { text += "  \(p.duplicateFiles) dup" }
        if p.failedFiles > 0 { text += "  \(p.failedFiles) failed" }
        return text
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? "\(total / 3600)h\(total % 3600 / 60)m" : total >= 60 ? "\(total / 60)m\(total % 60)s" : "\(total)s"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
