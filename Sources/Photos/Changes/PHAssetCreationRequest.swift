public import Foundation

/// A request to create an asset from one or more files or blobs: a photo, a video, a photo
/// with its paired video (a Live Photo) or with an alternate RAW, ...
public class PHAssetCreationRequest: PHAssetChangeRequest {
    /// A new, empty creation request; add at least a `.photo` or `.video` resource.
    public class func forAsset() -> PHAssetCreationRequest {
        makeCreationRequest("PHAssetCreationRequest.forAsset()")
    }

    /// Whether an asset can be made from resources of these types (`PHAssetResourceType`
    /// raw values): a photo, a video, a photo with a paired video and/or an alternate photo.
    public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        let kinds = types.map { PHAssetResourceType(rawValue: $0.intValue) }
        guard !kinds.contains(nil) else { return false }
        return ResourceSpec.isSupported(kinds.compactMap { $0 })
    }

    /// Adds a file. With `options.shouldMoveFile` the file is moved into the library instead of
    /// copied (and moved back if the change fails).
    public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        requireOpen("addResource(with:fileURL:options:)")
        resources.append(ResourceSpec(type: type, source: .file(fileURL), options: ResourceOptions(options)))
    }

    /// Adds a resource from bytes in memory.
    public func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
        requireOpen("addResource(with:data:options:)")
        resources.append(ResourceSpec(type: type, source: .data(data), options: ResourceOptions(options)))
    }
}

extension PHAssetCreationRequest {
    /// Adds a file the importer has already probed, hashed and staged.
    func addPreparedResource(with type: PHAssetResourceType, file: PreparedFile) {
        requireOpen("addResource(with:fileURL:options:)")
        resources.append(
            ResourceSpec(type: type, source: .prepared(file), options: ResourceOptions(originalFilename: ByteNamedFiles.displayName(of: file.source))))
    }
}

/// Options for a resource added to a creation request.
public final class PHAssetResourceCreationOptions: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: options are configured before use and copied when added.
    /// The filename to remember (``PHAssetResource/originalFilename``); the file's name by default.
    public var originalFilename: String?
    /// The resource's type identifier; sniffed from the bytes by default.
    public var uniformTypeIdentifier: String?
    /// Move the file into the library instead of copying it.
    public var shouldMoveFile: Bool = false
    /// Leave the file where it is and refer to it, instead of copying it into the library.
    ///
    /// Linux addition: Photos for Mac offers this as "Copy items to the Photos library" turned
    /// off; iOS has no referenced files. The library reads a referenced file but never moves,
    /// changes or deletes it: deleting the asset (even from Recently Deleted) leaves the file
    /// on disk, and `photos check` reports it if it goes missing. Takes precedence over
    /// ``shouldMoveFile``; ignored for resources added from data. An `http(s)` URL or an S3
    /// object's `s3://BUCKET/KEY` is referenced too: the original stays there and is fetched,
    /// as Apple's iCloud originals are, when a request allows network access (the bucket is
    /// reached with the environment's `AWS_*` settings and `~/.aws`).
    public var shouldReferenceFile: Bool = false

    public override init() {
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHAssetResourceCreationOptions()
        copy.originalFilename = originalFilename
        copy.uniformTypeIdentifier = uniformTypeIdentifier
        copy.shouldMoveFile = shouldMoveFile
        copy.shouldReferenceFile = shouldReferenceFile
        return copy
    }
}

/// A resource as a creation request was given it.
struct ResourceSpec {
    enum Source {
        case file(URL)
        case data(Data)
        /// Probed, fingerprinted and copied into staging (or to be referenced) already, by
    /// ``PHAssetImporter``.
        case prepared(PreparedFile)
    }

    let type: PHAssetResourceType
    let source: Source
    let options: ResourceOptions

    /// Photo, or video, alone; a photo with a paired video and/or an alternate photo.
    static func isSupported(_ types: [PHAssetResourceType]) -> Bool {
        guard Set(types).count == types.count else { return false }
        let set = Set(types)
        if set == [.video] { return true }
        guard set.contains(.photo) else { return false }
        return set.isSubset(of: [.photo, .pairedVideo, .alternatePhoto])
    }
}

struct ResourceOptions {
    var originalFilename: String?
    var uniformTypeIdentifier: String?
    var shouldMoveFile = false
    var shouldReferenceFile = false

    init(originalFilename: String? = nil, uniformTypeIdentifier: String? = nil, shouldMoveFile: Bool = false) {
        self.originalFilename = originalFilename
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.shouldMoveFile = shouldMoveFile
    }

    init(_ options: PHAssetResourceCreationOptions?) {
        originalFilename = options?.originalFilename
        uniformTypeIdentifier = options?.uniformTypeIdentifier
        shouldMoveFile = options?.shouldMoveFile ?? false
        shouldReferenceFile = options?.shouldReferenceFile ?? false
    }
}
