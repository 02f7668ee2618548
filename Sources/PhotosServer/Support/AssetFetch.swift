import Foundation
import Photos

/// A fetch of assets as clients describe it (query parameters, or a live subscription): the
/// library's own predicate and sort grammar, a collection, hidden and deleted switches.
struct AssetFetch: Sendable, Hashable, Codable {
    /// An `NSPredicate` format over `PHAsset` keys (`isFavorite == YES AND pixelWidth > 4000`).
    var predicate: String?
    /// Comma-separated keys, `-` for descending (`-creationDate,pixelWidth`); by default newest
    /// first, or a collection's own order.
    var sort: String?
    /// An album, smart album or moment (UUID or local identifier).
    var collection: String?
    var includeHidden = false
    /// Recently Deleted instead of the library.
    var deleted = false
    /// The photos a partner (name or `pe_` identifier) shares with the client's person.
    var partner: String?
    /// A search of the library (``PHAsset/fetchAssets(matching:options:)``), best match first
    /// unless `sort` says otherwise.
    var search: String?

    static let defaultSort = "-creationDate"

    init(
        predicate: String? = nil, sort: String? = nil, collection: String? = nil, includeHidden: Bool = false, deleted: Bool = false,
        partner: String? = nil, search: String? = nil
    ) {
        self.partner = partner
        self.search = search
        self.predicate = predicate
        self.sort = sort
        self.collection = collection
        self.includeHidden = includeHidden
        self.deleted = deleted
    }

    init(query: QueryParameters) throws {
        self.init(
            predicate: query.string("predicate"), sort: query.string("sort"), collection: query.string("collection"),
            includeHidden: try query.bool("hidden"), deleted: try query.bool("deleted"), partner: query.string("partner"),
            search: query.string("search"))
    }

    /// Runs the fetch for a client: a limited client's fetch is narrowed to its allow-list.
    /// Must run inside `library.withCurrent`.
    func run(for client: ClientAccess) throws -> PHFetchResult<PHAsset> {
        let result = try fetch(for: client)
        // A fetch the library failed to run answers 500 with the reason, never an empty page.
        try result.requireFetched()
        return result
    }

    private func fetch(for client: ClientAccess) throws -> PHFetchResult<PHAsset> {
        try client.requireRead()
        let options = try makeOptions(allowList: client.allowList)
        if let link = client.link {
            // A link shows its photos (those of a shared album included), nothing else.
            guard !deleted, collection == nil, partner == nil, search == nil else {
                throw APIError(.forbidden, "A shared link shows its own photos only")
            }
            return PHAsset.fetchAssets(withLocalIdentifiers: Array(link.assetIdentifiers), options: options)
        }
        if let search {
            guard !deleted, collection == nil, partner == nil else {
                throw APIError(.badRequest, "A search looks through the library: it takes no collection, partner or deleted")
            }
            do {
                return try PHAsset.fetchAssets(matching: search, options: options)
            } catch {
                throw APIError.badParameter("search", error.localizedDescription)
            }
        }
        if deleted { return PHAsset.fetchRecentlyDeletedAssets(with: options) }
        if let partner {
            guard client.person != nil else { throw APIError(.forbidden, "Partners share with people, not with tokens of a library without people") }
            return PHAsset.fetchAssets(sharedByPartner: partner, options: options)
        }
        guard let collection else { return PHAsset.fetchAssets(with: options) }
        guard client.allowList == nil else {
            throw APIError(.forbidden, "A limited token sees no collections")
        }
        let identifier = try ObjectID.collection(collection)
        guard let found = try PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObjectOrFailure() else {
            throw APIError.notFound("collection '\(collection)'")
        }
        return PHAsset.fetchAssets(in: found, options: options)
    }

    private func makeOptions(allowList: Set<String>?) throws -> PHFetchOptions {
        // A collection keeps its own order (an album's is the user's) unless asked otherwise.
        let options = try Self.fetchOptions(
            predicate: predicate, sort: sort ?? (collection == nil && search == nil ? Self.defaultSort : nil), for: PHAsset.self,
            narrowedBy: allowList.map { NSPredicate(format: "localIdentifier IN %@", Array($0)) })
        options.includeHiddenAssets = includeHidden
        return options
    }

    /// `PHFetchOptions` from a client's predicate format and sort keys, checked against the
    /// fetched class's keys (400 naming the parameter), `narrowedBy` ANDed to the predicate.
    static func fetchOptions(
        predicate: String?, sort: String?, for type: PHObject.Type, narrowedBy narrowing: NSPredicate? = nil
    ) throws -> PHFetchOptions {
        let options = PHFetchOptions()
        var predicates: [NSPredicate] = []
        if let predicate {
            do {
                predicates.append(try NSPredicate(validatingFormat: predicate, argumentArray: nil))
            } catch {
                throw APIError.badParameter("predicate", describe(error))
            }
        }
        if let narrowing { predicates.append(narrowing) }
        options.predicate = predicates.count > 1 ? NSCompoundPredicate(andPredicateWithSubpredicates: predicates) : predicates.first
        if let sort { options.sortDescriptors = try sortDescriptors(sort) }
        do {
            try options.validate(for: type)
        } catch {
            throw APIError.badParameter(error.format == predicate ? "predicate" : "sort", describe(error))
        }
        return options
    }

    static func sortDescriptors(_ text: String) throws -> [NSSortDescriptor] {
        try text.split(separator: ",").map { key in
            let trimmed = key.trimmingCharacters(in: .whitespaces)
            let descending = trimmed.hasPrefix("-")
            let name = descending ? String(trimmed.dropFirst()) : trimmed
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." }) else {
                throw APIError.badParameter("sort", "'\(trimmed)' is not a sort key")
            }
            return NSSortDescriptor(key: name, ascending: !descending)
        }
    }

    static func describe(_ error: PHPredicateError) -> String {
        error.position >= 0 && !error.format.isEmpty
            ? "\(error.message): '\(error.token)' at position \(error.position) of '\(error.format)'"
            : "\(error.message): '\(error.token)'"
    }
}
