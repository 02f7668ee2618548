import Foundation
import PhotosStore

/// The class a fetch returns, which decides the keys its options may use.
enum FetchEntity: Sendable, Hashable {
    case asset
    case assetCollection
    case collectionList
    /// Mixed fetches of albums and folders (`PHCollection`).
    case collection

    init(_ type: PHObject.Type) {
        if type == PHAsset.self {
            self = .asset
        } else if type == PHAssetCollection.self {
            self = .assetCollection
        } else if type == PHCollectionList.self {
            self = .collectionList
        } else {
            self = .collection
        }
    }

    var className: String {
        switch self {
        case .asset: "PHAsset"
        case .assetCollection: "PHAssetCollection"
        case .collectionList: "PHCollectionList"
        case .collection: "PHCollection"
        }
    }

    /// What a key means for this entity.
    enum Key: Equatable {
        case field(StoreField, ValueKind)
        /// `SELF` or `localIdentifier`: compared by identifier.
        case identity(isSelf: Bool)
    }

    enum ValueKind: Equatable {
        case date, integer, double, bool, string
    }

    func key(_ name: String) -> Key? {
        switch (self, name) {
        case (_, "SELF"): return .identity(isSelf: true)
        case (_, "localIdentifier"): return .identity(isSelf: false)
        case (.asset, "creationDate"): return .field(.creationDate, .date)
        case (.asset, "modificationDate"): return .field(.modificationDate, .date)
        case (.asset, "mediaType"): return .field(.mediaType, .integer)
        case (.asset, "mediaSubtypes"), (.asset, "mediaSubtype"): return .field(.mediaSubtypes, .integer)
        case (.asset, "duration"): return .field(.duration, .double)
        case (.asset, "pixelWidth"): return .field(.pixelWidth, .integer)
        case (.asset, "pixelHeight"): return .field(.pixelHeight, .integer)
        case (.asset, "favorite"), (.asset, "isFavorite"): return .field(.isFavorite, .bool)
        case (.asset, "hidden"), (.asset, "isHidden"): return .field(.isHidden, .bool)
        case (.asset, "burstIdentifier"): return .field(.burstIdentifier, .string)
        case (.asset, _): return nil
        case (_, "localizedTitle"), (_, "title"): return .field(.title, .string)
        case (_, "startDate"): return .field(.startDate, .date)
        case (_, "endDate"): return .field(.endDate, .date)
        case (.assetCollection, "estimatedAssetCount"): return .field(.estimatedAssetCount, .integer)
        default: return nil
        }
    }

    var uuidField: StoreField { self == .asset ? .assetUUID : .collectionUUID }
    var localIdentifierField: StoreField { self == .asset ? .assetLocalIdentifier : .collectionLocalIdentifier }

    /// The UUID inside a local identifier of this entity, if it is one.
    func uuid(fromIdentifier identifier: String) -> String? {
        switch self {
        case .asset: LocalIdentifier.assetUUID(identifier)
        case .assetCollection: LocalIdentifier.collectionUUID(identifier, isList: false)
        case .collectionList: LocalIdentifier.collectionUUID(identifier, isList: true)
        case .collection: LocalIdentifier.collectionUUID(identifier, isList: nil)
        }
    }
}
