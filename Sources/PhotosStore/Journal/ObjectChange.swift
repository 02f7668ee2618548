/// What happened to one object over a run of changes, folded from the journal.
package struct ObjectChange: Sendable, Hashable {
    package var entity: Int
    package var objectID: Int64
    package var uuid: String
    /// Whether fetches saw the object before the first change of the run.
    package var wasVisible: Bool
    /// Whether fetches see it after the last one.
    package var isVisible: Bool
    /// ``JournalFlags`` bits, accumulated.
    package var flags: Int
    /// The person whose object it is (`nil`: a library without people, or a change journaled
    /// before owners were: the library owner's).
    package var ownerID: Int64?

    package init(entity: Int, objectID: Int64, uuid: String, wasVisible: Bool, isVisible: Bool, flags: Int, ownerID: Int64? = nil) {
        self.entity = entity
        self.objectID = objectID
        self.uuid = uuid
        self.wasVisible = wasVisible
        self.isVisible = isVisible
        self.flags = flags
        self.ownerID = ownerID
    }

    package enum Kind: Sendable, Hashable {
        case inserted, deleted, updated
        /// Touched without a change the object shows: an album membership, a position, or
        /// created and deleted within the run. It may still enter or leave a fetch result.
        case touched
    }

    package var kind: Kind {
        switch (wasVisible, isVisible) {
        case (false, true): .inserted
        case (true, false): .deleted
        case (true, true): flags & (JournalFlags.updated | JournalFlags.contentChanged) != 0 ? .updated : .touched
        case (false, false): .touched
        }
    }

    package var contentChanged: Bool { flags & JournalFlags.contentChanged != 0 }

    /// Visible before and after, and only moved between containers (a moment, an album):
    /// nothing a query over the object's own columns can see.
    package var isMembershipOnly: Bool {
        wasVisible && isVisible && flags & ~(JournalFlags.membership | JournalFlags.keepsVisibility) == 0
    }

    /// Folds a later change of the same object into this one.
    mutating func fold(_ later: ObjectChange) {
        isVisible = later.isVisible
        flags |= later.flags
        ownerID = ownerID ?? later.ownerID
    }
}

/// Journal rows folded per object, in the order objects were first touched.
struct ObjectChangeFolder {
    private var index: [Key: Int] = [:]
    private(set) var changes: [ObjectChange] = []

    private struct Key: Hashable {
        var entity: Int
        var objectID: Int64
    }

    mutating func add(_ change: ObjectChange) {
        let key = Key(entity: change.entity, objectID: change.objectID)
        if let position = index[key] {
            changes[position].fold(change)
        } else {
            index[key] = changes.count
            changes.append(change)
        }
    }
}
