public import Foundation

/// A place in a library's change history: hand it to
/// ``PHPhotoLibrary/fetchPersistentChanges(since:)`` to get what changed after it.
///
/// Linux notes: besides `NSSecureCoding` (archive it with `NSKeyedArchiver`), it is `Codable`
/// and `Comparable` (tokens of one library order by time). A token names its library; a
/// token of another library is refused as expired.
public final class PHPersistentChangeToken: NSObject, NSSecureCoding, NSCopying, Codable, Comparable, Sendable {
    let libraryIdentifier: String
    let position: Int64

    init(libraryIdentifier: String, position: Int64) {
        self.libraryIdentifier = libraryIdentifier
        self.position = position
        super.init()
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(libraryIdentifier as NSString, forKey: "library")
        coder.encode(position, forKey: "position")
    }

    public required init?(coder: NSCoder) {
        guard let library = coder.decodeObject(of: NSString.self, forKey: "library") else { return nil }
        libraryIdentifier = library as String
        position = coder.decodeInt64(forKey: "position")
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHPersistentChangeToken else { return false }
        return other.libraryIdentifier == libraryIdentifier && other.position == position
    }

    public override var hash: Int { libraryIdentifier.hashValue ^ position.hashValue }

    public static func == (lhs: PHPersistentChangeToken, rhs: PHPersistentChangeToken) -> Bool {
        lhs.isEqual(rhs)
    }

    /// Orders tokens of one library by time (tokens of different libraries by library).
    public static func < (lhs: PHPersistentChangeToken, rhs: PHPersistentChangeToken) -> Bool {
        (lhs.libraryIdentifier, lhs.position) < (rhs.libraryIdentifier, rhs.position)
    }

    /// The token as text, for a command line, a URL or a file: the library's identifier and
    /// the change's position, `"<library>:<position>"`.
    ///
    /// Linux addition (Apple's token is opaque and archived with `NSKeyedArchiver`). The text
    /// is stable across versions; ``init(stringValue:)`` reads it back.
    public var stringValue: String { "\(libraryIdentifier):\(position)" }

    /// Reads a token written by ``stringValue``; nil when `stringValue` isn't one.
    ///
    /// Linux addition. A well-formed token of another library is accepted here and refused
    /// by ``PHPhotoLibrary/fetchPersistentChanges(since:)`` as expired.
    public convenience init?(stringValue: String) {
        guard let colon = stringValue.lastIndex(of: ":"),
            let position = Int64(stringValue[stringValue.index(after: colon)...]), position >= 0
        else { return nil }
        let library = String(stringValue[..<colon])
        guard !library.isEmpty, !library.contains(where: \.isWhitespace) else { return nil }
        self.init(libraryIdentifier: library, position: position)
    }

    public override var description: String { "<PHPersistentChangeToken: \(position)>" }
}
