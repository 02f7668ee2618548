public import Foundation

/// What PhotoKit's change requests accept where Apple's signatures say `NSFastEnumeration`.
///
/// Foundation on Linux has no `NSFastEnumeration`; this protocol stands in for it so the
/// same calls compile: `[asset] as NSArray`, a Swift array or set of assets, collections or
/// placeholders, or a `PHFetchResult`.
public protocol NSFastEnumeration {
    /// The objects to enumerate.
    var photosFastEnumerationObjects: [Any] { get }
}

extension NSArray: NSFastEnumeration {
    public var photosFastEnumerationObjects: [Any] { Array(self) }
}

extension NSSet: NSFastEnumeration {
    public var photosFastEnumerationObjects: [Any] { Array(self) }
}

extension NSOrderedSet: NSFastEnumeration {
    public var photosFastEnumerationObjects: [Any] { Array(self) }
}

extension Array: NSFastEnumeration {
    public var photosFastEnumerationObjects: [Any] { map { $0 as Any } }
}

extension ContiguousArray: NSFastEnumeration {
    public var photosFastEnumerationObjects: [Any] { map { $0 as Any } }
}

extension Set: NSFastEnumeration {
    public var photosFastEnumerationObjects: [Any] { map { $0 as Any } }
}

extension NSFastEnumeration {
    /// The PhotoKit objects in the enumeration, each checked to be of the kind a request takes.
    func photoObjects(_ api: String) -> [PHObject] {
        photosFastEnumerationObjects.map { element in
            guard let object = element as? PHObject else {
                fatalError("\(api): \(type(of: element)) is not a PHObject")
            }
            return object
        }
    }
}
