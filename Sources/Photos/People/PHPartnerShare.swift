public import Foundation
import PhotosStore

/// One person sharing their photos with another, their partner: the whole library, or what
/// was taken from a date on. The partner sees them, read-only (``PHAsset/fetchAssets(sharedByPartner:options:)``),
/// and may show them in their own timeline (``PHPhotoLibrary/showPartnerPhotosInTimeline(_:_:)``).
///
/// - Note: Linux addition (Immich's partner sharing); Apple has iCloud Shared Photo Library,
///   a library several people own together, instead.
public struct PHPartnerShare: Sendable, Hashable {
    /// Whose photos are shared.
    public let owner: PHLibraryPerson
    /// With whom.
    public let partner: PHLibraryPerson
    /// From when (capture date) they are shared; `nil`: all of them.
    public let sinceDate: Date?
    /// Whether the partner shows them in their own timeline.
    public let isInPartnersTimeline: Bool
}

extension PHPhotoLibrary {
    /// This library's person shares their photos (those taken from `since` on, or all) with
    /// another person, who sees them read-only and may show them in their own timeline. Sharing
    /// again changes the date.
    ///
    /// - Note: Linux addition. Fails with ``PHPhotosError/Code/changeNotSupported`` in a library
    ///   opened without a person.
    public func sharePhotos(withPartner nameOrIdentifier: String, since: Date? = nil) throws {
        let (me, partner) = try partnerIDs(nameOrIdentifier)
        do { try store.people.sharePhotos(of: me, with: partner, since: since, date: Date()) } catch {
            throw PHPhotosError(error.code == .notAllowed ? .changeNotSupported : .internalError, error.message)
        }
    }

    /// Stops sharing this library's person's photos with a partner; `false` when they weren't.
    ///
    /// - Note: Linux addition.
    @discardableResult
    public func stopSharingPhotos(withPartner nameOrIdentifier: String) throws -> Bool {
        let (me, partner) = try partnerIDs(nameOrIdentifier)
        do { return try store.people.stopSharingPhotos(of: me, with: partner) } catch { throw PHPhotosError(error) }
    }

    /// Shows the photos a partner shares with this library's person in their timeline
    /// (`fetchAssets(with:)` and the smart albums) or not; `false` when that partner shares
    /// nothing with them.
    ///
    /// - Note: Linux addition.
    @discardableResult
    public func showPartnerPhotosInTimeline(_ nameOrIdentifier: String, _ show: Bool) throws -> Bool {
        let (me, partner) = try partnerIDs(nameOrIdentifier)
        do { return try store.people.showInTimeline(photosOf: partner, partner: me, show) } catch { throw PHPhotosError(error) }
    }

    /// The shares this library's person made, and those made with them.
    ///
    /// - Note: Linux addition.
    public func partnerShares() throws -> (shared: [PHPartnerShare], received: [PHPartnerShare]) {
        guard let personID else { return ([], []) }
        do {
            let owner = try store.people.ownerID()
            var people: [Int64: PHLibraryPerson] = [:]
            for record in try store.people.all() { people[record.id] = PHLibraryPerson(record, owner: owner) }
            func share(_ row: PartnerShare) -> PHPartnerShare? {
                guard let from = people[row.ownerID], let to = people[row.partnerID] else { return nil }
                return PHPartnerShare(owner: from, partner: to, sinceDate: row.sinceDate, isInPartnersTimeline: row.inTimeline)
            }
            return (try store.people.partnerShares(by: personID).compactMap(share), try store.people.partnerShares(with: personID).compactMap(share))
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// This library's person's id and the other person's.
    private func partnerIDs(_ nameOrIdentifier: String) throws -> (me: Int64, partner: Int64) {
        guard let personID else {
            throw PHPhotosError(.changeNotSupported, "Partner sharing is between people: open the library for a person")
        }
        let record: PersonRecord?
        do { record = try store.people.person(nameOrIdentifier: nameOrIdentifier) } catch { throw PHPhotosError(error) }
        guard let record else { throw PHPhotosError(.identifierNotFound, "No person named '\(nameOrIdentifier.prefix(80))'") }
        return (personID, record.id)
    }

    /// The partner shares a fetch of this library's person's assets takes into account.
    func partnerSharesForFetch() -> [PartnerShare] {
        guard let personID else { return [] }
        return logger.attempt(.warning, "read the partners who share with \(person?.name ?? "")") {
            try store.people.partnerShares(with: personID)
        } ?? []
    }
}

extension PHAsset {
    /// The photos and videos a partner shares with the current library's person (read-only;
    /// hidden ones never), by creation date; empty when they share nothing.
    ///
    /// - Note: Linux addition.
    public class func fetchAssets(sharedByPartner nameOrIdentifier: String, options: PHFetchOptions? = nil) -> PHFetchResult<PHAsset> {
        let library = PHPhotoLibrary.current
        // try?: a person who can't be read shares nothing that can be shown (an empty result).
        guard library.personID != nil, let id = try? library.store.people.person(nameOrIdentifier: nameOrIdentifier)?.id else {
            return .empty()
        }
        return library.fetchAssets(.partner(id), options: resolveOrTrap(options, for: .asset))
    }
}
