public import Foundation
public import Photos
import PhotosStore
import PhotosStorePostgres

extension PHPhotoLibrary {
    /// Opens the library whose rows are in the PostgreSQL database at `database` and whose
    /// files (originals, edits, thumbnails and previews) are in the folder `files`.
    ///
    /// Linux addition, in the `PhotosPostgres` module (its own product, so programs that use
    /// only SQLite libraries never build the PostgreSQL client). `database` is a
    /// `postgres://` or `postgresql://` URL read as libpq reads one
    /// (`postgresql://USER@HOST:PORT/DATABASE?sslmode=verify-full&sslrootcert=ca.pem`): its
    /// parameters (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`, `connect_timeout`,
    /// `application_name`, `options`, ...), then the `PG*` environment variables
    /// (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, ...), then
    /// `~/.pgpass` for the password; TLS is `prefer`red by default, as libpq does. No error or
    /// log shows the password. Several processes, on one machine
    /// or several, may open the same database and files folder at once (each `photos serve`
    /// instance behind a load balancer): a change block commits in one transaction, writes of
    /// every instance are ordered, and observers in every instance get the same
    /// `PHChange` details (instances wake each other with `NOTIFY`). An empty database gets
    /// the library's schema on first open.
    ///
    /// Everything PhotoKit does works the same on both engines, except what belongs to the
    /// SQLite file: `photos backup`'s database-file snapshots and `photos repair` of the
    /// database (use `pg_dump` and PostgreSQL's own tools), which fail with
    /// `PHPhotosError.Code.changeNotSupported`.
    ///
    /// - Throws: ``PHPhotosError`` with `.libraryVolumeOffline` when the server can't be reached,
    ///   the URL is not a `postgres://` one or `files` belongs to another library, and
    ///   `.internalError` when the database was written by a newer version of this software.
    public convenience init(database: URL, files: URL) throws {
        try self.init(database: database, files: files, configuration: Configuration())
    }

    /// ``init(database:files:)`` with a configuration (image cache, decode pool, gazetteer).
    package convenience init(database: URL, files: URL, configuration: Configuration) throws {
        let store: LibraryDatabase
        do {
            store = try LibraryDatabase.open(postgres: database, files: files, gazetteer: configuration.gazetteer)
        } catch {
            throw PHPhotosError(error)
        }
        try Self.attachOriginals(to: store, requested: configuration.originals, logger: configuration.logger)
        self.init(store: store, configuration: configuration)
    }
}

extension PHPhotoLibrary {
    /// How many statements this library's PostgreSQL connections have sent, each a round trip
    /// (nil for a SQLite library): what tests count a change's cost in.
    package var postgresStatementsSent: Int? {
        (storeEngine as? PostgresEngine)?.statementsSent
    }
}
