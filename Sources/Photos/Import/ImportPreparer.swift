import Foundation
import Imaging
import Logging
import PhotosStore
import PhotosLocking

#if canImport(Glibc)
    import Glibc
#endif

/// Reads one group of same-named files, on a worker thread: probes each (header only),
/// refuses what can't be imported, decides which files make one asset, drops duplicates,
/// and copies the rest into the library's staging folder (or leaves them, to reference).
final class ImportPreparer: Sendable {
    let store: LibraryDatabase
    /// Probes, fingerprints, looks up and stages each file.
    let stager: ResourceStager
    let options: PHAssetImporter.Options
    /// The files the import found; groups name them by entry.
    let files: ImportFiles
    /// The files this import is bringing in, by size and signature.
    private let claimed = Mutex(Claims())

    /// A file's size and the first 128 bits of its signature: 24 bytes a file instead of a
    /// 70-character string, for an import of a million files. Files with one key are the same
    /// only once their bytes compare equal, so a shorter key costs nothing in correctness.
    private struct ClaimKey: Hashable {
        var size: Int64
        var high: UInt64
        var low: UInt64

        init(size: Int64, signature: String) {
            self.size = size
            high = UInt64(signature.prefix(16), radix: 16) ?? 0
            low = UInt64(signature.dropFirst(16).prefix(16), radix: 16) ?? 0
        }
    }

    /// Files claimed by this import: the first of a key without an array of its own (almost
    /// every file), later ones with the same key (a copy, or a signature collision) beside it.
    private struct Claims {
        var first: [ClaimKey: Int32] = [:]
        var more: [ClaimKey: [Int32]] = [:]

        /// Claims the file `url` (an entry of the import's files); returns the files claimed
        /// before it with the same key.
        mutating func claim(_ url: Int32, _ key: ClaimKey) -> [Int32] {
            guard let existing = first[key] else {
                first[key] = url
                return []
            }
            let earlier = [existing] + more[key, default: []]
            more[key, default: []].append(url)
            return earlier
        }

        /// Gives up a claim made by ``claim(_:_:)`` that found earlier files (a duplicate).
        mutating func release(_ url: Int32, _ key: ClaimKey) {
            more[key]?.removeAll { $0 == url }
        }
    }

    /// `owner`: the person whose photos a duplicate is looked for among (nil: anyone's).
    init(store: LibraryDatabase, owner: Int64?, options: PHAssetImporter.Options, files: ImportFiles, logger: Logger) {
        self.files = files
        self.store = store
        stager = ResourceStager(store: store, owner: owner, logger: logger)
        self.options = options
    }

    /// An asset's files, staged and ready for a creation request.
    struct ReadyItem: Sendable {
        var files: [(type: PHAssetResourceType, file: PreparedFile)]
        /// The files, main first, as the report lists them.
        var reference: PHImportReport.FileReference
        var mediaType: PHAssetMediaType
        var derivatives = StagedDerivatives()
        /// Why the thumbnail made at import failed, recorded once the asset exists.
        var renderFailure: String?
    }

    enum Outcome: Sendable {
        case ready(ReadyItem)
        case finished(PHImportReport.Record)
    }

    private struct Probed {
        /// Its entry among the import's files.
        var entry: Int32
        var file: ResourceStager.ProbedFile
        var metadata: MediaMetadata { file.metadata }
    }

    /// Prepares one group: `entries` of ``files``.
    func prepare(_ entries: ArraySlice<Int32>) -> [Outcome] {
        if let unchanged = unchangedReference(entries) { return [unchanged] }
        var outcomes: [Outcome] = []
        var probed: [Probed] = []
        for entry in entries {
            do {
                probed.append(try probe(files.url(entry), entry: entry))
            } catch {
                outcomes.append(.finished(PHImportReport.Record(files: .one(entry), outcome: .failed(reason: error.description))))
            }
        }
        for item in Self.assets(from: probed, maximumLiveVideo: options.maximumLivePhotoVideoDuration) {
            // A file alone (most are) shares the walk's list instead of a copy of its own: the
            // report keeps one a file, a million for a million files.
            outcomes.append(stage(item, reference: PHImportReport.FileReference(item.map(\.1.entry))))
        }
        return outcomes
    }

    /// The report of a group whose every file the library already references in place for one
    /// asset, unchanged (the same path, size and modification time): decided by `stat` and one
    /// index probe a file, nothing read, so importing a folder again runs at the speed of
    /// listing it. Any difference (a file changed, moved, or never referenced) takes the full
    /// path: probe, signature, duplicate check.
    private func unchangedReference(_ entries: ArraySlice<Int32>) -> Outcome? {
        guard !options.allowsDuplicates else { return nil }
        var asset: ReferencedFile?
        for entry in entries {
            // A walked file's path, without making its URL; a file as given may be an alias.
            guard !files.isExact(entry) || ByteNamedFiles.target(of: files.url(entry)) == nil else { return nil }
            let path = files.path(entry)
            var info = stat()
            guard stat(path, &info) == 0,
                // try?: a read that fails takes the full path, whose duplicate check reads the
                // library again and reports its failure.
                let file = try? store.referencedFile(atPath: path), file.fileSize == Int64(info.st_size),
                file.fileModificationDate == Self.modificationDate(info),
                asset == nil || asset?.assetUUID == file.assetUUID
            else { return nil }
            asset = file
        }
        guard let asset else { return nil }
        return .finished(
            PHImportReport.Record(
                files: PHImportReport.FileReference(entries),
                outcome: .duplicateOfAsset(
                    localIdentifier: LocalIdentifier.asset(asset.assetUUID), isInRecentlyDeleted: asset.isTrashed)))
    }

    static func modificationDate(_ info: stat) -> Date {
        Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    private struct ProbeFailure: Error, CustomStringConvertible {
        var description: String
    }

    private func probe(_ url: URL, entry: Int32) throws(ProbeFailure) -> Probed {
        let file: ResourceStager.ProbedFile
        do {
            file = try stager.probe(fileAt: url)
        } catch {
            // The report names the file already.
            let message = error.message.hasPrefix(url.path + " ") ? String(error.message.dropFirst(url.path.count + 1)) : error.message
            throw ProbeFailure(description: message)
        }
        let metadata = file.metadata
        let pixels = metadata.pixelWidth.multipliedReportingOverflow(by: metadata.pixelHeight)
        if pixels.overflow || pixels.partialValue > options.maximumPixelCount {
            throw ProbeFailure(
                description: "its header claims \(metadata.pixelWidth)×\(metadata.pixelHeight) pixels, more than the "
                    + "\(options.maximumPixelCount / 1_000_000)-megapixel limit")
        }
        return Probed(entry: entry, file: file)
    }

    /// Which files make one asset: one photo (not RAW) takes a RAW as its alternate and its
    /// Live Photo movie (the same Apple content identifier, or without identifiers a movie of
    /// at most `maximumLiveVideo` seconds); everything else stands alone.
    private static func assets(from files: [Probed], maximumLiveVideo: TimeInterval) -> [[(PHAssetResourceType, Probed)]] {
        let photos = files.filter { !$0.metadata.isVideo && !$0.metadata.format.isRAW }
        var raws = files.filter { $0.metadata.format.isRAW }
        var videos = files.filter(\.metadata.isVideo)
        guard photos.count == 1, let photo = photos.first else {
            return files.map { [($0.metadata.isVideo ? .video : .photo, $0)] }
        }
        var asset: [(PHAssetResourceType, Probed)] = [(.photo, photo)]
        // Apple's content identifier decides when both files carry one; else a short movie.
        func isPairedVideo(_ video: Probed) -> Bool {
            if let still = photo.metadata.contentIdentifier, let movie = video.metadata.contentIdentifier { return still == movie }
            return video.metadata.duration <= maximumLiveVideo
        }
        if let index = videos.firstIndex(where: isPairedVideo) {
            asset.append((.pairedVideo, videos.remove(at: index)))
        }
        if !raws.isEmpty { asset.append((.alternatePhoto, raws.removeFirst())) }
        return [asset] + raws.map { [(.photo, $0)] } + videos.map { [(.video, $0)] }
    }

    /// `reference`: the asset's files, main first, as the report lists them.
    private func stage(_ asset: [(PHAssetResourceType, Probed)], reference: PHImportReport.FileReference) -> Outcome {
        func failed(_ reason: String) -> Outcome {
            .finished(PHImportReport.Record(files: reference, outcome: .failed(reason: reason)))
        }
        var signatures: [String] = []
        for (_, probed) in asset {
            do throws(StoreError) {
                signatures.append(try stager.signature(of: probed.file))
            } catch {
                return failed(error.message)
            }
        }
        // The main file decides: its bytes in the library (or earlier in this import) mean a duplicate.
        if !options.allowsDuplicates {
            if let duplicate = findDuplicate(of: asset[0].1, signature: signatures[0], reference: reference) { return duplicate }
        }
        var files: [(type: PHAssetResourceType, file: PreparedFile)] = []
        let placement: ResourceStager.Placement = options.referencesFiles ? .reference : .copy
        for ((type, probed), signature) in zip(asset, signatures) {
            do throws(ResourceStager.Failure) {
                files.append((type, try stager.stage(probed.file, signature: signature, placement: placement).file))
            } catch {
                // try?: staged copies are in this process's staging folder, which the next open
                // of the library removes; the failure is the report.
                for case let done? in files.map(\.file.stagedFile) { try? FileManager.default.removeItem(at: done) }
                return failed("can't \(options.referencesFiles ? "link" : "copy") it into the library: \(error.message)")
            }
        }
        var item = ReadyItem(files: files, reference: reference, mediaType: asset[0].1.metadata.isVideo ? .video : .image)
        if options.makesThumbnails && item.mediaType == .image {
            // From the source (in the page cache after copying). A photo whose structure
            // checked out but whose pixels don't decode is refused here, before anything is
            // committed (its staged copies go with it): the library would hold a photo it
            // can't show. A failure that isn't the file's (an encoder's) is recorded as
            // unrenderable instead (`photos check` lists it, a gallery marks it).
            let main = asset[0].1.file.url
            do {
                item.derivatives = try StagedDerivatives.render(StandardDerivative.madeAtImport, photoAt: main, store: store)
            } catch let error as ImagingError where error.code == .corrupt || error.code == .decodeFailed {
                // try?: as above.
                for case let staged? in files.map(\.file.stagedFile) { try? FileManager.default.removeItem(at: staged) }
                return failed("its image can't be decoded: \(Self.withoutPath(error.message, of: main))")
            } catch let error as ImagingError where error.code != .unreadable {
                item.renderFailure = error.message
            } catch {}
        }
        return .ready(item)
    }

    /// A decoder's message without the file's path (the report names the file already):
    /// "libvips cannot open it: VipsJpeg: Huffman table 0x03 was not defined".
    static func withoutPath(_ message: String, of url: URL) -> String {
        var text = message
        for prefix in ["cannot make a thumbnail of \(url.path): ", "cannot make a thumbnail: "] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        if text.hasPrefix(url.path + " ") { text.removeFirst(url.path.count + 1) }
        return text.replacingOccurrences(of: " \(url.path): \(url.path): ", with: " it: ")
            .replacingOccurrences(of: " \(url.path)", with: " it").replacingOccurrences(of: "\(url.path): ", with: "")
    }

    /// The report of a duplicate when the library, or this import so far, holds the file's bytes.
    private func findDuplicate(of file: Probed, signature: String, reference: PHImportReport.FileReference) -> Outcome? {
        let found: ContentMatch?
        do throws(StoreError) {
            found = try stager.duplicate(of: file.file, signature: signature)
        } catch {
            return .finished(PHImportReport.Record(files: reference, outcome: .failed(reason: error.message)))
        }
        if let match = found {
            return .finished(
                PHImportReport.Record(
                    files: reference,
                    outcome: .duplicateOfAsset(
                        localIdentifier: LocalIdentifier.asset(match.assetUUID), isInRecentlyDeleted: match.isTrashed)))
        }
        // Same size and signature as a file claimed earlier in this import: compare the bytes.
        let key = ClaimKey(size: file.file.size, signature: signature)
        let earlier = claimed.withLock { $0.claim(file.entry, key) }
        // try?: files that can't be compared are taken as different: each is staged on its own,
        // which reads it again and reports a file that can't be read.
        for other in earlier.map(files.url) where (try? ContentSignature.sameBytes(other, file.file.url)) == true {
            claimed.withLock { $0.release(file.entry, key) }
            return .finished(PHImportReport.Record(files: reference, outcome: .duplicateOfFile(other)))
        }
        return nil
    }
}
