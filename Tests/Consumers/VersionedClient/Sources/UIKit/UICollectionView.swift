import Foundation

extension IndexPath {
    /// UIKit's two-level index paths.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    public var section: Int { self[0] }
    public var item: Int { self[1] }
    public var row: Int { self[1] }
}

@MainActor
public protocol UICollectionViewDataSource: AnyObject {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
}

@MainActor
open class UICollectionViewCell: UIView {
    public let reuseIdentifier: String
    public required init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
        super.init()
    }
    open func prepareForReuse() {}
}

/// One section of items. It keeps the count it last showed, checks batch updates against the
/// data source the way UIKit does, and asks the data source for the cells of a visible window
/// (``visibleItems``) whenever they change.
@MainActor
open class UICollectionView: UIView {
    public weak var dataSource: (any UICollectionViewDataSource)?
    /// The items on screen (a scroll moves it).
    public var visibleItems: Range<Int> = 0..<0 {
        didSet { showVisibleCells() }
    }
    public private(set) var numberOfItemsShown = 0
    public private(set) var visibleCells: [Int: UICollectionViewCell] = [:]
    private var cellClasses: [String: UICollectionViewCell.Type] = [:]
    private var reusable: [String: [UICollectionViewCell]] = [:]
    private var batch: Batch?

    private struct Batch {
        var deleted = IndexSet()
        var inserted = IndexSet()
        var moves: [(from: Int, to: Int)] = []
        var reloaded = IndexSet()
    }

    public override init() { super.init() }

    public func register(_ cellClass: UICollectionViewCell.Type, forCellWithReuseIdentifier identifier: String) {
        cellClasses[identifier] = cellClass
    }

    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell {
        if let cell = reusable[identifier]?.popLast() {
            cell.prepareForReuse()
            return cell
        }
        guard let cellClass = cellClasses[identifier] else {
            raiseInconsistency("could not dequeue a view with identifier \(identifier)")
        }
        return cellClass.init(reuseIdentifier: identifier)
    }

    public func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? {
        visibleCells[indexPath.item]
    }

    public var indexPathsForVisibleItems: [IndexPath] {
        visibleCells.keys.sorted().map { IndexPath(item: $0, section: 0) }
    }

    public func reloadData() {
        numberOfItemsShown = currentCount()
        recycleAll()
        showVisibleCells()
    }

    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        batch = Batch()
        updates?()
        let done = batch!
        batch = nil
        apply(done)
        completion?(true)
    }

    public func deleteItems(at indexPaths: [IndexPath]) {
        record { $0.deleted.formUnion(IndexSet(indexPaths.map(\.item))) }
    }

    public func insertItems(at indexPaths: [IndexPath]) {
        record { $0.inserted.formUnion(IndexSet(indexPaths.map(\.item))) }
    }

    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.moves.append((indexPath.item, newIndexPath.item)) }
    }

    public func reloadItems(at indexPaths: [IndexPath]) {
        record { $0.reloaded.formUnion(IndexSet(indexPaths.map(\.item))) }
    }

    // MARK: -

    private func record(_ change: (inout Batch) -> Void) {
        if batch != nil {
            change(&batch!)
        } else {
            var single = Batch()
            change(&single)
            apply(single)
        }
    }

    /// UIKit's rule: items before, minus deleted and moved away, plus inserted and moved in,
    /// must equal what the data source now says; every index must be in range.
    private func apply(_ batch: Batch) {
        let before = numberOfItemsShown
        let after = currentCount()
        let movedFrom = IndexSet(batch.moves.map(\.from)), movedTo = IndexSet(batch.moves.map(\.to))
        if let bad = (batch.deleted.union(movedFrom).union(batch.reloaded)).first(where: { $0 >= before }) {
            raiseInconsistency("attempt to delete, move or reload item \(bad) but there are only \(before) items before the update")
        }
        if let bad = batch.inserted.union(movedTo).first(where: { $0 >= after }) {
            raiseInconsistency("attempt to insert or move item to \(bad) but there are only \(after) items after the update")
        }
        let expected = before - batch.deleted.count + batch.inserted.count
        guard expected == after else {
            raiseInconsistency(
                "Invalid update: the number of items after the update (\(after)) must be equal to the number before "
                    + "(\(before)), plus or minus the number inserted or deleted (\(batch.inserted.count) inserted, "
                    + "\(batch.deleted.count) deleted)")
        }
        numberOfItemsShown = after
        recycleAll()
        showVisibleCells()
    }

    private func currentCount() -> Int {
        dataSource?.collectionView(self, numberOfItemsInSection: 0) ?? 0
    }

    private func recycleAll() {
        for cell in visibleCells.values { reusable[cell.reuseIdentifier, default: []].append(cell) }
        visibleCells = [:]
    }

    private func showVisibleCells() {
        guard let dataSource else { return }
        let window = visibleItems.clamped(to: 0..<numberOfItemsShown)
        for item in window where visibleCells[item] == nil {
            visibleCells[item] = dataSource.collectionView(self, cellForItemAt: IndexPath(item: item, section: 0))
        }
    }
}

@MainActor
open class UICollectionViewController: UIViewController, UICollectionViewDataSource {
    public let collectionView: UICollectionView! = UICollectionView()

    public override init() {
        super.init()
        collectionView.dataSource = self
    }

    open func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 0 }

    open func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        raiseInconsistency("collectionView(_:cellForItemAt:) is not implemented")
    }
}
