import GRDB

extension Database {
    /// Executes one statement, compiled once per connection and reused.
    ///
    /// Writes go through here: a statement that changes `asset`, `albumAsset` or
    /// `collection` compiles the journal's triggers with it, which costs far more than
    /// running it (GRDB's authorizer visits every column the triggers read).
    func run(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
