import Foundation
import Hummingbird
import Photos

/// `GET /api/collections?type=album|smartAlbum|moment|folder&parent=&offset=&limit=` and
/// `GET /api/collections/{id}`. Limited tokens see no collections (only their assets).
struct CollectionRoutes {
    let service: LibraryService

    enum Kind: String, CaseIterable { case album, smartAlbum, moment, folder }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("collections") { request, context in try list(request, context) }
        group.get("collections/{id}") { request, context in try one(request, context) }
    }

    private func list(_ request: Request, _ context: PhotosRequestContext) throws -> Response {
        let client = try context.requireClient()
        try client.requireRead()
        let query = QueryParameters(request)
        let kind = try query.choice("type", default: Kind.album)
        let parent = try query.string("parent").map(ObjectID.folder)
        let offset = try query.int("offset", in: 0...Int(Int32.max), default: 0)!
        let limit = try query.int("limit", in: 1...AssetRoutes.pageLimit, default: 200)!
        guard client.allowList == nil else { return JSONResponse.make(CollectionPage(count: 0, offset: offset, collections: [])) }
        return try service.withLibrary {
            let collections = try fetch(kind, parent: parent)
            let end = min(collections.count, offset + limit)
            let page = offset < end ? (offset..<end).map { CollectionJSON(collections[$0]) } : []
            return JSONResponse.make(CollectionPage(count: collections.count, offset: offset, collections: page))
        }
    }

    private func fetch(_ kind: Kind, parent: String?) throws -> [PHCollection] {
        if let parent {
            guard let folder = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [parent], options: nil).firstObject else {
                throw APIError.notFound("folder '\(parent)'")
            }
            return Array(PHCollection.fetchCollections(in: folder, options: nil))
        }
        switch kind {
        case .album:
            return Array(PHCollection.fetchTopLevelUserCollections(with: nil))
        case .smartAlbum:
            return Array(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil))
        case .moment:
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(key: "startDate", ascending: false)]
            return Array(PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: options))
        case .folder:
            return Array(PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil))
        }
    }

    private func one(_ request: Request, _ context: PhotosRequestContext) throws -> Response {
        let client = try context.requireClient()
        try client.requireRead()
        let text = try context.parameters.require("id")
        let isFolder = text.hasSuffix("/L0/020")
        let identifier = isFolder ? try ObjectID.folder(text) : try ObjectID.collection(text)
        guard client.allowList == nil else { throw APIError.notFound("collection '\(text)'") }
        return try service.withLibrary {
            let folder = isFolder ? identifier : try ObjectID.folder(text)
            let found: PHCollection? =
                (isFolder ? nil : PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObject)
                ?? PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder], options: nil).firstObject
            guard let found else { throw APIError.notFound("collection '\(text)'") }
            return JSONResponse.make(CollectionJSON(found))
        }
    }
}
