public import Foundation
import PhotosStore
import PhotosLocking

/// An ordered list of assets or collections returned by a fetch.
///
/// A fetch result is a snapshot of *which* objects matched when the fetch ran: ``count`` is
/// known at once and never changes. Objects are read lazily, in batches around the last index
/// read, and kept in a small cache; an object read again after it left the cache is read
/// again from the library, so its properties may have changed in the meantime (as Apple
/// documents). A fetch result is safe to read from several threads at once.
///
/// Linux notes: it also conforms to `Sequence` (not `Collection`, whose `index(of:)` would
/// shadow PhotoKit's), so `for asset in result` and `result.map` work. An object removed for
/// good after the fetch (deleted and then purged from Recently Deleted) reads as an object of
/// the result's type with no properties. A fetch result of one object type converts to one of
/// a related type with `PHFetchResult<PHCollection>(albums)`, where Apple's code casts with
/// `as?` (see ``init(_:)``).
public final class PHFetchResult<ObjectType: AnyObject>: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: everything is immutable except the batch cache, which is behind
    // a Mutex.
    let storage: FetchStorage
    /// What was fetched, so the fetch can be run again (change details).
    let query: FetchQuery
    /// The library's position (newest change) the ids reflect; -1 when unknown.
    let position: Int64
    /// The newest position change details found this result unaffected at: the same ids are
    /// the result at that position too, so later details read the journal from there (a
    /// result no change touches doesn't re-read a growing history on every change).
    private let unchangedThrough: Atomic<Int64>
    private let window = Mutex(BatchWindow())

    /// How many objects are read together when reading in order.
    static var batchSize: Int { 128 }

    /// Why the fetch came back empty when the library failed to run it; `nil` for a fetch
    /// that ran.
    ///
    /// Linux addition. A fetch never throws in PhotoKit: on Apple's platforms a failing fetch
    /// logs and returns an empty result, and so does this one (a line on standard error);
    /// this tells such a result from a fetch that matched nothing.
    public let fetchError: PHPhotosError?

    init(storage: FetchStorage, query: FetchQuery, position: Int64 = -1, fetchError: PHPhotosError? = nil) {
        self.storage = storage
        self.query = query
        self.position = position
        self.fetchError = fetchError
        unchangedThrough = Atomic(position)
        super.init()
    }

    /// The position the ids are known to reflect: where change details start reading.
    var diffBase: Int64 { unchangedThrough.load(ordering: .acquiring) }

    /// Records that no change up to `position` affects this result.
    func markUnchanged(through position: Int64) {
        unchangedThrough.max(position, ordering: .acquiringAndReleasing)
    }

    /// The number of objects, fixed when the fetch ran.
    public var count: Int { storage.count }

    /// The object at `index`; stops the process if `index` is out of bounds (Apple raises
    /// `NSRangeException`).
    public func object(at index: Int) -> ObjectType {
        guard index >= 0 && index < count else {
            fatalError("PHFetchResult: index \(index) beyond bounds [0 .. \(count - 1)]")
        }
        if let cached = window.withLock({ $0.object(at: index) }) {
            return typed(cached)
        }
        let range = window.withLock { $0.nextRange(for: index, count: count, batch: Self.batchSize) }
        let objects = storage.load(range)
        window.withLock { $0.store(objects, range: range, accessed: index) }
        return typed(objects[index - range.lowerBound])
    }

    public subscript(index: Int) -> ObjectType { object(at: index) }

    /// Keeps `objects`, read with the ids, as the batch of the first `objects.count` indexes.
    func holdObjects(_ objects: [PHObject]) {
        guard objects.count <= count else { return }
        window.withLock { $0.store(objects, range: 0..<objects.count, accessed: -1) }
    }

    public var firstObject: ObjectType? { count > 0 ? object(at: 0) : nil }
    public var lastObject: ObjectType? { count > 0 ? object(at: count - 1) : nil }

    /// The objects at `indexes`, in index order.
    public func objects(at indexes: IndexSet) -> [ObjectType] {
        if let last = indexes.last, last >= count {
            fatalError("PHFetchResult: index \(last) beyond bounds [0 .. \(count - 1)]")
        }
        var result: [ObjectType] = []
        result.reserveCapacity(indexes.count)
        for range in indexes.rangeView {
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 512) {
                let chunk = start..<Swift.min(start + 512, range.upperBound)
                result += storage.load(chunk).map(typed)
            }
        }
        return result
    }

    /// Whether the result holds an object with the same local identifier.
    public func contains(_ anObject: ObjectType) -> Bool {
        index(of: anObject) != NSNotFound
    }

    /// The index of the object with the same local identifier, or `NSNotFound`.
    public func index(of anObject: ObjectType) -> Int {
        index(of: anObject, in: NSRange(location: 0, length: count))
    }

    /// The index, within `range`, of the object with the same local identifier, or `NSNotFound`.
    public func index(of anObject: ObjectType, in range: NSRange) -> Int {
        guard let object = anObject as? PHObject else { return NSNotFound }
        let lower = Swift.max(0, range.location), upper = Swift.min(count, range.location + range.length)
        guard lower < upper else { return NSNotFound }
        return storage.index(of: object, in: lower..<upper) ?? NSNotFound
    }

    /// How many assets of a media type the result holds (0 for collection results).
    public func countOfAssets(with mediaType: PHAssetMediaType) -> Int {
        storage.countOfAssets(with: mediaType)
    }

    /// A fetch result is immutable: a copy is the result itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override var description: String {
        "<PHFetchResult: count=\(count)>"
    }
}

/// The objects a fetch result holds: row ids read lazily, or objects already in memory.
enum FetchStorage: Sendable {
    case assets(ids: [Int64], library: PHPhotoLibrary)
    case collections(ids: [Int64], library: PHPhotoLibrary)
    case objects([PHObject])

    var count: Int {
        switch self {
        case .assets(let ids, _), .collections(let ids, _): ids.count
        case .objects(let objects): objects.count
        }
    }

    /// Reads the objects in `range`, in order.
    func load(_ range: Range<Int>) -> [PHObject] {
        switch self {
        case .objects(let objects):
            return Array(objects[range])
        case .assets(let ids, let library):
            let slice = Array(ids[range])
            // Unread (logged), the objects read as vanished, as rows deleted since the fetch do.
            let records = library.logger.attempt(.warning, "read \(slice.count) assets of a fetch result") {
                try library.store.assets(ids: slice)
            } ?? []
            let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return slice.map { id in
                PHAsset(record: byID[id] ?? .vanished(id: id), library: library)
            }
        case .collections(let ids, let library):
            let slice = Array(ids[range])
            let records = library.logger.attempt(.warning, "read \(slice.count) collections of a fetch result") {
                try library.store.collections(ids: slice)
            } ?? []
            let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return slice.map { id in
                let record = byID[id] ?? .vanished(id: id)
                return record.isList
                    ? PHCollectionList(record: record, library: library) as PHObject
                    : PHAssetCollection(record: record, library: library)
            }
        }
    }

    func index(of object: PHObject, in range: Range<Int>) -> Int? {
        switch self {
        case .objects(let objects):
            return objects[range].firstIndex { $0.localIdentifier == object.localIdentifier }
        case .assets(let ids, let library):
            guard let rowID = Self.rowID(of: object, library: library, isAsset: true) else { return nil }
            return ids[range].firstIndex(of: rowID)
        case .collections(let ids, let library):
            guard let rowID = Self.rowID(of: object, library: library, isAsset: false) else { return nil }
            return ids[range].firstIndex(of: rowID)
        }
    }

    private static func rowID(of object: PHObject, library: PHPhotoLibrary, isAsset: Bool) -> Int64? {
        if isAsset {
            if let asset = object as? PHAsset, asset.library === library { return asset.rowID }
            guard let uuid = LocalIdentifier.assetUUID(object.localIdentifier) else { return nil }
            let records = library.logger.attempt(.warning, "look up \(object.localIdentifier) in a fetch result") {
                try library.store.assets(uuids: [uuid])
            }
            return records?.first?.id
        }
        if let collection = object as? PHCollection, collection.library === library, let id = collection.rowID { return id }
        guard let uuid = LocalIdentifier.collectionUUID(object.localIdentifier, isList: nil) else { return nil }
        let records = library.logger.attempt(.warning, "look up \(object.localIdentifier) in a fetch result") {
            try library.store.collections(uuids: [uuid])
        }
        return records?.first?.id
    }

    func countOfAssets(with mediaType: PHAssetMediaType) -> Int {
        switch self {
        case .objects(let objects):
            return objects.lazy.compactMap { $0 as? PHAsset }.filter { $0.mediaType == mediaType }.count
        case .assets(let ids, let library):
            return library.logger.attempt(.warning, "count the assets of a fetch result") {
                try library.store.countAssets(ids: ids, mediaType: mediaType.rawValue)
            } ?? 0
        case .collections:
            return 0
        }
    }
}

/// The batch of objects most recently read.
struct BatchWindow {
    var range: Range<Int> = 0..<0
    var objects: [PHObject] = []
    var lastIndex = -1

    func object(at index: Int) -> PHObject? {
        range.contains(index) ? objects[index - range.lowerBound] : nil
    }

    /// How many objects the first read in order reads: a fetch's `firstObject` reads 16 rows,
    /// not a whole batch (on PostgreSQL, 128 rows by id cost ~1 ms of the server's time).
    static let firstBatch = 16

    /// Reading in order (forwards or backwards) reads ahead: ``firstBatch`` objects first, then
    /// twice as many as the read before, up to `batch`. A jump reads just the object asked
    /// for, so random access stays cheap.
    func nextRange(for index: Int, count: Int, batch: Int) -> Range<Int> {
        let ahead = Swift.min(batch, Swift.max(Self.firstBatch, range.count * 2))
        if index == lastIndex + 1 || index == range.upperBound {
            return index..<Swift.min(count, index + ahead)
        }
        if index == lastIndex - 1 || index == range.lowerBound - 1 {
            return Swift.max(0, index - ahead + 1)..<(index + 1)
        }
        return index..<(index + 1)
    }

    mutating func store(_ objects: [PHObject], range: Range<Int>, accessed index: Int) {
        self.objects = objects
        self.range = range
        lastIndex = index
    }
}

extension AssetRecord {
    /// The stand-in for an asset removed for good after a fetch result was made.
    static func vanished(id: Int64) -> AssetRecord {
        AssetRecord(
            id: id, uuid: String(format: "00000000-0000-0000-0000-%012llX", id), mediaType: 0,
            addedDate: Date(timeIntervalSince1970: 0), uniformTypeIdentifier: "public.data")
    }
}

extension CollectionRecord {
    static func vanished(id: Int64) -> CollectionRecord {
        CollectionRecord(
            id: id, uuid: String(format: "00000000-0000-0000-0000-%012llX", id), isList: false, type: 1, subtype: 2,
            title: nil, creationDate: Date(timeIntervalSince1970: 0))
    }
}
