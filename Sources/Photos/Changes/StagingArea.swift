import Foundation
import Imaging
import Logging
import PhotosStore

#if canImport(Glibc)
    import Glibc
#endif

/// Files of creation requests, read and copied into the library's staging folder before the
/// transaction, so a failure at any step leaves neither a row nor a stray file.
struct StagingArea {
    let store: LibraryDatabase
    /// Where a source not removed after its move, or a fingerprint not taken, is reported.
    let logger: Logger
    /// Probes, fingerprints and stages the requests' files.
    private let stager: ResourceStager
    private var staged: [ObjectIdentifier: [StagedResource]] = [:]
    /// Edits' rendered files and adjustment data, by change request.
    private var contents: [ObjectIdentifier: RenderedContent] = [:]
    /// Files created in staging (deleted on rollback).
    private var created: [URL] = []
    /// Sources moved into staging (moved back on rollback).
    private var moved: [(source: URL, staged: URL)] = []
    /// Sources copied because a move crossed file systems (deleted after the commit).
    private var copiedForMove: [URL] = []

    /// `owner`: the person whose photos a duplicate is looked for among (nil: anyone's).
    init(store: LibraryDatabase, owner: Int64?, logger: Logger) {
        self.store = store
        self.logger = logger
        stager = ResourceStager(store: store, owner: owner, logger: logger)
    }

    func resources(for request: AnyObject) -> [StagedResource] {
        staged[ObjectIdentifier(request)] ?? []
    }

    mutating func stage(_ specs: [ResourceSpec], for request: AnyObject) throws(PHPhotosError) {
        guard !specs.isEmpty else {
            throw PHPhotosError(.invalidResource, "An asset creation request has no resources; add a photo or video")
        }
        guard ResourceSpec.isSupported(specs.map(\.type)) else {
            let names = specs.map { "\($0.type)" }.joined(separator: ", ")
            throw PHPhotosError(.invalidResource, "Can't make an asset from resources of types [\(names)]")
        }
        var results: [StagedResource] = []
        for spec in specs { results.append(try stage(spec)) }
        staged[ObjectIdentifier(request)] = results
    }

    private mutating func stage(_ spec: ResourceSpec) throws(PHPhotosError) -> StagedResource {
        switch spec.source {
        case .prepared(let file):
            // The importer owns the staged copy: it retries or removes it if this change fails.
            let name = ByteNamedFiles.displayName(of: file.source)
            try check(file.metadata, for: spec, name: name)
            return StagedResource(spec, file, name: name)
        case .file(let url) where !url.isFileURL && spec.options.shouldReferenceFile && ["http", "https", "s3"].contains(url.scheme?.lowercased() ?? ""):
            return try referenceRemote(url, spec: spec)
        case .file(let url):
            guard url.isFileURL else {
                throw PHPhotosError(
                    .invalidResource,
                    "\(url.absoluteString) is not a file URL; download it first, or reference an http(s) or s3 original with shouldReferenceFile")
            }
            return try stage(fileAt: url, spec: spec)
        case .data(let data):
            let name = spec.options.originalFilename ?? "image"
            let metadata: MediaMetadata
            do {
                metadata = try MediaProbe.probe(data: data)
            } catch {
                throw PHPhotosError(.invalidResource, "Can't add image data (\(data.count) bytes): \(error)")
            }
            try check(metadata, for: spec, name: name)
            let file: PreparedFile
            do throws(ResourceStager.Failure) {
                file = try stager.stage(data: data, metadata: metadata)
            } catch {
                throw Self.error(failure: error, writing: name)
            }
            if let copy = file.stagedFile { created.append(copy) }
            return StagedResource(spec, file, name: name)
        }
    }

    /// A file copied, moved or referenced, as the request's options say.
    private mutating func stage(fileAt url: URL, spec: ResourceSpec) throws(PHPhotosError) -> StagedResource {
        let name = ByteNamedFiles.displayName(of: url)
        let probed: ResourceStager.ProbedFile
        do {
            probed = try stager.probe(fileAt: url)
        } catch {
            throw PHPhotosError(.invalidResource, "Can't add \(url.path): \(error)")
        }
        try check(probed.metadata, for: spec, name: name)
        let placement: ResourceStager.Placement =
            spec.options.shouldReferenceFile ? .reference : spec.options.shouldMoveFile ? .move : .copy
        let signature: String
        do throws(StoreError) {
            signature = try stager.signature(of: probed)
        } catch {
            throw PHPhotosError(placement == .reference ? .invalidResource : .internalError, error.message)
        }
        let staged: ResourceStager.Staged
        do throws(ResourceStager.Failure) {
            staged = try stager.stage(probed, signature: signature, placement: placement)
        } catch {
            throw Self.error(failure: error, writing: url.path, verb: placement == .reference ? "link" : "copy")
        }
        if let copy = staged.file.stagedFile {
            if staged.renamed {
                moved.append((url, copy))
            } else {
                created.append(copy)
                if placement == .move { copiedForMove.append(url) }
            }
        }
        return StagedResource(spec, staged.file, name: name)
    }

    /// A stager's failure as creation requests report it: the staging folder's or reading
    /// back is the library's (`.internalError`), writing `name` into it is the disk's
    /// (`.notEnoughSpace`).
    private static func error(failure: ResourceStager.Failure, writing name: String, verb: String = "write") -> PHPhotosError {
        switch failure {
        case .stagingFolder(let error), .readingBack(let error): PHPhotosError(.internalError, error.message)
        case .writing(let error): PHPhotosError(.notEnoughSpace, "Can't \(verb) \(name) into the library: \(error.message)")
        }
    }

    /// An original in a remote store: fetched once into a temporary file to read what it is,
    /// then referenced by its URL (not kept: it is fetched again when a request allows it).
    private func referenceRemote(_ url: URL, spec: ResourceSpec) throws(PHPhotosError) -> StagedResource {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("photokit-remote-\(UUID().uuidString)")
        // try?: absent when the fetch failed; one left stays in the system's temporary folder,
        // whose cleaning removes it.
        defer { try? FileManager.default.removeItem(at: temporary) }
        try RemoteOriginals.fetch(url, to: temporary)
        let probed: ResourceStager.ProbedFile
        do {
            probed = try stager.probe(fileAt: temporary)
        } catch {
            throw PHPhotosError(.invalidResource, "Can't add \(url.absoluteString): \(error)")
        }
        try check(probed.metadata, for: spec, name: url.lastPathComponent)
        let file = PreparedFile(
            source: url, metadata: probed.metadata, stagedFile: nil, fileSize: probed.size, contentHash: nil,
            contentSignature: logger.attempt(.notice, "fingerprint \(url.absoluteString) (without one, no duplicate of it is found)") {
                try stager.signature(of: probed)
            },
            fileModificationDate: nil)
        return StagedResource(spec, file, name: ByteNamedFiles.displayName(of: url))
    }

    /// The file must be what its resource type says.
    private func check(_ metadata: MediaMetadata, for spec: ResourceSpec, name: String) throws(PHPhotosError) {
        switch spec.type {
        case .video, .pairedVideo, .fullSizeVideo, .fullSizePairedVideo, .adjustmentBaseVideo, .adjustmentBasePairedVideo:
            guard metadata.format.isVideo else {
                throw PHPhotosError(.invalidResource, "\(name) is a \(metadata.format.rawValue) image, not a video")
            }
        case .photo, .alternatePhoto, .fullSizePhoto, .adjustmentBasePhoto, .photoProxy:
            guard !metadata.format.isVideo else {
                throw PHPhotosError(.invalidResource, "\(name) is a \(metadata.format.rawValue) video, not a photo")
            }
        case .audio, .adjustmentData:
            throw PHPhotosError(.invalidResource, "\(name): resources of type \(spec.type) are not supported yet")
        }
    }

    func content(for request: AnyObject) -> RenderedContent? {
        contents[ObjectIdentifier(request)]
    }

    /// Checks an edit's output (adjustment data set, rendered file present and an image) and
    /// copies its files into staging.
    mutating func stageContent(_ output: PHContentEditingOutput, for request: AnyObject, asset: PHAsset) throws(PHPhotosError) {
        guard let adjustment = output.adjustmentData else {
            throw PHPhotosError(.invalidResource, "The content editing output for \(asset.localIdentifier) has no adjustmentData; set it before committing")
        }
        guard output.assetUUID == asset.uuid else {
            throw PHPhotosError(.invalidResource, "The content editing output was made for another asset than \(asset.localIdentifier)")
        }
        let rendered = output.writtenContentURL
        guard FileManager.default.fileExists(atPath: rendered.path) else {
            throw PHPhotosError(
                .invalidResource, "The rendered content \(rendered.path) is missing: write the edited image there before committing")
        }
        let isVideo = asset.mediaType == .video
        let kind = isVideo ? "a movie" : "an image"
        let metadata: MediaMetadata
        do {
            metadata = try MediaProbe.probe(fileAt: rendered)
        } catch {
            throw PHPhotosError(.invalidResource, "The rendered content \(rendered.path) is not \(kind): \(error)")
        }
        guard metadata.format.isVideo == isVideo else {
            throw PHPhotosError(
                .invalidResource,
                isVideo
                    ? "The rendered content \(rendered.path) is an image; a video's edit must be a movie"
                    : "The rendered content \(rendered.path) is a video; a photo's edit must be an image")
        }
        // A Live Photo's movie, when its editing context rendered one.
        var pairedMovie: (url: URL, metadata: MediaMetadata)?
        if let movie = output.renderedPairedVideoURL, FileManager.default.fileExists(atPath: movie.path) {
            let probed: MediaMetadata
            do {
                probed = try MediaProbe.probe(fileAt: movie)
            } catch {
                throw PHPhotosError(.invalidResource, "The Live Photo's rendered movie \(movie.path) is not a movie: \(error)")
            }
            guard probed.format.isVideo else {
                throw PHPhotosError(.invalidResource, "The Live Photo's rendered movie \(movie.path) is not a movie")
            }
            pairedMovie = (movie, probed)
        }
        do throws(StoreError) {
            let ext = metadata.format.preferredFilenameExtension
            let renderedCopy = try store.makeStagingURL(fileExtension: ext)
            do {
                try FileManager.default.copyItem(at: rendered, to: renderedCopy)
            } catch {
                throw StoreError(.fileOperation, "Can't copy \(rendered.path): \(error.localizedDescription)")
            }
            created.append(renderedCopy)
            let adjustmentCopy = try store.makeStagingURL(fileExtension: "aae")
            do {
                try adjustment.propertyList().write(to: adjustmentCopy)
            } catch {
                throw StoreError(.fileOperation, "Can't write the adjustment data: \(error.localizedDescription)")
            }
            created.append(adjustmentCopy)
            // try?: the copy was just written; its size is unknown (0) only if it vanished, which
            // the commit's move then reports.
            let size = (try? FileManager.default.attributesOfItem(atPath: renderedCopy.path)[.size] as? NSNumber)?.int64Value ?? 0
            var content = RenderedContent(
                renderedFile: renderedCopy, adjustmentFile: adjustmentCopy, formatIdentifier: adjustment.formatIdentifier,
                uniformTypeIdentifier: metadata.format.uniformTypeIdentifier, fileExtension: ext, fileSize: size,
                pixelWidth: metadata.orientedPixelWidth, pixelHeight: metadata.orientedPixelHeight)
            if isVideo {
                content.renderedType = PHAssetResourceType.fullSizeVideo.rawValue
                content.duration = metadata.duration
            }
            if let pairedMovie {
                let movieExt = pairedMovie.metadata.format.preferredFilenameExtension
                let movieCopy = try store.makeStagingURL(fileExtension: movieExt)
                do {
                    try FileManager.default.copyItem(at: pairedMovie.url, to: movieCopy)
                } catch {
                    throw StoreError(.fileOperation, "Can't copy \(pairedMovie.url.path): \(error.localizedDescription)")
                }
                created.append(movieCopy)
                // try?: as for the rendered copy above.
                let movieSize = (try? FileManager.default.attributesOfItem(atPath: movieCopy.path)[.size] as? NSNumber)?.int64Value ?? 0
                content.pairedVideo = RenderedContent.StagedMovie(
                    file: movieCopy, uniformTypeIdentifier: pairedMovie.metadata.format.uniformTypeIdentifier, fileExtension: movieExt,
                    fileSize: movieSize, pixelWidth: pairedMovie.metadata.orientedPixelWidth,
                    pixelHeight: pairedMovie.metadata.orientedPixelHeight)
            }
            contents[ObjectIdentifier(request)] = content
        } catch {
            throw PHPhotosError(.notEnoughSpace, "Can't copy the edit into the library: \(error.message)")
        }
    }

    /// Undoes staging after a failure: moved files go back, copies are deleted.
    func rollBack() {
        for (source, staged) in moved.reversed() { _ = rename(staged.path, source.path) }
        // try?: copies are in this process's staging folder, which the next open of the library
        // removes; the change's own error is the report.
        for url in created { try? FileManager.default.removeItem(at: url) }
    }

    /// After a commit: sources that were to be moved but had to be copied are removed. One that
    /// can't be is logged: the library holds its copy, and the file stays where it was.
    func finish() {
        for url in copiedForMove {
            logger.attempt(.warning, "remove \(url.path) after copying it into the library (it was to be moved)") {
                try FileManager.default.removeItem(at: url)
            }
        }
    }
}

/// A resource read and copied into staging, or referenced where it is.
struct StagedResource {
    let type: PHAssetResourceType
    let metadata: MediaMetadata
    /// The staged copy; nil when the original stays where it is (`referencedFile`).
    let stagedFile: URL?
    /// The original referenced in place (absolute), instead of a copy in the library.
    let referencedFile: URL?
    let fileSize: Int64
    let originalFilename: String
    let uniformTypeIdentifier: String
    let fileExtension: String
    let fileModificationDate: Date?
    /// SHA-256 of the bytes, hex; nil for a referenced original (not read whole).
    let contentHash: String?
    /// ``ContentSignature`` of the bytes.
    let contentSignature: String?
}

extension StagedResource {
    /// A resource of `spec`'s type made of a prepared file, remembered as `name` unless the
    /// request's options give a name; referenced where it is when nothing was staged (a
    /// remote original's URL as it is: `standardizedFileURL` changes only file URLs).
    init(_ spec: ResourceSpec, _ file: PreparedFile, name: String) {
        self.init(
            type: spec.type, metadata: file.metadata, stagedFile: file.stagedFile,
            referencedFile: file.stagedFile == nil ? file.source.standardizedFileURL : nil,
            fileSize: file.fileSize, originalFilename: spec.options.originalFilename ?? name,
            uniformTypeIdentifier: spec.options.uniformTypeIdentifier ?? file.metadata.format.uniformTypeIdentifier,
            fileExtension: file.metadata.format.preferredFilenameExtension, fileModificationDate: file.fileModificationDate,
            contentHash: file.contentHash, contentSignature: file.contentSignature)
    }
}
