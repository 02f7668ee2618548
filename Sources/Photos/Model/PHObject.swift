public import Foundation

/// The abstract base of PhotoKit's model objects: assets, collections and placeholders.
///
/// Objects are immutable snapshots, safe to share between threads. After a change, read the
/// object again (a new fetch, or the change details' `objectAfterChanges`); the instance you
/// hold keeps its old values. Equality and hashing go by ``localIdentifier`` alone, so
/// `fetchResult.contains(asset)` works with an instance from another fetch.
public class PHObject: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property of PHObject and its subclasses is a `let`
    // of a Sendable type; nothing mutates after init.

    /// A persistent identifier for the object on this library: `UUID/L0/001` for assets,
    /// `UUID/L0/040` for asset collections and `UUID/L0/020` for collection lists.
    ///
    /// Like Apple's, it is local to the library; it survives restarts and renames.
    public let localIdentifier: String

    /// The library the object was read from (`nil` for placeholders and transient objects).
    let library: PHPhotoLibrary?

    init(localIdentifier: String, library: PHPhotoLibrary?) {
        self.localIdentifier = localIdentifier
        self.library = library
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHObject else { return false }
        return other.localIdentifier == localIdentifier
    }

    public override var hash: Int { localIdentifier.hashValue }

    /// Objects are immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override var description: String {
        "<\(type(of: self)): \(localIdentifier)>"
    }
}

/// A stand-in for an object created in a change block.
///
/// Its ``PHObject/localIdentifier`` is usable right away: add the placeholder to an album in
/// the same block, or fetch the real object by identifier after the block commits.
public final class PHObjectPlaceholder: PHObject, @unchecked Sendable {
    init(localIdentifier: String) {
        super.init(localIdentifier: localIdentifier, library: nil)
    }
}
