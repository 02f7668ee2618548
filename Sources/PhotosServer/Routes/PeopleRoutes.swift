import Foundation
import Hummingbird
import Photos

/// `/api/people`: who is in the library. Every person lists the others (names and identifiers
/// only, never a password's hash or a session), for choosing whom to share with; an
/// administrator adds people (`POST`), resets a password or grants administration (`PATCH
/// /api/people/{person}`) and removes people (`DELETE`), as `photos user` does.
///
/// An administrator manages people, not their photos: what an administrator sees is their own
/// library and what others shared with them, like everyone else.
struct PeopleRoutes {
    let service: LibraryService

    private struct PeopleList: Encodable {
        let people: [PersonJSON]
    }

    private struct NewPerson: Decodable {
        let name: String
        let password: String
        var isAdmin: Bool?
    }

    private struct PersonChange: Decodable {
        var password: String?
        var isAdmin: Bool?
    }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("people") { _, context in
            let client = try context.requireClient()
            guard client.person != nil, client.link == nil else {
                throw APIError(.forbidden, "Only the people of a library see who else is in it")
            }
            let people = try await service.quickly("people") { [library = service.library] in
                do { return try library.libraryPeople() } catch { throw APIError(error) }
            }
            return JSONResponse.make(PeopleList(people: people.map(PersonJSON.init)))
        }
        group.post("people") { request, context in
            try requireAdministrator(context)
            let body = try await JSONResponse.decode(NewPerson.self, from: request, limit: 4096)
            let library = service.library
            // bcrypt's rounds (a quarter second at cost 12) on the writes pool, off the loops.
            let person = try await service.writing("people") { () throws -> PHLibraryPerson in
                do {
                    if try library.person(named: body.name) != nil {
                        throw APIError(.conflict, "The name '\(body.name.prefix(80))' is taken")
                    }
                    return try library.addPerson(named: body.name, password: body.password, isAdmin: body.isAdmin ?? false)
                } catch let error as APIError {
                    throw error
                } catch {
                    throw APIError(error)
                }
            }
            service.accessChanged()
            return JSONResponse.make(PersonJSON(person), status: .created)
        }
        group.patch("people/{person}") { request, context in
            try requireAdministrator(context)
            let name = try context.parameters.require("person")
            let body = try await JSONResponse.decode(PersonChange.self, from: request, limit: 4096)
            guard body.password != nil || body.isAdmin != nil else {
                throw APIError(.badRequest, "Say what changes: 'password', 'isAdmin' or both")
            }
            let library = service.library
            let person = try await service.writing("people") { () throws -> PHLibraryPerson in
                do {
                    guard try library.person(named: name) != nil else { throw APIError.notFound("person '\(name.prefix(80))'") }
                    if let password = body.password { try library.setPassword(password, forPersonNamed: name) }
                    if let isAdmin = body.isAdmin { try library.people.setAdmin(isAdmin, forPersonNamed: name) }
                    guard let person = try library.person(named: name) else { throw APIError.notFound("person '\(name.prefix(80))'") }
                    return person
                } catch let error as APIError {
                    throw error
                } catch {
                    throw APIError(error)
                }
            }
            service.accessChanged()
            return JSONResponse.make(PersonJSON(person))
        }
        group.delete("people/{person}") { _, context in
            try requireAdministrator(context)
            let name = try context.parameters.require("person")
            let library = service.library
            let removed = try await service.writing("people") {
                do { return try library.removePerson(named: name) } catch { throw APIError(error) }
            }
            guard removed else { throw APIError.notFound("person '\(name.prefix(80))'") }
            service.accessChanged()
            return Response(status: .noContent)
        }
    }

    /// An administrator signed in or holding a read-write token of theirs; 403 for everyone
    /// else (other people, their tokens, a link's visitors, the tokens of a library without
    /// people).
    private func requireAdministrator(_ context: PhotosRequestContext) throws {
        let client = try context.requireClient()
        try client.requireChanges()
        guard let person = client.person, person.isAdmin else {
            throw APIError(.forbidden, "Only an administrator of the library adds, changes and removes people")
        }
        try client.requireOwner("Managing people")
    }
}
