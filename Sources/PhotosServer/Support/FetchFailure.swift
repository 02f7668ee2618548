import Photos

extension PHFetchResult {
    /// The first object, `nil` when there is none; the fetch's failure when it failed (a
    /// database that is away answers 503, not a 404 for an object that may well exist).
    func firstObjectOrFailure() throws -> ObjectType? {
        if let failure = fetchError { throw APIError(failure) }
        return firstObject
    }

    /// Throws the fetch's failure, if it failed (see ``firstObjectOrFailure()``).
    func requireFetched() throws {
        if let failure = fetchError { throw APIError(failure) }
    }
}
