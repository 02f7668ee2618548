import BenchmarkSupport
import Foundation
import Photos

/// The generated library: N rows in `asset`, no files, cached between runs.
///
/// The folder is first opened with `PHPhotoLibrary(url:)` so the schema is PhotoKit's own;
/// then `sqlite3` inserts the rows in one statement (a recursive CTE), and a marker file records
/// the row count and generator version. Values are deterministic functions of the row number
/// (multiplicative hashes, so the same N always gives the same library):
///
/// | column | values |
/// | --- | --- |
/// | `mediaType` | ~85 % images (1), ~15 % videos (2) |
/// | `isFavorite` | ~5 % |
/// | `isHidden` | ~2 % |
/// | `creationDate` | spread over the 10 years from 2015-01-01, unrelated to the row number |
/// | `uuid` | `printf('%08X-0000-4000-8000-%012X', n, n)`: the row id is readable from it |
/// | location | ~half the rows |
/// | `mediaSubtypes` | ~3 % screenshots (bit 4: the Screenshots smart album) |
///
/// One user album, ``albumUUID``, holds every 10th asset (100,000 of 1,000,000) in an order
/// unrelated to the row number (positions are a bijective hash of the id).
/// No row is trashed or part of a burst, so the all-assets fetch with hidden assets included
/// returns exactly N.
enum LibraryFixture {
    /// The generated album's UUID (its local identifier adds `/L0/040`).
    static let albumUUID = "00000000-0000-4000-8000-0000000A1B00"

    /// Bump when the generated data changes, so cached libraries are rebuilt.
    static let generatorVersion = 2

    static func markerFile(_ options: Options) -> URL {
        options.libraryFolder.appendingPathComponent("store-benchmark.marker")
    }

    static func markerText(_ options: Options) -> String {
        "rows=\(options.assets) generator=\(generatorVersion)\n"
    }

    static func isCached(_ options: Options) -> Bool {
        (try? String(contentsOf: markerFile(options), encoding: .utf8)) == markerText(options)
    }

    /// Generates the library unless a matching one is cached.
    static func prepare(_ options: Options) throws {
        if isCached(options) {
            print("Library of \(Format.count(options.assets)) assets is cached at \(options.libraryFolder.path)")
            return
        }
        try? FileManager.default.removeItem(at: options.libraryFolder)
        try createSchema(at: options.libraryFolder)

        let cli = try SQLiteCLI(executable: options.sqlite3, database: options.databaseFile)
        defer { cli.removeScratch() }
        print("Generating \(Format.count(options.assets)) assets with sqlite3…")
        let (_, nanos) = try timed { try cli.run(generationSQL(rows: options.assets)) }
        let count = try cli.integers("SELECT COUNT(*) FROM asset").first ?? -1
        guard count == options.assets else {
            throw BenchmarkFailure("generated \(count) rows, expected \(options.assets)")
        }
        let mix = try cli.run(
            "SELECT SUM(mediaType = 1), SUM(mediaType = 2), SUM(isFavorite), SUM(isHidden), SUM(mediaSubtypes & 4 != 0), "
                + "(SELECT COUNT(*) FROM albumAsset) FROM asset;"
        ).output.trimmingCharacters(in: .whitespacesAndNewlines)
        print("Generated in \(Format.millis(nanos)); images|videos|favorites|hidden|screenshots|album = \(mix)")
        try Data(markerText(options).utf8).write(to: markerFile(options))
    }

    /// Opens (creating) the library with PhotoKit, so the schema and its indexes exist, and
    /// lets it go before sqlite3 writes.
    private static func createSchema(at folder: URL) throws {
        let library = try PHPhotoLibrary(url: folder)
        _ = library.withCurrent { PHAsset.fetchAssets(with: nil).count }
    }

    /// One `INSERT … SELECT` over a recursive CTE. `h1`…`h5` are 32-bit multiplicative hashes
    /// of the row number (Knuth's constants); their top 16 bits give the percentages.
    static func generationSQL(rows: Int) -> String {
        """
        PRAGMA synchronous = OFF;
        PRAGMA cache_size = -1048576;
        BEGIN;
        INSERT INTO asset (
            id, uuid, mediaType, mediaSubtypes, sourceType, pixelWidth, pixelHeight,
            creationDate, creationTimeZoneOffset, modificationDate, addedDate,
            latitude, longitude, horizontalAccuracy, duration, isFavorite, isHidden,
            playbackStyle, uniformTypeIdentifier, originalFilename
        )
        SELECT
            n,
            printf('%08X-0000-4000-8000-%012X', n, n),
            CASE WHEN isImage THEN 1 ELSE 2 END,
            CASE WHEN (h4 >> 8) % 100 < 3 THEN 4 ELSE 0 END,
            1,
            CASE WHEN isImage THEN 4032 ELSE 1920 END,
            CASE WHEN isImage THEN 3024 ELSE 1080 END,
            created,
            3600,
            created + 60.0,
            created + 86400.0,
            CASE WHEN (h5 >> 16) % 100 < 50 THEN 35.0 + (h5 % 2000) / 100.0 END,
            CASE WHEN (h5 >> 16) % 100 < 50 THEN -10.0 + (h5 % 4000) / 100.0 END,
            CASE WHEN (h5 >> 16) % 100 < 50 THEN 5.0 END,
            CASE WHEN isImage THEN 0.0 ELSE 1.0 + ((h5 >> 8) % 600) / 10.0 END,
            (h3 >> 16) % 100 < 5,
            (h4 >> 16) % 100 < 2,
            CASE WHEN isImage THEN 1 ELSE 4 END,
            CASE WHEN isImage THEN 'public.heic' ELSE 'com.apple.quicktime-movie' END,
            printf(CASE WHEN isImage THEN 'IMG_%07d.HEIC' ELSE 'IMG_%07d.MOV' END, n)
        FROM (
            SELECT n, h3, h4, h5,
                (h2 >> 16) % 100 < 85 AS isImage,
                1420070400.0 + h1 * (315576000.0 / 4294967296.0) AS created
            FROM (
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < \(rows))
                SELECT n,
                    (n * 2654435761) % 4294967296 AS h1,
                    (n * 2246822519) % 4294967296 AS h2,
                    (n * 3266489917) % 4294967296 AS h3,
                    (n * 668265263) % 4294967296 AS h4,
                    (n * 374761393) % 4294967296 AS h5
                FROM seq
            )
        );
        INSERT INTO collection (uuid, isList, type, subtype, title, position, creationDate)
            VALUES ('\(albumUUID)', 0, 1, 2, 'Every 10th asset', 100, 1420070400.0);
        INSERT INTO albumAsset (albumID, assetID, position)
            SELECT (SELECT id FROM collection WHERE uuid = '\(albumUUID)'), id, (id * 2654435761) % 4294967296
            FROM asset WHERE id % 10 = 3;
        -- Rows written behind the library's back have no search words: its next open writes them
        -- (the empty library it was made from counted as indexed).
        DELETE FROM libraryInfo WHERE key = 'searchIndexed';
        COMMIT;
        PRAGMA wal_checkpoint(TRUNCATE);

        """
    }
}
