/// The `importBatch` table (v14): uploads received by one instance and imported by whichever
/// claims them (``LibraryDatabase/enqueueImportBatch(uuid:owner:clientKey:tokenIdentifier:files:now:)``).
/// PostgreSQL's is the same in its types (`PostgresSchema`).
enum ImportBatchSchema {
    static let sqlite = """
        CREATE TABLE importBatch (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            owner TEXT NOT NULL,
            clientKey TEXT,
            tokenIdentifier TEXT,
            files TEXT NOT NULL,
            state INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0,
            errorCode INTEGER,
            lastError TEXT,
            notBefore REAL NOT NULL DEFAULT 0,
            assetUUIDs TEXT,
            createdDate REAL NOT NULL,
            updatedDate REAL NOT NULL
        );
        CREATE UNIQUE INDEX importBatch_by_clientKey ON importBatch(owner, clientKey) WHERE clientKey IS NOT NULL;
        CREATE INDEX importBatch_due ON importBatch(state, notBefore);
        """
}
