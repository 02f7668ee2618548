import Foundation

extension LibraryDatabase {
    /// Copies this library into `destination`, a new library on either engine (`photos
    /// migrate`): every row (assets, albums, moments, smart albums, the change history, access
    /// tokens and sessions, video renditions' state) with its id, the history position and
    /// the ids' high-water marks (so change tokens and `PHPersistentChangeToken`s of one work
    /// on the other, and no id is reused), and the files (originals, edits, derivatives),
    /// hard-linked when both folders are on one file system, else copied.
    ///
    /// The rows are read in one read transaction and written in one write transaction: the
    /// destination gets all of them or none. The files go first, so committed rows never name
    /// a missing file. Then everything is checked: each table's rows read back from the
    /// destination must hash (SHA-256 over every value) as the source's did, and each
    /// original must be where its row says, with its size and content hash.
    ///
    /// - Throws: `StoreError` `.cannotOpen` when the destination already holds photos or
    ///   tokens; `.fileOperation` when a file can't be copied; `.database` when a check fails.
    package func copyLibrary(to destination: LibraryDatabase) throws(StoreError) -> LibraryCopyReport {
        let held = try destination.read { db in
            (try db.int64("SELECT COUNT(*) FROM asset") ?? 0, try db.int64("SELECT COUNT(*) FROM accessToken") ?? 0)
        }
        guard held == (0, 0) else {
            throw StoreError(
                .cannotOpen, "The destination already holds a library (\(held.0) assets, \(held.1) access tokens); copy into a new one")
        }
        var report = LibraryCopyReport()
        var digests: [String: String] = [:]
        try read { source in
            try copyFiles(to: destination.layout, report: &report)
            report.position = try ChangeJournal.position(source)
            let marks = try Self.identityMarks(source, position: report.position)
            try destination.write { target in
                for table in CopiedTable.all.reversed() { try target.execute("DELETE FROM \(unescaped: table.name)") }
                for table in CopiedTable.all {
                    // Triggers may have added rows of this table for rows copied before it
                    // (a video's rendition row): the source's replace them.
                    try target.execute("DELETE FROM \(unescaped: table.name)")
                    let digest = RowDigest()
                    var count = 0
                    try table.forEachPage(source) { page in
                        try table.insert(page, into: target)
                        digest.add(page)
                        count += page.count
                    }
                    digests[table.name] = digest.finish()
                    report.rows.append((table.name, count))
                }
                try Self.setIdentityMarks(marks, position: report.position, target)
            }
        }
        try destination.compactAfterCopy()
        try destination.verifyCopy(digests: digests, report: &report)
        if engine.dialect == .postgres && destination.engine.dialect == .sqlite {
            // SQLite's search rank reads each document's length, which PostgreSQL leaves
            // unwritten (`AssetColumn.searchLength`): written once the copy is checked.
            try destination.write { db in try db.execute(StoreSQL(unescaped: SearchDocumentColumn.fillLengths)) }
        }
        let identifier = try destination.read { db in try db.text("SELECT value FROM libraryInfo WHERE key = 'libraryIdentifier'") }
        if let identifier {
            try SafeFiles.write(Data((identifier + "\n").utf8), to: destination.layout.identifierFile)
        }
        return report
    }

    /// On PostgreSQL, each copied table's indexes rebuilt and its statistics read, as
    /// `pg_restore` builds indexes after the rows: the rows went in in id order, so an index in
    /// another order split its pages as it grew (62 % full, half its leaf pages out of order, on
    /// a copy of 1,000,000 assets), and a new table has no statistics until autovacuum's first
    /// pass (fetches read in halves split at a date's median from them). 9 s for 1,000,000
    /// assets. SQLite's file needs neither.
    private func compactAfterCopy() throws(StoreError) {
        guard engine.dialect == .postgres else { return }
        try write { db in
            for table in CopiedTable.all {
                // The documents' halves one by one: PostgreSQL reindexes a partitioned table
                // only outside a transaction (`SearchDocumentHalves`).
                let reindexed = table.name == SearchDocumentColumn.table.name ? SearchDocumentHalves.tables : [table.name]
                for name in reindexed { try db.execute("REINDEX TABLE \(unescaped: name)") }
                try db.execute("ANALYZE \(unescaped: table.name)")
            }
        }
    }

    /// The tables' id high-water marks: the largest id ever given, deleted rows included.
    private static func identityMarks(_ db: any StoreConnection, position: Int64) throws -> [String: Int64] {
        var marks: [String: Int64] = [:]
        for table in CopiedTable.all where table.identity {
            let largest = try db.int64("SELECT COALESCE(MAX(id), 0) FROM \(unescaped: table.name)") ?? 0
            let sequence: Int64? =
                try db.int64(
                    .either(
                        sqlite: "SELECT seq FROM sqlite_sequence WHERE name = \(table.name)",
                        postgres: "SELECT pg_sequence_last_value(pg_get_serial_sequence(\(table.name), 'id')::regclass)"))
            marks[table.name] = max(largest, sequence ?? 0)
        }
        // Change ids come from the position on PostgreSQL, not the identity.
        marks["change"] = max(marks["change"] ?? 0, position)
        return marks
    }

    private static func setIdentityMarks(_ marks: [String: Int64], position: Int64, _ db: any StoreConnection) throws {
        for (table, mark) in marks.sorted(by: { $0.key < $1.key }) where mark > 0 {
            switch db.dialect {
            case .sqlite:
                try db.execute("DELETE FROM sqlite_sequence WHERE name = \(table)")
                try db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (\(table), \(mark))")
            case .postgres:
                try db.execute("SELECT setval(pg_get_serial_sequence(\(table), 'id'), \(mark), true)")
            }
        }
        if db.dialect == .postgres {
            try db.execute("UPDATE libraryPosition SET position = \(position)")
        }
    }

    /// Every file of the library's folder but its database and scratch space, linked or
    /// copied to the same place in `layout`'s folder.
    private func copyFiles(to layout: LibraryLayout, report: inout LibraryCopyReport) throws(StoreError) {
        let root = self.layout.root.standardizedFileURL
        for folder in [self.layout.originals, self.layout.renders, self.layout.derivatives, self.layout.imports] {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]) else {
                continue
            }
            for case let file as URL in walker {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let relative = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))
                let target = layout.url(forRelativePath: relative)
                do {
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw StoreError(.fileOperation, "Can't create \(target.deletingLastPathComponent().path): \(error.localizedDescription)")
                }
                report.bytes += Int64((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
                if link(file.path, target.path) == 0 {
                    report.linkedFiles += 1
                    continue
                }
                guard errno != EEXIST else {
                    throw StoreError(.fileOperation, "\(target.path) already exists; copy into a new folder")
                }
                let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString)")
                do {
                    try FileManager.default.copyItem(at: file, to: temporary)
                } catch {
                    throw StoreError(.fileOperation, "Can't copy \(file.path) to \(target.path): \(error.localizedDescription)")
                }
                guard rename(temporary.path, target.path) == 0 else {
                    try? FileManager.default.removeItem(at: temporary)
                    throw StoreError(.fileOperation, "Can't put \(target.path) in place: \(String(cString: strerror(errno)))")
                }
                report.copiedFiles += 1
            }
        }
    }

    /// Reads the copy back: each table's rows hash as the source's did, and each resource's
    /// file is in place with its size (and its content hash, where the row has one).
    private func verifyCopy(digests: [String: String], report: inout LibraryCopyReport) throws(StoreError) {
        let resources = try read { db in
            for table in CopiedTable.all {
                let digest = RowDigest()
                try table.forEachPage(db) { digest.add($0) }
                guard digest.finish() == digests[table.name] else {
                    throw StoreError(.database, "The copy's \(table.name) rows differ from the library's; the copy is not faithful (remove it)")
                }
            }
            return try db.rows("SELECT path, fileSize, contentHash FROM resource ORDER BY id") {
                (path: $0.text(0), size: $0.int64(1), hash: $0.optionalText(2))
            }
        }
        for resource in resources where !LibraryLayout.isRemote(path: resource.path) {
            let url = layout.url(forRelativePath: resource.path)
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
            guard let size else { throw StoreError(.fileOperation, "The copy has no \(resource.path)") }
            guard size == resource.size else {
                throw StoreError(.fileOperation, "The copy's \(resource.path) has \(size) bytes; its row says \(resource.size)")
            }
            if let hash = resource.hash {
                guard try ContentHash.sha256(ofFileAt: url) == hash else {
                    throw StoreError(.fileOperation, "The copy's \(resource.path) does not hash as its row says")
                }
                report.hashedFiles += 1
            }
        }
    }
}
