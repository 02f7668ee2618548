import Foundation
import PhotosStore

extension PHPhotoLibrary {
    /// The library's people and their sessions (``LibraryPeople``), for `photos user` and
    /// `photos serve`.
    package var people: LibraryPeople {
        LibraryPeople(store: store, hashCost: configuration.passwordHashCost, logger: logger)
    }

    /// Adds a person who signs in to `photos serve` with this name and password. The first
    /// person added owns the library (the photos, albums and tokens it held become theirs)
    /// and is an administrator whatever `isAdmin` says.
    ///
    /// Names are 1 to 64 characters, unique without regard to case; passwords 8 characters to
    /// 72 bytes (all that bcrypt reads). Fails with ``PHPhotosError/Code/invalidResource`` for a
    /// name or password that breaks these rules, ``PHPhotosError/Code/internalError`` for a
    /// name already taken.
    ///
    /// - Note: Linux addition. The password is kept only as a bcrypt hash (2^12 rounds).
    @discardableResult
    public func addPerson(named name: String, password: String, isAdmin: Bool = false) throws -> PHLibraryPerson {
        try people.add(named: name, password: password, isAdmin: isAdmin)
    }

    /// Every person of the library, in the order they were added; empty for a library without
    /// people (served as one person's, with tokens).
    ///
    /// - Note: Linux addition.
    public func libraryPeople() throws -> [PHLibraryPerson] {
        try people.all()
    }

    /// The person with this name (in any case) or identifier (`pe_...`), if there is one.
    ///
    /// - Note: Linux addition.
    public func person(named nameOrIdentifier: String) throws -> PHLibraryPerson? {
        try people.person(named: nameOrIdentifier)
    }

    /// Removes a person, ending their sessions and revoking their tokens; `false` when there
    /// was no such person. The library's owner can't be removed
    /// (``PHPhotosError/Code/changeNotSupported``).
    ///
    /// - Note: Linux addition.
    @discardableResult
    public func removePerson(named nameOrIdentifier: String) throws -> Bool {
        try people.remove(named: nameOrIdentifier)
    }

    /// Sets a person's password; every session they had ends.
    ///
    /// - Note: Linux addition.
    public func setPassword(_ password: String, forPersonNamed nameOrIdentifier: String) throws {
        try people.setPassword(password, forPersonNamed: nameOrIdentifier)
    }

    /// The person whose name and password these are, or `nil`. A name nobody has takes as
    /// long to refuse as a wrong password.
    ///
    /// - Note: Linux addition. `photos serve` also slows sign-ins after failures; this call
    ///   does not.
    public func authenticatePerson(named name: String, password: String) throws -> PHLibraryPerson? {
        try people.authenticate(name: name, password: password)
    }
}

extension PHPhotoLibrary {
    /// The library as the person with this name (in any case) or identifier (`pe_...`) sees it:
    /// their own photos, videos, albums, folders, moments and Recently Deleted, besides the
    /// smart albums every person has (holding their own assets). What a change block run on it
    /// creates is theirs; another person's objects are not found in it (a change naming one
    /// fails with ``PHPhotosError/Code/identifierNotFound``, as for an object that doesn't
    /// exist), and an import skips only their own duplicates.
    ///
    /// The returned library shares this one's database and files; observers registered on it
    /// get change details for its own fetch results.
    ///
    /// - Note: Linux addition: on Apple's platforms each person has a library of their own on
    ///   their devices. Fails with ``PHPhotosError/Code/identifierNotFound`` when there is no
    ///   such person.
    public func library(forPerson nameOrIdentifier: String) throws -> PHPhotoLibrary {
        let record: PersonRecord?
        do { record = try store.people.person(nameOrIdentifier: nameOrIdentifier) } catch { throw PHPhotosError(error) }
        guard let record, let person = try people.person(withIdentifier: record.identifier) else {
            throw PHPhotosError(.identifierNotFound, "No person named '\(nameOrIdentifier.prefix(80))' in \(url.path)")
        }
        return PHPhotoLibrary(store: store, configuration: configuration, person: (person, id: record.id))
    }

    /// Opens the library folder at `url` as the person with this name or identifier sees it
    /// (``library(forPerson:)``).
    ///
    /// - Note: Linux addition.
    public convenience init(url: URL, person nameOrIdentifier: String) throws {
        let whole = try PHPhotoLibrary(url: url)
        let scoped = try whole.library(forPerson: nameOrIdentifier)
        self.init(store: whole.store, configuration: whole.configuration, person: (scoped.person!, id: scoped.personID!))
    }
}

extension PHPhotoLibrary {
    /// The people a shared album is shared with, in the order they were added (its owner is
    /// no member: ``PHAssetCollection`` of theirs). Empty for an album that isn't shared.
    ///
    /// - Note: Linux addition.
    public func sharedAlbumMembers(of album: PHAssetCollection) throws -> [PHSharedAlbumMember] {
        guard let uuid = LocalIdentifier.collectionUUID(album.localIdentifier, isList: false) else { return [] }
        do {
            let owner = try store.people.ownerID()
            return try store.people.members(ofAlbum: uuid).map { member in
                PHSharedAlbumMember(
                    person: PHLibraryPerson(member.person, owner: owner), role: PHSharedAlbumRole(storedValue: member.role) ?? .viewer,
                    additionDate: member.added)
            }
        } catch {
            throw PHPhotosError(error)
        }
    }
}
