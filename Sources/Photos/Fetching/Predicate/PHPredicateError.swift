import Foundation

/// Why a predicate or sort descriptor can't be used for a fetch.
///
/// Linux addition.
///
/// Apple's PhotoKit raises `NSInvalidArgumentException` in two places: `NSPredicate(format:)`
/// with a malformed format, and a fetch whose options use a key or operator the fetched class
/// doesn't support (`Unsupported predicate in fetch options: ...`). Swift on Linux can't catch
/// Objective-C exceptions, so this module does the same in two ways:
///
/// - The Apple spellings (`NSPredicate(format:)`, `PHAsset.fetchAssets(with:)`, ...) stop the
///   process with this error's ``description``, as Apple's exception would.
/// - The throwing variants, `try NSPredicate(validatingFormat:)` and
///   `try PHFetchOptions.validate(for:)`, throw it instead, for input that comes from users.
public struct PHPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public var message: String
    /// The offending token, or key, as written.
    public var token: String
    /// Character offset of ``token`` in ``format``.
    public var position: Int
    /// The predicate format string, or the sort key, that was being read.
    public var format: String

    public init(message: String, token: String, position: Int, format: String) {
        self.message = message
        self.token = token
        self.position = position
        self.format = format
    }

    public var description: String {
        "\(message): '\(token)' at position \(position) in \"\(format)\""
    }
}

/// Objects a predicate can be evaluated against in memory (``PHAsset``, ``PHCollection``).
protocol PredicateEvaluable {
    /// The value a predicate sees for `key`: dates as `.date`, Booleans as `.bool`, numbers and
    /// option sets as `.int` or `.double`, strings as `.string`, a missing value as `.null`, and
    /// `SELF` as `.object(localIdentifier:)`. `nil` when the object has no such key.
    func predicateValue(forKey key: String) -> PredicateValue?
}
