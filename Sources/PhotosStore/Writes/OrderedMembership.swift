import Foundation

/// Applies index-based edits (`insertAssets(_:at:)`, `moveAssets(at:to:)`, ...) to an ordered
/// list of members when the caller's indexes refer to a *view* of that list.
///
/// A caller sees the members its fetch shows (hidden assets and those in Recently Deleted
/// are left out), yet the album keeps them all. Members outside the view stay attached to the
/// view member they follow, so they keep their place when the caller reorders what it sees.
/// Index semantics follow `NSMutableArray`: `insert` puts each new member at its index after
/// the earlier insertions (indexes ascending); `move` removes the members at the indexes and
/// then inserts them, in order, at the destination index of the shortened list.
enum OrderedMembership {
    static func apply(
        full: [String], view requestedView: [String], operations: [MembershipEdit.Operation],
        containerName: String
    ) throws(StoreError) -> [String] {
        let memberSet = Set(full)
        var view = requestedView.filter { memberSet.contains($0) }
        let viewSet = Set(view)

        // Members outside the view, attached to the view member before them (nil: the head).
        var head: [String] = []
        var followers: [String: [String]] = [:]
        var anchor: String?
        for member in full {
            if viewSet.contains(member) {
                anchor = member
            } else if let anchor {
                followers[anchor, default: []].append(member)
            } else {
                head.append(member)
            }
        }
        var hidden = memberSet.subtracting(viewSet)

        func fail(_ message: String) -> StoreError {
            StoreError(.notAllowed, "\(message) in \(containerName)")
        }
        func checkIndexes(_ indexes: [Int], count: Int, inclusive: Bool, _ what: String) throws(StoreError) {
            for index in indexes where index < 0 || index > count || (!inclusive && index == count) {
                throw fail("\(what): index \(index) is out of bounds for \(count) members")
            }
        }

        for operation in operations {
            switch operation {
            case .add(let items):
                for item in items where !view.contains(item) && !hidden.contains(item) {
                    view.append(item)
                }
            case .insert(let items, let indexes):
                guard items.count == indexes.count else {
                    throw fail("insert: \(items.count) objects for \(indexes.count) indexes")
                }
                for (item, index) in zip(items, indexes.sorted()) {
                    guard !view.contains(item) && !hidden.contains(item) else { continue }
                    try checkIndexes([index], count: view.count, inclusive: true, "insert")
                    view.insert(item, at: index)
                }
            case .remove(let items):
                let removed = Set(items)
                view.removeAll { removed.contains($0) }
                hidden.subtract(removed)
            case .removeAt(let indexes):
                try checkIndexes(indexes, count: view.count, inclusive: false, "remove")
                for index in Set(indexes).sorted(by: >) { view.remove(at: index) }
            case .replace(let indexes, let items):
                guard items.count == indexes.count else {
                    throw fail("replace: \(items.count) objects for \(indexes.count) indexes")
                }
                try checkIndexes(indexes, count: view.count, inclusive: false, "replace")
                for (index, item) in zip(indexes.sorted(), items) { view[index] = item }
            case .move(let indexes, let destination):
                try checkIndexes(indexes, count: view.count, inclusive: false, "move")
                let sorted = Set(indexes).sorted()
                let moving = sorted.map { view[$0] }
                for index in sorted.reversed() { view.remove(at: index) }
                try checkIndexes([destination], count: view.count, inclusive: true, "move")
                view.insert(contentsOf: moving, at: destination)
            }
        }

        // Re-home followers of view members that are gone.
        let survivors = Set(view)
        var lastSurvivor: String?
        for member in requestedView where viewSet.contains(member) {
            if survivors.contains(member) {
                lastSurvivor = member
            } else if let orphans = followers.removeValue(forKey: member) {
                if let lastSurvivor {
                    followers[lastSurvivor, default: []].append(contentsOf: orphans)
                } else {
                    head.append(contentsOf: orphans)
                }
            }
        }

        var result: [String] = []
        var seen = Set<String>()
        func emit(_ member: String) {
            if seen.insert(member).inserted { result.append(member) }
        }
        for member in head where hidden.contains(member) { emit(member) }
        for member in view {
            emit(member)
            for follower in followers[member] ?? [] where hidden.contains(follower) { emit(follower) }
        }
        return result
    }
}
