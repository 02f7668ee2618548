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

    /// Every file found, in file order; made on access from a compact record per asset (a
    /// million-file import keeps ~60 bytes a file, where items with URLs took ~600).
    public var items: Items { Items(report: self, indices: nil) }
    /// Whether ``PHAssetImporter/cancel()`` stopped the import before every file was read;
    /// what was read was still imported.
    public internal(set) var wasCancelled = false
    /// Files found but not read because the import was cancelled.
    public var notReached: Files { Files(files: files, entries: notReachedEntries) }
    public internal(set) var elapsed: TimeInterval = 0
    /// Bursts formed (or joined) by the imported photos.
    public internal(set) var burstCount = 0
    /// Why bursts could not be grouped, if they couldn't (the photos are imported regardless).
    public internal(set) var burstProblem: String?

    public var imported: Items { subset { if case .imported = $0 { true } else { false } } }
    public var duplicates: Items {
        subset {
            switch $0 {
            case .imported, .outcome(.imported): false
            case .outcome(.duplicateOfAsset), .outcome(.duplicateOfFile): true
            case .outcome(.failed): false
            }
        }
    }
    public var failures: Items { subset { if case .outcome(.failed) = $0 { true } else { false } } }

    /// Items of a report, made as they are read.
    public struct Items: RandomAccessCollection, Sendable {
        let report: PHImportReport
        /// Which records, or all of them.
        let indices: [Int32]?

        public var startIndex: Int { 0 }
        public var endIndex: Int { indices?.count ?? report.records.count }

        public subscript(position: Int) -> Item {
            report.item(report.records[indices.map { Int($0[position]) } ?? position])
        }
    }

    /// URLs of files an import found, made as they are read.
    public struct Files: RandomAccessCollection, Sendable {
        let files: ImportFiles
        let entries: [Int32]

        public var startIndex: Int { 0 }
        public var endIndex: Int { entries.count }
        public subscript(position: Int) -> URL { files.url(entries[position]) }
    }

    // MARK: Storage

    /// The files the import found.
    var files = ImportFiles()
    var records: [Record] = []
    var notReachedEntries: [Int32] = []

    /// One item as kept: its files as entries of ``files``, an imported asset's identifier as
    /// 16 bytes.
    struct Record: Sendable {
        var files: FileReference
        var result: Result

        init(files: FileReference, outcome: Outcome) {
            self.files = files
            result = .outcome(outcome)
            if case .imported(let identifier, let mediaType) = outcome, let uuid = LocalIdentifier.assetUUID(identifier),
                let parsed = UUID(uuidString: uuid), parsed.uuidString == uuid
            {
                result = .imported(parsed, mediaType)
            }
        }
    }

    enum FileReference: Sendable {
        case one(Int32)
        case several([Int32])
        /// Files outside the table (a named path that could not be searched).
        case urls([URL])

        init(_ entries: some Collection<Int32>) {
            self = entries.count == 1 ? .one(entries.first!) : .several(Array(entries))
        }

        var count: Int {
            switch self {
            case .one: 1
            case .several(let entries): entries.count
            case .urls(let urls): urls.count
            }
        }

        /// The main file's entry (nil for files outside the table).
        var first: Int32? {
            switch self {
            case .one(let entry): entry
            case .several(let entries): entries.first
            case .urls: nil
            }
        }
    }

    enum Result: Sendable {
        case imported(UUID, PHAssetMediaType)
        case outcome(Outcome)
    }

    func urls(_ reference: FileReference) -> [URL] {
        switch reference {
        case .one(let entry): [files.url(entry)]
        case .several(let entries): files.urls(entries)
        case .urls(let urls): urls
        }
    }

    private func item(_ record: Record) -> Item {
        let outcome: Outcome
        switch record.result {
        case .imported(let uuid, let mediaType): outcome = .imported(localIdentifier: LocalIdentifier.asset(uuid.uuidString), mediaType: mediaType)
        case .outcome(let kept): outcome = kept
        }
        return Item(files: urls(record.files), outcome: outcome)
    }

    private func subset(_ isIncluded: (Result) -> Bool) -> Items {
        Items(report: self, indices: records.indices.filter { isIncluded(records[$0].result) }.map { Int32($0) })
    }

    /// Puts the records in file order (path order), cheaply when they nearly are already.
    mutating func sortRecords() {
        func path(_ reference: FileReference) -> String {
            switch reference {
            case .one(let entry): files.path(entry)
            case .several(let entries): files.path(entries[0])
            case .urls(let urls): urls.first?.path ?? ""
            }
        }
        let files = self.files
        records.sort { a, b in
            // Entries of one folder are numbered in name order; compare paths across folders.
            if let x = a.files.first, let y = b.files.first, files.sameFolder(x, y) { return files.precedes(x, y) }
            return path(a.files) < path(b.files)
        }
    }
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
