import Foundation

extension PHFetchResult {
    /// The same fetch result with its objects typed as `ObjectType`, or `nil` if some object
    /// is not one: `PHFetchResult<PHCollection>(albums)` for a result of asset collections.
    ///
    /// Linux addition: on Apple's platforms `PHFetchResult` is an Objective-C generic, so a fetch result
    /// converts to one of a related object type with a cast:
    /// `PHAssetCollection.fetchAssetCollections(...) as? PHFetchResult<PHCollection>`. Swift's
    /// generic classes can't allow that here: the compiler calls it "a cast to an unrelated type
    /// that always fails", and the result is always `nil`. Write the conversion instead; it is
    /// optional as the cast is, so the edit is one line:
    ///
    /// ```swift
    /// let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
    /// // Apple's platforms:  albums as? PHFetchResult<PHCollection>
    /// let collections = PHFetchResult<PHCollection>(albums)
    /// ```
    ///
    /// Where Apple's cast succeeds whatever the objects are (Objective-C generics are not
    /// checked at run time) and a wrong type crashes at first use, this one checks: converting
    /// to a subclass (`PHFetchResult<PHAssetCollection>(collections)`) gives `nil` unless every
    /// object is of that class. The new result shares the original's objects and reports the
    /// same change details.
    public convenience init?<Other: AnyObject>(_ other: PHFetchResult<Other>) {
        guard Self.holdsOnlyObjectTypes(other.storage) else { return nil }
        self.init(storage: other.storage, query: other.query, position: other.diffBase)
    }

    /// Whether every object of `storage` is an `ObjectType`.
    private static func holdsOnlyObjectTypes(_ storage: FetchStorage) -> Bool {
        switch storage {
        case .objects(let objects):
            return objects.allSatisfy { $0 is ObjectType }
        case .assets(let ids, _):
            return ids.isEmpty || Self.stand_in(.asset) is ObjectType
        case .collections(let ids, let library):
            let assetCollections = Self.stand_in(.assetCollection) is ObjectType
            let lists = Self.stand_in(.collectionList) is ObjectType
            if ids.isEmpty || (assetCollections && lists) { return true }
            if !assetCollections && !lists { return false }
            let records = library.logger.attempt(.warning, "read the collections of a fetch result to convert it") {
                try library.store.collections(ids: ids)
            }
            guard let records else { return false }
            // A row gone since the fetch reads as a vanished object of the requested kind.
            return records.allSatisfy { $0.isList == lists }
        }
    }

    private enum Kind: CaseIterable { case assetCollection, collectionList, asset }

    /// An empty object of a kind, to ask whether the kind is an `ObjectType` (an instance, so
    /// that `AnyObject` and protocol types answer too, which metatype checks don't).
    private static func stand_in(_ kind: Kind, id: Int64 = 0) -> PHObject {
        switch kind {
        case .assetCollection: PHAssetCollection(record: .vanished(id: id), library: nil)
        case .collectionList: PHCollectionList(record: .vanished(id: id), library: nil)
        case .asset: PHAsset(record: .vanished(id: id), library: nil)
        }
    }

    /// An object of this result as `ObjectType`.
    ///
    /// Ids are never reused (schema v9 gives `asset` and `collection` `AUTOINCREMENT` keys), so a
    /// row read by a held id is the object the fetch found or nothing; the class is checked all
    /// the same, and a row of another class reads as a vanished object of the requested class,
    /// as a deleted one does.
    func typed(_ object: PHObject) -> ObjectType {
        if let typed = object as? ObjectType { return typed }
        let id: Int64 = (object as? PHAsset)?.rowID ?? (object as? PHCollection)?.rowID ?? 0
        for kind in Kind.allCases {
            if let typed = Self.stand_in(kind, id: id) as? ObjectType { return typed }
        }
        fatalError("PHFetchResult: \(object) is not a \(ObjectType.self)")
    }
}
