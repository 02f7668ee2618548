import Foundation
@testable import Photos
import Testing

/// A stand-in for `PHAsset` in sort descriptor tests.
private final class SortTestAsset: NSObject, PredicateEvaluable {
    var creationDate: Date?
    var pixelWidth: Int
    var title: String

    init(creationDate: Date?, pixelWidth: Int, title: String) {
        self.creationDate = creationDate
        self.pixelWidth = pixelWidth
        self.title = title
    }

    func predicateValue(forKey key: String) -> PredicateValue? {
        switch key {
        case "creationDate": creationDate.map(PredicateValue.date) ?? .null
        case "pixelWidth": .int(Int64(pixelWidth))
        case "title": .string(title)
        default: nil
        }
    }
}

@Suite("NSSortDescriptor keys")
struct SortDescriptorTests {
    /// Computed: `AnyKeyPath` isn't `Sendable`, so a stored static table wouldn't be either.
    private static var keyPathNames: [AnyKeyPath: String] {
        [\SortTestAsset.creationDate: "creationDate", \SortTestAsset.pixelWidth: "pixelWidth"]
    }

    @Test("init(key:ascending:) carries the key", arguments: [true, false])
    func keyBased(ascending: Bool) {
        let descriptor = NSSortDescriptor(key: "creationDate", ascending: ascending)
        #expect(descriptor.ascending == ascending)
        #expect(descriptor.photosSortKey(keyPathNames: [:]) == SortKey(key: "creationDate", ascending: ascending))
        #expect(NSSortDescriptor(key: "a.b", ascending: ascending).photosSortKey(keyPathNames: [:])?.key == "a.b")
        #expect(NSSortDescriptor(key: nil, ascending: ascending).photosSortKey(keyPathNames: [:])?.key == "SELF")
        let reversed = descriptor.reversedSortDescriptor as? NSSortDescriptor
        #expect(reversed?.photosSortKey(keyPathNames: [:]) == SortKey(key: "creationDate", ascending: !ascending))
    }

    @Test("Key paths, optional or not, are named through the table")
    func keyPaths() {
        let optional = NSSortDescriptor(keyPath: \SortTestAsset.creationDate, ascending: false)
        #expect(optional.photosSortKey(keyPathNames: Self.keyPathNames) == SortKey(key: "creationDate", ascending: false))
        let plain = NSSortDescriptor(keyPath: \SortTestAsset.pixelWidth, ascending: true)
        #expect(plain.photosSortKey(keyPathNames: Self.keyPathNames) == SortKey(key: "pixelWidth", ascending: true))
        let unnamed = NSSortDescriptor(keyPath: \SortTestAsset.title, ascending: true)
        #expect(unnamed.photosSortKey(keyPathNames: Self.keyPathNames) == nil)
        #expect(optional.photosSortKey(keyPathNames: [:]) == nil)
    }

    @Test("Optional key paths order nil first ascending, last descending")
    func optionalKeyPathOrder() {
        let early = SortTestAsset(creationDate: Date(timeIntervalSince1970: 1), pixelWidth: 10, title: "b")
        let late = SortTestAsset(creationDate: Date(timeIntervalSince1970: 2), pixelWidth: 20, title: "a")
        let undated = SortTestAsset(creationDate: nil, pixelWidth: 30, title: "c")
        let ascending = NSSortDescriptor(keyPath: \SortTestAsset.creationDate, ascending: true)
        #expect(ascending.compare(early, to: late) == .orderedAscending)
        #expect(ascending.compare(late, to: early) == .orderedDescending)
        #expect(ascending.compare(undated, to: early) == .orderedAscending)
        #expect(ascending.compare(early, to: undated) == .orderedDescending)
        #expect(ascending.compare(undated, to: undated) == .orderedSame)
        let descending = NSSortDescriptor(keyPath: \SortTestAsset.creationDate, ascending: false)
        #expect(descending.compare(undated, to: early) == .orderedDescending)
        #expect(descending.compare(late, to: early) == .orderedAscending)
    }

    @Test("Key-based descriptors compare evaluable objects in fetch order")
    func keyBasedCompare() {
        let early = SortTestAsset(creationDate: Date(timeIntervalSince1970: 1), pixelWidth: 10, title: "b")
        let late = SortTestAsset(creationDate: Date(timeIntervalSince1970: 2), pixelWidth: 20, title: "B")
        let undated = SortTestAsset(creationDate: nil, pixelWidth: 30, title: "É")
        let byDate = NSSortDescriptor(key: "creationDate", ascending: true)
        #expect(byDate.compare(early, to: late) == .orderedAscending)
        #expect(byDate.compare(undated, to: early) == .orderedAscending)
        #expect(NSSortDescriptor(key: "creationDate", ascending: false).compare(early, to: late) == .orderedDescending)
        let byTitle = NSSortDescriptor(key: "title", ascending: true)
        #expect(byTitle.compare(late, to: early) == .orderedAscending)  // "B" < "b" in byte order
        #expect(byTitle.compare(early, to: undated) == .orderedAscending)  // "b" < "É"
        let byMissing = NSSortDescriptor(key: "missing", ascending: true)
        #expect(byMissing.compare(early, to: late) == .orderedSame)
        #expect(byDate.compare(NSObject(), to: early) == .orderedAscending)
        let sorted = NSArray(array: [undated, late, early]).sortedArray(using: [NSSortDescriptor(key: "pixelWidth", ascending: false)])
        #expect(sorted.compactMap { ($0 as? SortTestAsset)?.pixelWidth } == [30, 20, 10])
    }
}

@Suite("Sort order of key-based descriptors")
struct SortKeyValueOrderTests {
    @Test("nil, then numbers and dates, then strings and identifiers, then arrays")
    func classes() {
        let ordered: [PredicateValue] = [
            .null, .bool(false), .int(1), .double(1.5), .date(Date(timeIntervalSince1970: 2)), .int(3),
            .string("B"), .object(localIdentifier: "a"), .string("é"), .array([]),
        ]
        for (i, a) in ordered.enumerated() {
            for (j, b) in ordered.enumerated() {
                let expected: ComparisonResult = i < j ? .orderedAscending : i > j ? .orderedDescending : .orderedSame
                #expect(SortKeyValue.order(a, b) == expected, "\(a) vs \(b)")
            }
        }
        #expect(SortKeyValue(key: "k", value: nil) == SortKeyValue(key: "k", value: .null))
        #expect(SortKeyValue(key: "k", value: nil) < SortKeyValue(key: "k", value: .int(.min)))
        #expect(SortKeyValue.order(.int(.max), .int(.max - 1)) == .orderedDescending)
        #expect(SortKeyValue.order(.double(.nan), .int(1)) == .orderedSame)
    }
}
