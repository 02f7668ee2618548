import Foundation
import Hummingbird
import Photos

/// `/api/partners`: a person shares their photos (all, or from a date on) with another, who
/// sees them (`GET /api/assets?partner=NAME`) and chooses whether their timeline shows them.
struct PartnerRoutes {
    let service: LibraryService

    struct ShareJSON: Encodable {
        let owner: PersonJSON
        let partner: PersonJSON
        let sinceDate: Date?
        let isInPartnersTimeline: Bool

        init(_ share: PHPartnerShare) {
            owner = PersonJSON(share.owner)
            partner = PersonJSON(share.partner)
            sinceDate = share.sinceDate
            isInPartnersTimeline = share.isInPartnersTimeline
        }
    }

    private struct Shares: Encodable {
        let shared: [ShareJSON]
        let received: [ShareJSON]
    }

    private struct NewShare: Decodable {
        let person: String
        var sinceDate: Date?
    }

    private struct Timeline: Decodable {
        let show: Bool
    }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("partners") { _, context in
            let library = try person(context)
            let shares = try await service.quickly("partners") {
                do { return try library.partnerShares() } catch { throw APIError(error) }
            }
            return JSONResponse.make(Shares(shared: shares.shared.map(ShareJSON.init), received: shares.received.map(ShareJSON.init)))
        }
        group.post("partners") { request, context in
            let library = try person(context)
            let body = try await JSONResponse.decode(NewShare.self, from: request, limit: 4096)
            try await change { try library.sharePhotos(withPartner: body.person, since: body.sinceDate) }
            return Response(status: .noContent)
        }
        group.delete("partners/{person}") { _, context in
            let library = try person(context)
            let partner = try context.parameters.require("person")
            guard try await change({ try library.stopSharingPhotos(withPartner: partner) }) else {
                throw APIError.notFound("partner '\(partner.prefix(80))'")
            }
            return Response(status: .noContent)
        }
        group.post("partners/{person}/timeline") { request, context in
            let library = try person(context)
            let partner = try context.parameters.require("person")
            let body = try await JSONResponse.decode(Timeline.self, from: request, limit: 4096)
            guard try await change({ try library.showPartnerPhotosInTimeline(partner, body.show) }) else {
                throw APIError.notFound("partner '\(partner.prefix(80))'")
            }
            return Response(status: .noContent)
        }
    }

    /// The library of the client's person; 403 for a client that is no person.
    private func person(_ context: PhotosRequestContext) throws -> PHPhotoLibrary {
        let client = try context.requireClient()
        try client.requireOwner("Partner sharing")
        guard client.person != nil else { throw APIError(.forbidden, "Partner sharing is between the people of a library") }
        return try service.serving(client).library
    }

    /// A change of partner sharing on the writes pool; the kept fetch results of everyone are
    /// dropped (a partner's timeline changes with it).
    private func change<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let value: T
        do { value = try await service.writing("partners", body) } catch { throw APIError(error) }
        service.partnersChanged()
        return value
    }
}
