// libFuzzer target: the HTTP API's query parameters, as the routes read them.
//
// The input is a URL's query (after `?`), raw as Hummingbird hands it over: QueryParameters
// splits and percent-decodes it, then every typed read a route makes runs on it: the image
// request's size, mode, format, crop and quality, the pages' offset and limit, the change
// history's `since` token, collection and folder identifiers, and the asset and collection
// fetches' predicate and sort (parsed and checked against the fetched class's keys, as a
// request would, without running the fetch). The same text is also read as an identifier in a
// path (`/api/assets/{id}`).
import Foundation
import Photos
@testable import PhotosServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let query = QueryParameters(query: Substring(text))
    _ = try? ImageRoutes.Parameters(query)
    _ = try? query.int("offset", in: 0 ... Int(Int32.max), default: 0)
    _ = try? query.int("limit", in: 1 ... 10_000, default: 1000)
    _ = try? query.choice("type", default: CollectionRoutes.Kind.album)
    if let since = query.string("since") { _ = PHPersistentChangeToken(stringValue: since) }
    if let parent = query.string("parent") { _ = try? ObjectID.folder(parent) }
    if let fetch = try? AssetFetch(query: query) {
        if let collection = fetch.collection { _ = try? ObjectID.collection(collection) }
        _ = try? AssetFetch.fetchOptions(predicate: fetch.predicate, sort: fetch.sort ?? AssetFetch.defaultSort, for: PHAsset.self)
        _ = try? AssetFetch.fetchOptions(predicate: fetch.predicate, sort: fetch.sort, for: PHAssetCollection.self)
    }
    _ = try? ObjectID.asset(text)
    return 0
}
