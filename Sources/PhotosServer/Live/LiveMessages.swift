import Foundation

/// What a live client sends over `/api/live`.
struct LiveRequest: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable {
        case subscribe, unsubscribe, preheat
    }

    let type: Kind
    let subscription: String
    // subscribe: an asset fetch, or with `collections` (album, smartAlbum, moment, folder) a
    // watch of that collection list, which says `collectionsChanged` when it changes.
    var collections: String?
    var predicate: String?
    var sort: String?
    var collection: String?
    /// The photos a partner shares with the client's person (name or `pe_` identifier).
    var partner: String?
    /// A search (`GET /api/search`'s `q`): the subscription is what it finds.
    var search: String?
    var hidden: Bool?
    var deleted: Bool?
    // preheat: the index range [start, end) and the thumbnail size in pixels.
    var start: Int?
    var end: Int?
    var width: Int?
    var height: Int?
}

/// What the server sends: `subscribed`, `changes` (Apple's change details of the
/// subscription's fetch), `reset` (no incremental details), `collectionsChanged` (a watched
/// collection list changed: read it again), `error`.
struct LiveMessage: Encodable, Sendable {
    struct Item: Encodable, Sendable {
        let index: Int
        let asset: AssetJSON
    }

    let type: String
    let subscription: String?
    var count: Int?
    var removed: [Int]?
    var inserted: [Item]?
    var changed: [Item]?
    var moves: [[Int]]?
    var reason: String?

    static func subscribed(_ name: String, count: Int) -> LiveMessage {
        LiveMessage(type: "subscribed", subscription: name, count: count)
    }

    static func collectionsChanged(_ name: String, count: Int) -> LiveMessage {
        LiveMessage(type: "collectionsChanged", subscription: name, count: count)
    }

    static func reset(_ name: String, count: Int) -> LiveMessage {
        LiveMessage(type: "reset", subscription: name, count: count)
    }

    static func error(_ name: String?, _ reason: String) -> LiveMessage {
        LiveMessage(type: "error", subscription: name, reason: reason)
    }
}
