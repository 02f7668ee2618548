import BenchmarkSupport
import Foundation

/// Figures as the RESULT lines and the summary print them.
extension Format {
    static func fixed(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

    static func mebibytes(kilobytes: Int) -> String { String(format: "%.1f MiB", Double(kilobytes) / 1024) }
}
