import Foundation
import PhotosStore
import PhotosLocking

/// One run of ``PHAssetImporter``: workers prepare groups of files in parallel; this thread
/// commits what they prepared in batches and reports progress.
///
/// Memory stays bounded: a worker takes a new group only while fewer than
/// `4 × workers` prepared results wait for the committer.
struct ImportPipeline {
    let importer: PHAssetImporter
    let urls: [URL]
    let progressHandler: ((PHImportProgress) -> Void)?

    init(importer: PHAssetImporter, urls: [URL], progress: ((PHImportProgress) -> Void)?) {
        self.importer = importer
        self.urls = urls
        progressHandler = progress
    }

    /// What the workers hand over, with the bytes they read.
    private final class Handoff: Sendable {
        /// A group's outcomes, or nil when a worker has finished.
        let results = Mutex<[(outcomes: [ImportPreparer.Outcome], bytes: Int64, files: Int)?]>([])
        let nextGroup = Mutex(0)
        let available = DispatchSemaphore(value: 0)
        let slots: DispatchSemaphore

        init(slots: Int) {
            self.slots = DispatchSemaphore(value: slots)
        }
    }

    func run() -> PHImportReport {
        let start = Date()
        var report = PHImportReport()
        var discovery = ImportDiscovery(urls)
        discovery.makeGroups()
        report.files = discovery.files
        for problem in discovery.problems {
            report.records.append(PHImportReport.Record(files: .urls([problem.url]), outcome: .failed(reason: problem.reason)))
        }
        var progress = PHImportProgress()
        progress.totalFiles = discovery.totalFiles
        progress.totalBytes = discovery.totalBytes
        progress.failedFiles = discovery.problems.count

        let groups = discovery.groups
        let members = discovery.members
        let workers = max(1, min(importer.options.maximumConcurrentFiles, groups.count))
        let handoff = Handoff(slots: workers * 4)
        let preparer = ImportPreparer(
            store: importer.library.store, owner: importer.library.personID, options: importer.options, files: discovery.files,
            logger: importer.library.logger)
        let finished = DispatchGroup()
        for _ in 0..<workers {
            DispatchQueue.global(qos: .userInitiated).async(group: finished) { [importer] in
                while true {
                    handoff.slots.wait()
                    let index = handoff.nextGroup.withLock { next -> Int? in
                        guard !importer.isCancelled, next < groups.count else { return nil }
                        defer { next += 1 }
                        return next
                    }
                    guard let index else {
                        handoff.slots.signal()
                        handoff.results.withLock { $0.append(nil) }  // this worker is done
                        handoff.available.signal()
                        return
                    }
                    let group = groups[index]
                    let outcomes = preparer.prepare(members[group.range])
                    handoff.results.withLock { $0.append((outcomes, group.bytes, Int(group.count))) }
                    handoff.available.signal()
                }
            }
        }

        var pending: [ImportPreparer.ReadyItem] = []
        var photos = ImportBursts.Candidates()
        photos.reserve(discovery.totalFiles)
        func commitPending() {
            guard !pending.isEmpty else { return }
            let records = commit(pending, bursts: &photos)
            report.records += records
            pending = []
            // Counted per batch: filtering every item so far at each commit grows with the import.
            progress.importedAssets += records.filter { if case .imported = $0.result { true } else { false } }.count
            progress.elapsed = Date().timeIntervalSince(start)
            progressHandler?(progress)
        }
        var workersDone = 0
        while workersDone < workers {
            guard handoff.available.wait(timeout: .now() + 0.25) == .success else {
                // Nothing new for a while (slow files): commit what is ready meanwhile.
                commitPending()
                continue
            }
            guard let (outcomes, bytes, files) = handoff.results.withLock({ $0.removeFirst() }) else {
                workersDone += 1
                continue
            }
            handoff.slots.signal()
            progress.processedFiles += files
            progress.processedBytes += bytes
            for outcome in outcomes {
                switch outcome {
                case .ready(let item): pending.append(item)
                case .finished(let record):
                    report.records.append(record)
                    let count = record.files.count
                    if case .outcome(.failed) = record.result { progress.failedFiles += count } else { progress.duplicateFiles += count }
                }
            }
            progress.elapsed = Date().timeIntervalSince(start)
            progressHandler?(progress)
            if pending.count >= importer.options.batchSize { commitPending() }
        }
        commitPending()
        finished.wait()
        do {
            report.burstCount = try ImportBursts.assign(ImportBursts.group(photos), files: discovery.files, in: importer.library)
        } catch {
            report.burstProblem = "bursts were not grouped: \(error.localizedDescription)"
        }

        let taken = handoff.nextGroup.withLock { $0 }
        if taken < groups.count {
            report.wasCancelled = true
            report.notReachedEntries = Array(members[groups[taken].range.lowerBound...])
        }
        // Workers finish in any order; the report reads in file order.
        report.sortRecords()
        report.elapsed = Date().timeIntervalSince(start)
        return report
    }

    /// Commits items in one transaction; if that fails, each alone, to find the bad ones.
    /// Staged copies of items that don't commit are removed.
    /// The photos committed join `bursts`' candidates.
    private func commit(_ items: [ImportPreparer.ReadyItem], bursts: inout ImportBursts.Candidates) -> [PHImportReport.Record] {
        let library = importer.library
        var identifiers: [String] = []
        do {
            try library.withCurrent {
                try library.performChangesAndWait {
                    identifiers = []
                    var placeholders: [PHObjectPlaceholder] = []
                    for item in items {
                        let request = PHAssetCreationRequest.forAsset()
                        for (type, file) in item.files { request.addPreparedResource(with: type, file: file) }
                        if let placeholder = request.placeholderForCreatedAsset {
                            placeholders.append(placeholder)
                            identifiers.append(placeholder.localIdentifier)
                        }
                    }
                    if let album = importer.options.albumLocalIdentifier,
                        let collection = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [album], options: nil).firstObject
                    {
                        PHAssetCollectionChangeRequest(for: collection)?.addAssets(placeholders)
                    }
                }
            }
            for (item, identifier) in zip(items, identifiers) {
                let uuid = String(identifier.prefix { $0 != "/" })
                item.derivatives.install(assetUUID: uuid, layout: library.store.layout, logger: library.logger)
                if let reason = item.renderFailure {
                    library.logger.attempt(.warning, "record that \(uuid) can't be rendered (\(reason))") {
                        try library.store.renderFailures.record(assetUUID: uuid, reason: reason)
                    }
                }
            }
            let reported = zip(items, identifiers).map { item, identifier in
                PHImportReport.Record(files: item.reference, outcome: .imported(localIdentifier: identifier, mediaType: item.mediaType))
            }
            for (item, identifier) in zip(items, identifiers) where item.mediaType == .image {
                guard let main = item.files.first?.file, let signature = main.contentSignature else { continue }
                bursts.add(localIdentifier: identifier, entry: item.reference.first, metadata: main.metadata, signature: signature)
            }
            return reported
        } catch where items.count > 1 {
            return items.flatMap { commit([$0], bursts: &bursts) }
        } catch {
            // try?: staged copies are in this process's staging folder, which the next open of
            // the library removes.
            for case let staged? in items[0].files.map(\.file.stagedFile) { try? FileManager.default.removeItem(at: staged) }
            items[0].derivatives.discard()
            return [PHImportReport.Record(files: items[0].reference, outcome: .failed(reason: error.localizedDescription))]
        }
    }
}
