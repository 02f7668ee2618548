// TEMPORARY: replaced by the predicate parser delivery.
public import Foundation

extension NSPredicate {
    func photosPredicateNode() throws(PHPredicateError) -> PredicateNode { .constant(true) }
}

struct SortKey: Sendable, Hashable {
    var key: String
    var ascending: Bool
}

extension NSSortDescriptor {
    public convenience init(key: String?, ascending: Bool) {
        self.init(keyPath: \SortKeyCarrier.[sortKey: key ?? ""], ascending: ascending)
    }
    func photosSortKey(keyPathNames: [AnyKeyPath: String]) -> SortKey? {
        guard let path = keyPath as? KeyPath<SortKeyCarrier, String> else { return nil }
        return SortKey(key: SortKeyCarrier()[keyPath: path], ascending: ascending)
    }
}

struct SortKeyCarrier {
    subscript(sortKey key: String) -> String { key }
}

extension PredicateNode: CustomStringConvertible {
    var description: String { "predicate" }
}

func evaluate(_ node: PredicateNode, on object: some PredicateEvaluable) -> Bool { true }
