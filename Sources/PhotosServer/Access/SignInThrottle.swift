import Foundation
import Photos

/// Slows password guessing: failed sign-ins are counted per name (whether or not anyone has
/// it, so the answers tell nothing of which names exist) and per client address, in the
/// library, so every instance of a clustered server counts the same failures.
///
/// Within ``window`` a name gets ``freeFailuresPerName`` failures and an address
/// ``freeFailuresPerAddress`` without delay; after that each further attempt waits
/// 2^(failures − free) seconds after the last failure, at most ``longestWait``: past a dozen
/// failures a guesser gets one try a minute per name. An attempt made while waiting is
/// answered 429 with `Retry-After` before any password is checked. A success clears its name's
/// count (not its address's).
struct SignInThrottle: Sendable {
    static let window: TimeInterval = 15 * 60
    static let freeFailuresPerName = 5
    static let freeFailuresPerAddress = 20
    static let longestWait: TimeInterval = 60

    let people: LibraryPeople

    /// The keys an attempt is counted under.
    static func keys(name: String, address: String?) -> [String] {
        ["name:" + name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()] + (address.map { ["address:" + $0] } ?? [])
    }

    /// The seconds the attempt must still wait (0: go on).
    func wait(keys: [String], now: Date = Date()) throws -> TimeInterval {
        let counts = try people.failures(keys: keys, within: Self.window)
        var longest: TimeInterval = 0
        for (key, failures) in counts {
            let free = key.hasPrefix("address:") ? Self.freeFailuresPerAddress : Self.freeFailuresPerName
            guard failures.count >= free else { continue }
            let delay = min(pow(2, Double(failures.count - free)), Self.longestWait)
            longest = max(longest, failures.last.addingTimeInterval(delay).timeIntervalSince(now))
        }
        return longest
    }

    /// Throws 429 with `Retry-After` while an attempt under `keys` must wait, before any
    /// password is checked; `what` names the attempts ("failed sign-ins"). Read off the event
    /// loops, on `service`'s reads pool.
    func refuseWhileWaiting(keys: [String], what: String, service: LibraryService) async throws {
        let wait = try await service.quickly("sign-in throttle") { try self.wait(keys: keys) }
        guard wait > 0 else { return }
        let seconds = String(Int(wait.rounded(.up)))
        var error = APIError(.tooManyRequests, "Too many \(what): try again in \(seconds) s")
        error.headers[.retryAfter] = seconds
        throw error
    }

    func failed(keys: [String]) throws {
        try people.recordFailure(keys: keys, window: Self.window)
    }

    func succeeded(keys: [String]) throws {
        if let name = keys.first { try people.clearFailures(key: name) }
    }
}
