import BenchmarkSupport
import Foundation
import Photos
import PhotosPostgres

/// Store benchmark: a library of N assets (1,000,000 by default), measured through PhotoKit's
/// public API side by side with the `sqlite3` command on the same database file.
///
/// 1. Fetches until `count` is known and until the first object, vs the same SQL: every image
///    sorted by creationDate, favorites, every visible asset, the Screenshots smart album, an
///    album of 100,000.
/// 2. Writes: commits with and without the visible-asset indexes (see ``WriteMeasures``).
/// 3. Random `object(at:)` latency (p50…max) on the 1M result, vs single-row SELECTs.
/// 4. Enumerating the 1M result, vs selecting every column of those rows in order.
/// 5. Resident memory per result of a 1M-result fetch.
///
/// Run it through `Benchmarks/run-store-benchmark.sh`, which builds in release.

func measure(_ options: Options) throws -> Results {
    guard LibraryFixture.isCached(options) else {
        throw BenchmarkFailure("no generated library at \(options.libraryFolder.path); run `prepare` first")
    }
    let loadAtStart = MachineInfo.loadAverage()
    let cli = try SQLiteCLI(executable: options.sqlite3, database: options.databaseFile)
    defer { cli.removeScratch() }
    let library = try PHPhotoLibrary(url: options.libraryFolder)
    let fetches = FetchMeasures(library: library, cli: cli, repeats: options.repeats)
    var results = Results(assets: options.assets, repeats: options.repeats)

    // 5 first: the cold figure needs the process's first fetch.
    log("4. memory of the all-assets fetch")
    let (memory, everything) = fetches.measureMemory()
    results.memory = memory
    log("   verifying it against sqlite3")
    let rowIDs = try fetches.verify(everything, against: PeerQueries.everything(), title: "All assets")

    let startup = try fetches.peerStartup()
    let assetColumns = try PeerQueries.assetColumns(cli)
    let albumID = try cli.integers("SELECT id FROM collection WHERE uuid = '\(LibraryFixture.albumUUID)'").first ?? -1
    let comparisons: [(String, (String) -> String, () -> PHFetchResult<PHAsset>)] = [
        ("Fetch images sorted by creationDate", { PeerQueries.images(selecting: $0) }, fetches.fetchImages),
        ("Fetch favorites (`\(FetchMeasures.favoritesFormat)`) sorted by creationDate", { PeerQueries.favorites(selecting: $0) },
         fetches.fetchFavorites),
        ("Fetch every visible asset (hidden excluded) sorted by creationDate", { PeerQueries.visible(selecting: $0) },
         fetches.fetchVisible),
        ("Fetch the Screenshots smart album", { PeerQueries.screenshots(selecting: $0) }, fetches.fetchScreenshots),
        ("Fetch an album of 100,000 in its order", { PeerQueries.album(id: albumID, selecting: $0) }, fetches.fetchAlbum),
    ]
    for (number, (title, sql, fetch)) in comparisons.enumerated() {
        log("1\(Character(UnicodeScalar(UInt8(97 + number)))). \(title)")
        results.fetches.append(
            try fetches.compare(title, startup: startup, peerSQL: sql("asset.id"), firstRowSQL: PeerQueries.firstRow(sql, columns: assetColumns), fetch: fetch))
    }

    let objects = ObjectMeasures(
        result: everything, rowIDs: rowIDs, cli: cli, repeats: options.repeats, startup: startup, assetColumns: assetColumns)
    log("2. random object(at:)")
    results.randomAccess = try objects.randomAccess(calls: options.randomReads)
    log("3. enumeration")
    results.enumeration = try objects.enumeration(peerSQL: PeerQueries.everything(selecting: assetColumns))
    withExtendedLifetime(everything) {}

    log("5. writes without and with the visible-asset indexes")
    var writes = try WriteMeasures(options: options, rounds: options.repeats)
    defer { writes.removeCopies() }
    for change in WriteMeasures.Change.allCases {
        log("   \(change.title)")
        if let comparison = try writes.measure(change) { results.writes.append(comparison) }
    }

    for (title, sql) in [
        ("images", PeerQueries.images()), ("favorites", PeerQueries.favorites()), ("visible assets", PeerQueries.visible()),
        ("Screenshots", PeerQueries.screenshots()), ("album", PeerQueries.album(id: albumID)),
        ("all assets, hidden included", PeerQueries.everything()), ("one row", PeerQueries.singleRow(id: 1, columns: assetColumns)),
    ] {
        let plan = try cli.run("EXPLAIN QUERY PLAN \(sql);").output.split(separator: "\n").dropFirst()
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "|`- ")) }.joined(separator: "; ")
        results.plans.append((title, plan))
    }
    results.machine = MachineInfo.describe(cli: cli, assets: options.assets, databaseFile: options.databaseFile, loadAtStart: loadAtStart)
    return results
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("[store-benchmark] \(message)\n".utf8))
}

do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    switch options.command {
    case .prepare:
        try LibraryFixture.prepare(options)
    case .measure:
        let table = Report.markdown(try measure(options))
        print(table)
        if let docs = options.docsFile {
            try Report.update(docs, with: table)
            log("wrote \(docs.path)")
        }
    case .profile:
        try ProfiledWorkload.run(options, workload: options.workload)
    case .changes:
        let table = ChangeReport.markdown(try measureChanges(options))
        print(table)
        if let docs = options.docsFile {
            try Report.update(docs, with: table, markers: ChangeReport.markers, heading: ChangeReport.heading)
            log("wrote \(docs.path)")
        }
    case .engines:
        guard let database = options.database, let files = options.files else { throw UsageError("engines needs --database and --files") }
        let measures = EngineMeasures(
            sqlite: try PHPhotoLibrary(url: options.libraryFolder), postgres: try PHPhotoLibrary(database: database, files: files),
            repeats: options.repeats, randomReads: options.randomReads)
        print(EngineMeasures.markdown(try measures.run(database: database, files: files), assets: options.assets))
    case .people:
        print(try PeopleMeasures.run(options))
    case .search:
        print(try SearchMeasures.run(options))
    case .changeWriter:
        guard let library = options.library else { throw UsageError("change-writer needs --library") }
        try ChangeWriter.run(library: library)
    }
} catch {
    FileHandle.standardError.write(Data("StoreBenchmark: \(error)\n".utf8))
    exit(1)
}
