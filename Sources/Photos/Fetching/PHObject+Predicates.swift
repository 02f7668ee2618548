import Foundation

extension PHAsset: PredicateEvaluable {
    func predicateValue(forKey key: String) -> PredicateValue? {
        func date(_ value: Date?) -> PredicateValue { value.map(PredicateValue.date) ?? .null }
        switch key {
        case "SELF": return .object(localIdentifier: localIdentifier)
        case "localIdentifier": return .string(localIdentifier)
        case "creationDate": return date(creationDate)
        case "modificationDate": return date(modificationDate)
        case "mediaType": return .int(Int64(mediaType.rawValue))
        case "mediaSubtypes", "mediaSubtype": return .int(Int64(mediaSubtypes.rawValue))
        case "duration": return .double(duration)
        case "pixelWidth": return .int(Int64(pixelWidth))
        case "pixelHeight": return .int(Int64(pixelHeight))
        case "favorite", "isFavorite": return .bool(isFavorite)
        case "hidden", "isHidden": return .bool(isHidden)
        case "burstIdentifier": return burstIdentifier.map(PredicateValue.string) ?? .null
        default: return nil
        }
    }
}

extension PHCollection: PredicateEvaluable {
    func predicateValue(forKey key: String) -> PredicateValue? {
        func date(_ value: Date?) -> PredicateValue { value.map(PredicateValue.date) ?? .null }
        switch key {
        case "SELF": return .object(localIdentifier: localIdentifier)
        case "localIdentifier": return .string(localIdentifier)
        case "localizedTitle", "title": return localizedTitle.map(PredicateValue.string) ?? .null
        case "startDate": return date((self as? PHAssetCollection)?.startDate ?? (self as? PHCollectionList)?.startDate)
        case "endDate": return date((self as? PHAssetCollection)?.endDate ?? (self as? PHCollectionList)?.endDate)
        case "estimatedAssetCount":
            guard let collection = self as? PHAssetCollection else { return nil }
            return collection.estimatedAssetCount == NSNotFound ? .null : .int(Int64(collection.estimatedAssetCount))
        default: return nil
        }
    }
}

extension PHObject: PredicateObjectArgument {
    var predicateLocalIdentifier: String { localIdentifier }
}

extension PHFetchResult: PredicateArrayArgument {
    var predicateArrayElements: [Any] { objects(at: IndexSet(integersIn: 0..<count)) }
}
