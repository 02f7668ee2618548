import Foundation

@MainActor
public protocol UITableViewDataSource: AnyObject {
    func numberOfSections(in tableView: UITableView) -> Int
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell
}

@MainActor
open class UITableViewCell: UIView {
    public let textLabel: UILabel? = UILabel()
    public let detailTextLabel: UILabel? = UILabel()
}

/// A table that keeps the rows it last showed: ``reloadData()`` and ``reloadSections(_:with:)``
/// ask the data source for every cell, so a row whose object can't be read shows up in the apps'
/// checks.
@MainActor
open class UITableView: UIView {
    public enum RowAnimation: Int { case fade, right, left, top, bottom, none, middle, automatic = 100 }

    public weak var dataSource: (any UITableViewDataSource)?
    /// The cells shown, by section.
    public private(set) var rows: [[UITableViewCell]] = []

    public func reloadData() {
        guard let dataSource else { return }
        rows = (0..<dataSource.numberOfSections(in: self)).map { cells(in: $0, from: dataSource) }
    }

    public func reloadSections(_ sections: IndexSet, with animation: RowAnimation) {
        guard let dataSource else { return }
        let count = dataSource.numberOfSections(in: self)
        guard count == rows.count else {
            raiseInconsistency("Invalid update: \(count) sections after reloading sections, \(rows.count) before")
        }
        for section in sections {
            guard section < count else { raiseInconsistency("attempt to reload section \(section) of \(count)") }
            rows[section] = cells(in: section, from: dataSource)
        }
    }

    public func numberOfRows(inSection section: Int) -> Int { rows[section].count }

    public func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        indexPath.section < rows.count && indexPath.row < rows[indexPath.section].count ? rows[indexPath.section][indexPath.row] : nil
    }

    private func cells(in section: Int, from dataSource: any UITableViewDataSource) -> [UITableViewCell] {
        (0..<dataSource.tableView(self, numberOfRowsInSection: section)).map {
            dataSource.tableView(self, cellForRowAt: IndexPath(row: $0, section: section))
        }
    }
}

@MainActor
open class UITableViewController: UIViewController, UITableViewDataSource {
    public let tableView: UITableView! = UITableView()

    public override init() {
        super.init()
        tableView.dataSource = self
    }

    open func numberOfSections(in tableView: UITableView) -> Int { 1 }
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        raiseInconsistency("tableView(_:cellForRowAt:) is not implemented")
    }
}
