import Foundation
import Photos

/// One change of `POST /api/changes`, as JSON: `{"op": "favorite", "assets": [...], "value": true}`.
struct ChangeOperation: Decodable, Sendable {
    enum Kind: String, Decodable, CaseIterable, Sendable {
        case favorite, hide, delete, recover
        case createAlbum, renameAlbum, deleteAlbum, addToAlbum, removeFromAlbum, reorderAlbum
        case edit, revert
        /// Shared albums, between the people of a library.
        case createSharedAlbum, shareAlbum, unshareAlbum, leaveAlbum
    }

    struct Rect: Decodable, Sendable {
        let x: Double
        let y: Double
        let width: Double
        let height: Double
    }

    let op: Kind
    var assets: [String]?
    var asset: String?
    var value: Bool?
    var title: String?
    /// A name for an album this request creates, usable as `album` by later operations.
    var ref: String?
    var album: String?
    /// `reorderAlbum`: the album indexes to move, and where to.
    var from: [Int]?
    var to: Int?
    // `edit`: PHBasicAdjustments. `rotate` adds to an earlier turn; the rest replace.
    var rotate: Int?
    var crop: Rect?
    var exposure: Double?
    var saturation: Double?
    var filter: String?
    /// `shareAlbum`, `unshareAlbum`: whom (a person's name or `pe_` identifier).
    var person: String?
    /// `shareAlbum`: `viewer` or `contributor`.
    var role: String?

    /// Operations that change albums, which only read-write tokens may do.
    var changesAlbums: Bool {
        switch op {
        case .createAlbum, .renameAlbum, .deleteAlbum, .addToAlbum, .removeFromAlbum, .reorderAlbum: true
        case .createSharedAlbum, .shareAlbum, .unshareAlbum, .leaveAlbum: true
        default: false
        }
    }

    /// Operations that only name assets, found when their change commits (``ChangePlan``): a
    /// plan of these alone reads nothing before.
    var namesAssetsOnly: Bool {
        switch op {
        case .favorite, .hide, .delete: true
        default: false
        }
    }

    func require<T>(_ value: T?, _ field: String, at index: Int) throws -> T {
        guard let value else { throw APIError(.badRequest, "operations[\(index)] (\(op.rawValue)) needs '\(field)'") }
        return value
    }

    /// The edit recipe on top of an earlier one, checked.
    func adjustments(resuming earlier: PHBasicAdjustments?, at index: Int) throws -> PHBasicAdjustments {
        var recipe = earlier ?? PHBasicAdjustments()
        func bad(_ message: String) -> APIError { APIError(.badRequest, "operations[\(index)] (edit): \(message)") }
        guard rotate != nil || crop != nil || exposure != nil || saturation != nil || filter != nil else {
            throw bad("say what to change: rotate, crop, exposure, saturation or filter")
        }
        if let rotate {
            guard rotate % 90 == 0 else { throw bad("rotate \(rotate) is not a multiple of 90") }
            recipe.quarterTurns = ((recipe.quarterTurns + rotate / 90) % 4 + 4) % 4
        }
        if let crop {
            guard crop.x >= 0, crop.y >= 0, crop.width > 0, crop.height > 0, crop.x + crop.width <= 1.000001,
                crop.y + crop.height <= 1.000001
            else { throw bad("crop must lie within 0...1") }
            recipe.crop = CGRect(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        }
        if let exposure {
            guard (-5...5).contains(exposure) else { throw bad("exposure \(exposure) is outside -5...5") }
            recipe.exposure = exposure
        }
        if let saturation {
            guard (0...4).contains(saturation) else { throw bad("saturation \(saturation) is outside 0...4") }
            recipe.saturation = saturation
        }
        if let filter {
            guard let chosen = PHBasicAdjustments.Filter(rawValue: filter) else {
                throw bad("filter '\(filter)' is not one of \(PHBasicAdjustments.Filter.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            recipe.filter = chosen
        }
        return recipe
    }
}

struct ChangeBatch: Decodable, Sendable {
    let operations: [ChangeOperation]
}

struct ChangeResult: Encodable, Sendable {
    /// Local identifiers of albums created, by the `ref` the request gave them.
    let created: [String: String]
    /// The library's persistent change token after the change.
    let changeToken: String
}
