import Foundation
import Hummingbird
import Photos

/// `GET /api/people`: the people of the library, for a person choosing whom to share an album
/// with (names and identifiers only; never a password's hash or a session).
struct PeopleRoutes {
    let service: LibraryService

    private struct PeopleList: Encodable {
        let people: [PersonJSON]
    }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("people") { _, context in
            let client = try context.requireClient()
            guard client.person != nil else { throw APIError(.forbidden, "Only the people of a library see who else is in it") }
            let people = try await service.quickly("people") { [library = service.library] in
                do { return try library.libraryPeople() } catch { throw APIError(error) }
            }
            return JSONResponse.make(PeopleList(people: people.map(PersonJSON.init)))
        }
    }
}
