public import CoreLocation
public import Foundation
import PhotosStore

/// A request to create, delete or change an asset, made inside a change block.
///
/// Linux notes: creating from a `UIImage` stores its encoded bytes as the original.
/// ``recoverAssets(_:)`` and ``deleteAssetsPermanently(_:)`` are Linux additions for the
/// Recently Deleted area. Content editing: see `contentEditingOutput` and
/// `revertAssetContentToOriginal()`.
public class PHAssetChangeRequest: PHChangeRequest, ChangeContributing {
    enum Target {
        case existing(PHAsset)
        case created(uuid: String)
    }

    let target: Target
    var resources: [ResourceSpec] = []
    private var edit = AssetEdit()
    /// An edit to commit or a revert (see `PHAssetChangeRequest+ContentEditing.swift`).
    var contentEdit: ContentEditRequest?

    required init(context: ChangeContext, target: Target) {
        self.target = target
        super.init(context: context)
        context.register(self)
    }

    // MARK: - Creating assets

    /// A request to add a photo from an image.
    public class func creationRequestForAsset(from image: UIImage) -> Self {
        let request = makeCreationRequest("creationRequestForAsset(from:)")
        request.resources.append(
            ResourceSpec(
                type: .photo, source: .data(image.encodedData),
                options: ResourceOptions(originalFilename: nil, uniformTypeIdentifier: nil, shouldMoveFile: false)))
        return request
    }

    /// A request to add a photo from an image file (JPEG, PNG, WebP, HEIF/HEIC, GIF, TIFF,
    /// camera RAW). The file is copied into the library when the block commits; an unreadable,
    /// truncated or unsupported file makes the whole block fail with
    /// ``PHPhotosError/Code/invalidResource`` and a message naming it.
    public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> Self? {
        let request = makeCreationRequest("creationRequestForAssetFromImage(atFileURL:)")
        request.resources.append(ResourceSpec(type: .photo, source: .file(fileURL), options: ResourceOptions()))
        return request
    }

    /// A request to add a video from a file (MP4, QuickTime, M4V, 3GP).
    public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> Self? {
        let request = makeCreationRequest("creationRequestForAssetFromVideo(atFileURL:)")
        request.resources.append(ResourceSpec(type: .video, source: .file(fileURL), options: ResourceOptions()))
        return request
    }

    static func makeCreationRequest(_ api: String) -> Self {
        let context = ChangeContext.require(api)
        let request = self.init(context: context, target: .created(uuid: UUID().uuidString))
        return request
    }

    /// A placeholder for the asset a creation request makes; `nil` for other requests.
    public var placeholderForCreatedAsset: PHObjectPlaceholder? {
        guard case .created(let uuid) = target else { return nil }
        return PHObjectPlaceholder(localIdentifier: LocalIdentifier.asset(uuid))
    }

    // MARK: - Deleting assets

    /// Moves assets to Recently Deleted, where they stay 30 days before being removed for
    /// good. Deleted assets disappear from every fetch.
    ///
    /// Linux: no confirmation is asked (Apple's asks the user).
    public class func deleteAssets(_ assets: any NSFastEnumeration) {
        let context = ChangeContext.require("deleteAssets(_:)")
        context.register(AssetListRequest(kind: .trash, uuids: assetUUIDs(assets, api: "deleteAssets(_:)")))
    }

    /// Brings assets back from Recently Deleted, with their album memberships.
    ///
    /// Linux addition. Fetch them with `PHAsset.fetchRecentlyDeletedAssets(with:)`.
    public class func recoverAssets(_ assets: any NSFastEnumeration) {
        let context = ChangeContext.require("recoverAssets(_:)")
        context.register(AssetListRequest(kind: .recover, uuids: assetUUIDs(assets, api: "recoverAssets(_:)")))
    }

    /// Removes assets and their files for good, whether or not they are in Recently Deleted.
    ///
    /// Linux addition.
    public class func deleteAssetsPermanently(_ assets: any NSFastEnumeration) {
        let context = ChangeContext.require("deleteAssetsPermanently(_:)")
        context.register(
            AssetListRequest(kind: .expunge, uuids: assetUUIDs(assets, api: "deleteAssetsPermanently(_:)")))
    }

    static func assetUUIDs(_ assets: any NSFastEnumeration, api: String) -> [String] {
        assets.photoObjects(api).map { object in
            guard let uuid = LocalIdentifier.assetUUID(object.localIdentifier) else {
                fatalError("\(api): \(object) is not an asset")
            }
            return uuid
        }
    }

    // MARK: - Changing assets

    /// A request to change an existing asset's properties.
    public convenience init(for asset: PHAsset) {
        let context = ChangeContext.require("PHAssetChangeRequest(for:)")
        self.init(context: context, target: .existing(asset))
    }

    /// The creation date to save; reads back the asset's until set.
    public var creationDate: Date? {
        get {
            if let value = edit.creationDate { return value }
            if case .existing(let asset) = target { return asset.creationDate }
            return nil
        }
        set {
            requireOpen("PHAssetChangeRequest.creationDate")
            edit.creationDate = .some(newValue)
        }
    }

    /// The location to save; reads back the asset's until set.
    public var location: CLLocation? {
        get {
            if let value = edit.location { return value.map(CLLocation.init(record:)) }
            if case .existing(let asset) = target { return asset.location }
            return nil
        }
        set {
            requireOpen("PHAssetChangeRequest.location")
            edit.location = .some(newValue?.record)
        }
    }

    public var isFavorite: Bool {
        get {
            if let value = edit.isFavorite { return value }
            if case .existing(let asset) = target { return asset.isFavorite }
            return false
        }
        set {
            requireOpen("PHAssetChangeRequest.isFavorite")
            edit.isFavorite = newValue
        }
    }

    public var isHidden: Bool {
        get {
            if let value = edit.isHidden { return value }
            if case .existing(let asset) = target { return asset.isHidden }
            return false
        }
        set {
            requireOpen("PHAssetChangeRequest.isHidden")
            edit.isHidden = newValue
        }
    }

    /// How the asset was picked from its burst: add `.userPick` to keep a burst photo (it then
    /// shows in fetches without `includeAllBurstAssets`, as the Photos app's "Keep" does).
    ///
    /// Linux addition: on Apple's platforms only the Photos app sets picks.
    public var burstSelectionTypes: PHAssetBurstSelectionType {
        get {
            if let value = edit.burstSelectionTypes { return PHAssetBurstSelectionType(rawValue: UInt(value)) }
            if case .existing(let asset) = target { return asset.burstSelectionTypes }
            return []
        }
        set {
            requireOpen("PHAssetChangeRequest.burstSelectionTypes")
            edit.burstSelectionTypes = Int(newValue.rawValue)
        }
    }

    /// Puts the asset in a burst (or takes it out, with nil); for the importer.
    func setBurst(_ identifier: String?, represents: Bool, selection: PHAssetBurstSelectionType) {
        requireOpen("burst membership")
        edit.burstIdentifier = .some(identifier)
        edit.representsBurst = represents
        edit.burstSelectionTypes = Int(selection.rawValue)
    }

    // MARK: - Commit

    func stage(into staging: inout StagingArea) throws(PHPhotosError) {
        switch target {
        case .created:
            try staging.stage(resources, for: self)
            if case .apply = contentEdit {
                throw PHPhotosError(
                    .requestNotSupportedForAsset, "An edit shipped with a creation request is not supported yet; create, then edit")
            }
        case .existing(let asset):
            if case .apply(let output) = contentEdit { try staging.stageContent(output, for: self, asset: asset) }
        }
    }

    func contribute(to changes: inout StoreChangeSet, staging: StagingArea) throws(PHPhotosError) {
        switch target {
        case .existing(let asset):
            changes.assetEdits[asset.uuid] = changes.assetEdits[asset.uuid].map { $0.merged(with: edit) } ?? edit
            switch contentEdit {
            case .apply: if let content = staging.content(for: self) { changes.contentEdits[asset.uuid] = .apply(content) }
            case .revert: changes.contentEdits[asset.uuid] = .revert(duration: asset.originalMovieDuration())
            case nil: break
            }
        case .created(let uuid):
            let staged = staging.resources(for: self)
            changes.newAssets.append(try AssetRecordBuilder.newAsset(uuid: uuid, resources: staged, edit: edit, now: changes.now))
        }
    }
}

extension AssetEdit {
    /// This edit with `later`'s set properties applied on top.
    func merged(with later: AssetEdit) -> AssetEdit {
        var result = self
        if let value = later.creationDate { result.creationDate = value }
        if let value = later.location { result.location = value }
        if let value = later.isFavorite { result.isFavorite = value }
        if let value = later.isHidden { result.isHidden = value }
        if let value = later.burstIdentifier { result.burstIdentifier = value }
        if let value = later.representsBurst { result.representsBurst = value }
        if let value = later.burstSelectionTypes { result.burstSelectionTypes = value }
        return result
    }
}

/// `deleteAssets(_:)` and its Linux siblings.
final class AssetListRequest: ChangeContributing {
    enum Kind { case trash, recover, expunge }
    let kind: Kind
    let uuids: [String]

    init(kind: Kind, uuids: [String]) {
        self.kind = kind
        self.uuids = uuids
    }

    func contribute(to changes: inout StoreChangeSet, staging: StagingArea) throws(PHPhotosError) {
        switch kind {
        case .trash: changes.trashedAssets += uuids
        case .recover: changes.recoveredAssets += uuids
        case .expunge: changes.expungedAssets += uuids
        }
    }
}
