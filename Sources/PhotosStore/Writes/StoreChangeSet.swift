package import Foundation

/// Everything one `performChanges` block asks for, applied by
/// ``LibraryDatabase/commit(_:)`` in one transaction.
///
/// Objects are named by UUID, so objects created in the same change (placeholders) can be
/// referenced before they have row ids.
package struct StoreChangeSet: Sendable {
    package var newCollections: [NewCollection] = []
    package var newAssets: [NewAsset] = []
    package var assetEdits: [String: AssetEdit] = [:]
    /// Edited content (a rendered version and its adjustment data) or a revert, by asset UUID.
    package var contentEdits: [String: ContentEdit] = [:]
    /// Where the edits' files were stored before the transaction (the library's bucket
    /// location, ``ObjectOriginals``): their rows name the objects, and no staged file is
    /// moved. Nil: they are moved into the library's folder.
    package var contentObjectLocation: String?
    package var collectionEdits: [String: CollectionEdit] = [:]
    package var membershipEdits: [MembershipEdit] = []
    /// Assets moved to Recently Deleted.
    package var trashedAssets: [String] = []
    /// Assets brought back from Recently Deleted.
    package var recoveredAssets: [String] = []
    /// Assets removed for good, files and all.
    package var expungedAssets: [String] = []
    package var deletedCollections: [String] = []
    /// Who a shared album is shared with: members added or removed by its owner, or the acting
    /// person leaving.
    package var sharingEdits: [SharingEdit] = []
    /// The import batch these new assets come from, marked done in the same transaction.
    package var importBatch: ImportBatchCompletion?
    /// The person (`person.id`) making the change, through their own library: what they create
    /// is theirs, and an object of anyone else's is not found. `nil`: a library opened without a
    /// person, which reaches every object and gives what it creates to the library's owner.
    package var actingPerson: Int64?
    package var now: Date

    package init(now: Date = Date()) {
        self.now = now
    }

    package var isEmpty: Bool {
        newCollections.isEmpty && newAssets.isEmpty && assetEdits.isEmpty && collectionEdits.isEmpty
            && membershipEdits.isEmpty && trashedAssets.isEmpty && recoveredAssets.isEmpty
            && expungedAssets.isEmpty && deletedCollections.isEmpty && sharingEdits.isEmpty
    }
}

/// A new asset: its row (without id) and its files, already staged in the library's `tmp`.
package struct NewAsset: Sendable {
    package var record: AssetRecord
    package var resources: [NewResource]
    /// The camera that took it (EXIF Make, Model, LensModel), kept for later use.
    package var camera: CameraInfo
    /// The title, caption and keywords its file carried.
    package var description: DescriptionInfo

    package init(
        record: AssetRecord, resources: [NewResource], camera: CameraInfo = CameraInfo(), description: DescriptionInfo = DescriptionInfo()
    ) {
        self.record = record
        self.resources = resources
        self.camera = camera
        self.description = description
    }
}

/// A file's title, caption and keywords (XMP, IPTC).
package struct DescriptionInfo: Sendable, Hashable {
    package var title: String?
    package var caption: String?
    package var keywords: [String]

    package init(title: String? = nil, caption: String? = nil, keywords: [String] = []) {
        self.title = title
        self.caption = caption
        self.keywords = keywords
    }

    /// Keywords as the `keywords` column holds them: one a line (line breaks inside one made
    /// spaces); `nil` for none.
    var keywordsColumn: String? {
        keywords.isEmpty ? nil : keywords.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }.joined(separator: "\n")
    }
}

/// EXIF Make, Model and LensModel.
package struct CameraInfo: Sendable, Hashable {
    package var make: String?
    package var model: String?
    package var lens: String?

    package init(make: String? = nil, model: String? = nil, lens: String? = nil) {
        self.make = make
        self.model = model
        self.lens = lens
    }
}

/// A file for a new asset: staged inside the library and renamed into place at commit, or
/// referenced where it is.
package struct NewResource: Sendable {
    package var type: Int
    package var uniformTypeIdentifier: String
    package var originalFilename: String
    /// The staged copy to rename to `relativePath`; nil for an original referenced in place
    /// (`relativePath` is then its absolute path, see ``LibraryLayout/isReferenced(path:)``).
    package var stagedFile: URL?
    /// Where it goes, relative to the library root (or absolute, when referenced).
    package var relativePath: String
    package var fileSize: Int64
    package var pixelWidth: Int
    package var pixelHeight: Int
    /// SHA-256 of the file, hex (``ContentHash``); nil when the whole file was not read.
    package var contentHash: String?
    /// ``ContentSignature`` of the file.
    package var contentSignature: String?
    /// A referenced original's modification time when imported (see
    /// ``LibraryDatabase/referencedFile(atPath:)``); nil for copies.
    package var fileModificationDate: Date?

    package init(
        type: Int, uniformTypeIdentifier: String, originalFilename: String, stagedFile: URL?,
        relativePath: String, fileSize: Int64, pixelWidth: Int, pixelHeight: Int, contentHash: String? = nil,
        contentSignature: String? = nil, fileModificationDate: Date? = nil
    ) {
        self.fileModificationDate = fileModificationDate
        self.contentHash = contentHash
        self.contentSignature = contentSignature
        self.type = type
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.originalFilename = originalFilename
        self.stagedFile = stagedFile
        self.relativePath = relativePath
        self.fileSize = fileSize
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// Property changes to an existing asset; `nil` leaves a property as it is.
package struct AssetEdit: Sendable {
    package var creationDate: Date??
    package var location: LocationRecord??
    package var isFavorite: Bool?
    package var isHidden: Bool?
    /// The burst the asset belongs to (nil: none), set together with the two below.
    package var burstIdentifier: String??
    package var representsBurst: Bool?
    /// `PHAssetBurstSelectionType` raw value.
    package var burstSelectionTypes: Int?

    package init() {}
}

/// A change to who a shared album (``CollectionKind/albumCloudShared``) is shared with.
package struct SharingEdit: Sendable, Hashable {
    package enum Action: Sendable, Hashable {
        /// Makes a person (a name or `pe_` identifier) a member with this role (1 a viewer, 2
        /// a contributor), or changes their role.
        case share(person: String, role: Int)
        /// Ends a person's membership.
        case unshare(person: String)
        /// The acting person ends their own membership.
        case leave
    }

    package var album: String
    package var action: Action

    package init(album: String, action: Action) {
        self.album = album
        self.action = action
    }
}

/// A new album, folder or other collection.
package struct NewCollection: Sendable {
    package var uuid: String
    package var isList: Bool
    package var type: Int
    package var subtype: Int
    package var title: String

    package init(uuid: String, isList: Bool, type: Int, subtype: Int, title: String) {
        self.uuid = uuid
        self.isList = isList
        self.type = type
        self.subtype = subtype
        self.title = title
    }
}

package struct CollectionEdit: Sendable {
    package var title: String?

    package init(title: String? = nil) {
        self.title = title
    }
}

/// Ordered edits to an album's assets, a folder's children, or the top-level list.
package struct MembershipEdit: Sendable {
    package enum Container: Sendable, Hashable {
        /// A user album (members are asset UUIDs).
        case album(String)
        /// A folder (members are collection UUIDs).
        case folder(String)
        /// The top level of the user's albums and folders.
        case topLevel
    }

    /// One call on a change request, with indexes into the members the caller sees.
    package enum Operation: Sendable, Hashable {
        case add([String])
        case insert([String], at: [Int])
        case remove([String])
        case removeAt([Int])
        case replace(at: [Int], with: [String])
        case move(from: [Int], to: Int)
    }

    package var container: Container
    /// The members, in order, that indexes refer to (a fetch result the caller holds); `nil`
    /// means the container's members as a default fetch shows them.
    package var view: [String]?
    package var operations: [Operation]

    package init(container: Container, view: [String]?, operations: [Operation]) {
        self.container = container
        self.view = view
        self.operations = operations
    }
}

/// A change to an asset's content: a new rendered version, or back to the original.
package enum ContentEdit: Sendable {
    case apply(RenderedContent)
    /// Back to the original; `duration` is the original movie's, for a video.
    case revert(duration: Double?)
}

/// An edit's files, staged: the rendered image and the adjustment data (an AAE-style property
/// list) that lets an editor resume it.
package struct RenderedContent: Sendable {
    package var renderedFile: URL
    package var adjustmentFile: URL
    package var formatIdentifier: String
    package var uniformTypeIdentifier: String
    package var fileExtension: String
    package var fileSize: Int64
    package var pixelWidth: Int
    package var pixelHeight: Int
    /// The rendered file's `PHAssetResourceType` raw value: 5 (`.fullSizePhoto`) or 6
    /// (`.fullSizeVideo`).
    package var renderedType = 5
    /// The rendered movie's length, for a video.
    package var duration: Double?
    /// A Live Photo's rendered movie (`.fullSizePairedVideo`), when its edit has one.
    package var pairedVideo: StagedMovie?

    /// A rendered movie in staging.
    package struct StagedMovie: Sendable {
        package var file: URL
        package var uniformTypeIdentifier: String
        package var fileExtension: String
        package var fileSize: Int64
        package var pixelWidth: Int
        package var pixelHeight: Int

        package init(file: URL, uniformTypeIdentifier: String, fileExtension: String, fileSize: Int64, pixelWidth: Int, pixelHeight: Int) {
            self.file = file
            self.uniformTypeIdentifier = uniformTypeIdentifier
            self.fileExtension = fileExtension
            self.fileSize = fileSize
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
        }
    }

    package init(
        renderedFile: URL, adjustmentFile: URL, formatIdentifier: String, uniformTypeIdentifier: String, fileExtension: String,
        fileSize: Int64, pixelWidth: Int, pixelHeight: Int
    ) {
        self.renderedFile = renderedFile
        self.adjustmentFile = adjustmentFile
        self.formatIdentifier = formatIdentifier
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.fileExtension = fileExtension
        self.fileSize = fileSize
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}
