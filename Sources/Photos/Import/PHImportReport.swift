public import Foundation

/// What ``PHAssetImporter`` did with each file it found.
///
/// Linux addition.
public struct PHImportReport: Sendable {
    /// One asset's worth of files and what became of them.
    public struct Item: Sendable {
        /// The files, the main one first (a Live Photo: its photo, then its movie; RAW+JPEG: the
        /// JPEG, then the RAW).
        public let files: [URL]
        public let outcome: Outcome
    }

    public enum Outcome: Sendable, Equatable {
        /// A new asset.
        case imported(localIdentifier: String, mediaType: PHAssetMediaType)
        /// The library already holds these bytes (in Recently Deleted, when `isInRecentlyDeleted`).
        case duplicateOfAsset(localIdentifier: String, isInRecentlyDeleted: Bool)
        /// Another file of the same import has the same bytes.
        case duplicateOfFile(URL)
        /// Not imported, and why: unreadable, unsupported, damaged, too large, ...
        case failed(reason: String)
    }

    public internal(set) var items: [Item] = []
    /// Whether ``PHAssetImporter/cancel()`` stopped the import before every file was read;
    /// what was read was still imported.
    public internal(set) var wasCancelled = false
    /// Files found but not read because the import was cancelled.
    public internal(set) var notReached: [URL] = []
    public internal(set) var elapsed: TimeInterval = 0
    /// Bursts formed (or joined) by the imported photos.
    public internal(set) var burstCount = 0
    /// Why bursts could not be grouped, if they couldn't (the photos are imported regardless).
    public internal(set) var burstProblem: String?

    public var imported: [Item] { items.filter { if case .imported = $0.outcome { true } else { false } } }
    public var duplicates: [Item] {
        items.filter {
            switch $0.outcome {
            case .duplicateOfAsset, .duplicateOfFile: true
            default: false
            }
        }
    }
    public var failures: [Item] { items.filter { if case .failed = $0.outcome { true } else { false } } }
}

/// How far an import is, handed to the progress handler after each file group and commit.
///
/// Linux addition.
public struct PHImportProgress: Sendable {
    /// Files found, and their bytes.
    public var totalFiles = 0
    public var totalBytes: Int64 = 0
    /// Files read (imported, duplicate or failed).
    public var processedFiles = 0
    public var processedBytes: Int64 = 0
    /// Assets committed to the library so far.
    public var importedAssets = 0
    public var duplicateFiles = 0
    public var failedFiles = 0
    public var elapsed: TimeInterval = 0

    /// Files per second so far.
    public var filesPerSecond: Double { elapsed > 0 ? Double(processedFiles) / elapsed : 0 }

    /// Seconds left at the rate so far (by bytes, which track the work better than files);
    /// nil until there is a rate.
    public var estimatedTimeRemaining: TimeInterval? {
        guard elapsed > 0.5, processedBytes > 0, totalBytes >= processedBytes else { return nil }
        return elapsed * Double(totalBytes - processedBytes) / Double(processedBytes)
    }
}
