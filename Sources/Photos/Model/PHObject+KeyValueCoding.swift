import Foundation

/// Key-value reads of PhotoKit objects, for code that asks them by name.
///
/// Linux addition: Foundation's `NSObject` has no key-value coding here, so PhotoKit's objects answer
/// `value(forKey:)` themselves, for every documented property by its name (and, for Boolean
/// properties, by its getter too: `"favorite"` and `"isFavorite"`) and for the private keys
/// apps are known to read:
///
/// | object | keys |
/// |---|---|
/// | every object | `localIdentifier` |
/// | `PHAsset` | `mediaType`, `mediaSubtypes`, `sourceType`, `pixelWidth`, `pixelHeight`, `creationDate`, `modificationDate`, `addedDate`, `location`, `duration`, `favorite`/`isFavorite`, `hidden`/`isHidden`, `burstIdentifier`, `burstSelectionTypes`, `representsBurst`, `playbackStyle`, `hasAdjustments`, `adjustmentFormatIdentifier`; private: `filename` (the original file's name), `uniformTypeIdentifier` |
/// | `PHCollection` | `localizedTitle`, `canContainAssets`, `canContainCollections` |
/// | `PHAssetCollection` | `assetCollectionType`, `assetCollectionSubtype`, `estimatedAssetCount`, `startDate`, `endDate`, `approximateLocation`, `localizedLocationNames`; private: `title` |
/// | `PHCollectionList` | `collectionListType`, `collectionListSubtype`, `startDate`, `endDate`, `localizedLocationNames`; private: `title` |
///
/// Values are what Objective-C's key-value coding gives: numbers, enumerations and Booleans
/// as `NSNumber` (so `as? Int`, `as? Int64`, `as? Bool` all work, and an enumeration reads as
/// its raw value), dates as `Date`, strings as `String`, `nil` for an empty optional. An
/// unknown key stops the process with `NSUnknownKeyException`'s message, as the uncaught
/// exception does on Apple's platforms.
extension PHObject {
    /// The value of the property named `key`; see the key list above.
    public func value(forKey key: String) -> Any? {
        guard let found = keyedValue(forKey: key) else { return value(forUndefinedKey: key) }
        return found.value
    }

    /// The value of a dotted key path whose every step but the last is a PhotoKit object
    /// (`"localIdentifier"`, or through an object-valued key).
    public func value(forKeyPath keyPath: String) -> Any? {
        var steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = steps.removeLast()
        var object: PHObject = self
        for step in steps {
            guard let next = object.value(forKey: step) as? PHObject else { return nil }
            object = next
        }
        return object.value(forKey: last)
    }

    /// Called for a key the object doesn't have: stops the process, as Apple's default
    /// raises `NSUnknownKeyException`.
    public func value(forUndefinedKey key: String) -> Any? {
        undefinedKey(key, of: self)
    }

    /// The value of a key this object has, or `nil` when it has no such key.
    func keyedValue(forKey key: String) -> KeyedValue? {
        if key == "localIdentifier" { return KeyedValue(localIdentifier) }
        switch self {
        case let asset as PHAsset: return asset.assetValue(forKey: key)
        case let collection as PHAssetCollection: return collection.assetCollectionValue(forKey: key)
        case let list as PHCollectionList: return list.collectionListValue(forKey: key)
        default: return nil
        }
    }
}

/// A found key's value (which may itself be nil).
struct KeyedValue {
    let value: Any?
    init(_ value: Any?) { self.value = value }
    /// A number, as key-value coding boxes numbers, enumerations and Booleans.
    static func number(_ value: Int) -> KeyedValue { KeyedValue(NSNumber(value: value)) }
    static func number(_ value: UInt) -> KeyedValue { KeyedValue(NSNumber(value: value)) }
    static func number(_ value: Int64) -> KeyedValue { KeyedValue(NSNumber(value: value)) }
    static func number(_ value: Double) -> KeyedValue { KeyedValue(NSNumber(value: value)) }
    static func number(_ value: Bool) -> KeyedValue { KeyedValue(NSNumber(value: value)) }
}

/// `NSUnknownKeyException`, uncaught.
func undefinedKey(_ key: String, of object: NSObject) -> Never {
    fatalError(
        "NSUnknownKeyException: [<\(type(of: object)) \(object.description)> valueForUndefinedKey:]: "
            + "this class is not key value coding-compliant for the key \(key).")
}

extension PHAsset {
    func assetValue(forKey key: String) -> KeyedValue? {
        switch key {
        case "mediaType": .number(mediaType.rawValue)
        case "mediaSubtypes": .number(mediaSubtypes.rawValue)
        case "sourceType": .number(sourceType.rawValue)
        case "pixelWidth": .number(pixelWidth)
        case "pixelHeight": .number(pixelHeight)
        case "creationDate": KeyedValue(creationDate)
        case "modificationDate": KeyedValue(modificationDate)
        case "addedDate": KeyedValue(addedDate)
        case "location": KeyedValue(location)
        case "duration": .number(duration)
        case "favorite", "isFavorite": .number(isFavorite)
        case "hidden", "isHidden": .number(isHidden)
        case "burstIdentifier": KeyedValue(burstIdentifier)
        case "burstSelectionTypes": .number(burstSelectionTypes.rawValue)
        case "representsBurst": .number(representsBurst)
        case "playbackStyle": .number(playbackStyle.rawValue)
        case "hasAdjustments": .number(hasAdjustments)
        case "adjustmentFormatIdentifier": KeyedValue(adjustmentFormatIdentifier)
        case "filename", "originalFilename": KeyedValue(originalFilename)
        case "uniformTypeIdentifier": KeyedValue(record.uniformTypeIdentifier)
        default: nil
        }
    }

    /// The name of the asset's original file as it was imported (Apple's private `filename`).
    var originalFilename: String? {
        if let name = record.originalFilename { return name }
        return PHAssetResource.assetResources(for: self).first?.originalFilename
    }
}

extension PHCollection {
    func collectionValue(forKey key: String) -> KeyedValue? {
        switch key {
        case "localizedTitle", "title": KeyedValue(localizedTitle)
        case "canContainAssets": .number(canContainAssets)
        case "canContainCollections": .number(canContainCollections)
        default: nil
        }
    }
}

extension PHAssetCollection {
    func assetCollectionValue(forKey key: String) -> KeyedValue? {
        switch key {
        case "assetCollectionType": .number(assetCollectionType.rawValue)
        case "assetCollectionSubtype": .number(assetCollectionSubtype.rawValue)
        case "estimatedAssetCount": .number(estimatedAssetCount)
        case "startDate": KeyedValue(startDate)
        case "endDate": KeyedValue(endDate)
        case "approximateLocation": KeyedValue(approximateLocation)
        case "localizedLocationNames": KeyedValue(localizedLocationNames)
        default: collectionValue(forKey: key)
        }
    }
}

extension PHCollectionList {
    func collectionListValue(forKey key: String) -> KeyedValue? {
        switch key {
        case "collectionListType": .number(collectionListType.rawValue)
        case "collectionListSubtype": .number(collectionListSubtype.rawValue)
        case "startDate": KeyedValue(startDate)
        case "endDate": KeyedValue(endDate)
        case "localizedLocationNames": KeyedValue(localizedLocationNames)
        default: collectionValue(forKey: key)
        }
    }
}
