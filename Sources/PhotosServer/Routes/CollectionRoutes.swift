import Foundation
import Hummingbird
import Photos

/// `GET /api/collections?type=album|smartAlbum|moment|folder&parent=&predicate=&sort=&offset=&limit=` and
/// `GET /api/collections/{id}`. Limited tokens see no collections (only their assets).
struct CollectionRoutes {
    let service: LibraryService

    enum Kind: String, CaseIterable { case album, smartAlbum, moment, folder }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        // Each reads the store: off the event loops.
        group.get("collections") { request, context in try await service.quickly("collections") { try list(request, context) } }
        group.get("collections/{id}") { request, context in try await service.quickly("collection") { try one(request, context) } }
        group.get("collections/{id}/members") { request, context in
            try await service.quickly("members") { try members(request, context) }
        }
    }

    private func list(_ request: Request, _ context: PhotosRequestContext) throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        try client.requireRead()
        let query = QueryParameters(request)
        let kind = try query.choice("type", default: Kind.album)
        let parent = try query.string("parent").map(ObjectID.folder)
        let offset = try query.int("offset", in: 0...Int(Int32.max), default: 0)!
        let limit = try query.int("limit", in: 1...AssetRoutes.pageLimit, default: 200)!
        guard client.allowList == nil else { return JSONResponse.make(CollectionPage(count: 0, offset: offset, collections: [])) }
        let predicate = query.string("predicate")
        let sort = query.string("sort")
        return try service.withLibrary {
            let fetch = try self.fetch(kind, parent: parent, predicate: predicate, sort: sort)
            let end = min(fetch.count, offset + limit)
            let page = offset < end ? fetch.objects(offset..<end).map(CollectionJSON.init) : []
            return JSONResponse.make(CollectionPage(count: fetch.count, offset: offset, collections: page))
        }
    }

    /// A collection fetch read a page at a time (the library may hold thousands of moments).
    private struct Fetch {
        let count: Int
        let objects: (Range<Int>) -> [PHCollection]

        init<T: PHCollection>(_ result: PHFetchResult<T>) throws {
            try result.requireFetched()
            count = result.count
            objects = { range in result.objects(at: IndexSet(integersIn: range)) }
        }
    }

    /// The fetch for a kind, with the library's predicate and sort grammar over the fetched
    /// class's keys (`title CONTAINS[c] 'trip'`, `-startDate`).
    private func fetch(_ kind: Kind, parent: String?, predicate: String?, sort: String?) throws -> Fetch {
        func options(for type: PHObject.Type, defaultSort: String? = nil) throws -> PHFetchOptions? {
            guard predicate != nil || sort != nil || defaultSort != nil else { return nil }
            return try AssetFetch.fetchOptions(predicate: predicate, sort: sort ?? defaultSort, for: type)
        }
        if let parent {
            guard let folder = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [parent], options: nil).firstObject else {
                throw APIError.notFound("folder '\(parent)'")
            }
            return try Fetch(PHCollection.fetchCollections(in: folder, options: try options(for: PHCollection.self)))
        }
        switch kind {
        case .album:
            return try Fetch(PHCollection.fetchTopLevelUserCollections(with: try options(for: PHCollection.self)))
        case .smartAlbum:
            return try Fetch(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: try options(for: PHAssetCollection.self)))
        case .moment:
            let options = try options(for: PHAssetCollection.self, defaultSort: "-startDate")
            return try Fetch(PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: options))
        case .folder:
            return try Fetch(PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: try options(for: PHCollectionList.self)))
        }
    }

    /// `GET /api/collections/{id}/members`: who a shared album is shared with (empty for
    /// another album), for whoever sees it.
    private func members(_ request: Request, _ context: PhotosRequestContext) throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        try client.requireRead()
        let text = try context.parameters.require("id")
        let identifier = try ObjectID.collection(text)
        guard client.allowList == nil else { throw APIError.notFound("collection '\(text)'") }
        let album = try service.withLibrary {
            try PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObjectOrFailure()
        }
        guard let album else { throw APIError.notFound("collection '\(text)'") }
        let members = try service.withLibrary {
            do { return try service.library.sharedAlbumMembers(of: album) } catch { throw APIError(error) }
        }
        return JSONResponse.make(MemberList(members: members.map(MemberList.Member.init)))
    }

    struct MemberList: Encodable {
        struct Member: Encodable {
            let person: PersonJSON
            let role: String
            let additionDate: Date

            init(_ member: PHSharedAlbumMember) {
                person = PersonJSON(member.person)
                role = member.role.rawValue
                additionDate = member.additionDate
            }
        }

        let members: [Member]
    }

    private func one(_ request: Request, _ context: PhotosRequestContext) throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        try client.requireRead()
        let text = try context.parameters.require("id")
        let isFolder = text.hasSuffix("/L0/020")
        let identifier = isFolder ? try ObjectID.folder(text) : try ObjectID.collection(text)
        guard client.allowList == nil else { throw APIError.notFound("collection '\(text)'") }
        return try service.withLibrary {
            let folder = isFolder ? identifier : try ObjectID.folder(text)
            let album = isFolder ? nil : try PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObjectOrFailure()
            let found: PHCollection? =
                try album ?? PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder], options: nil).firstObjectOrFailure()
            guard let found else { throw APIError.notFound("collection '\(text)'") }
            return JSONResponse.make(CollectionJSON(found))
        }
    }
}
