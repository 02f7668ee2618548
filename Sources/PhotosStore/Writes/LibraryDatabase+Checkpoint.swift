import Foundation
import GRDB
import GRDBSQLite

extension LibraryDatabase {
    /// How long a forced restart waits for readers to leave old frames.
    static let walRestartWait: Int32 = 50

    /// Keeps the write-ahead log bounded under sustained load. SQLite writes the log from its
    /// start again only when a writer finds it fully checkpointed and no reader using it; with
    /// reads overlapping every commit (a server answering while favorites are toggled) that
    /// moment never comes and the log grows by every commit (measured: 21 KB a favorite, 113 MB
    /// in 10 s). So after a commit, when the log is long, a `RESTART` checkpoint waits up to
    /// ``walRestartWait`` ms for the readers of old frames (which then read the database file)
    /// and lets the next commit start the log over; `journal_size_limit` then truncates it. Checked
    /// every 64 commits, past ``logRestartFrames``.
    /// Runs on the writer connection; a busy reader only defers it to a later commit.
    func restartLogIfLong() {
        let limit = logRestartFrames
        try? sqlite?.pool.writeWithoutTransaction { db in
            let (frames, _) = try db.checkpoint(.passive)
            guard frames >= limit else { return }
            sqlite3_busy_timeout(db.sqliteConnection, Self.walRestartWait)
            defer { sqlite3_busy_timeout(db.sqliteConnection, Int32(Self.busyTimeout * 1000)) }
            _ = try? db.checkpoint(.restart)
        }
    }
}
