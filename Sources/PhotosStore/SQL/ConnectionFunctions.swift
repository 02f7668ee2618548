import GRDB

/// The SQL functions every SQLite connection of a library registers, whatever it is for (the
/// writer and readers, a read-only pool, a change snapshot): the text tests predicates compile
/// to (``TextFunctions``) and a search's rank (``SearchRank``).
enum ConnectionFunctions {
    static func register(in db: Database) throws {
        TextFunctions.register(in: db)
        try SearchRank.register(in: db)
    }
}
