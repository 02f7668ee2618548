import BenchmarkSupport
import Foundation
import Photos

/// Store benchmark: a library of N assets (1,000,000 by default), measured through PhotoKit's
/// public API side by side with the `sqlite3` command on the same database file.
///
/// 1. Fetch every image sorted by creationDate, until `count` is known, vs the same SQL.
/// 2. The same with `isFavorite == YES`.
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
    log("5. memory of the all-assets fetch")
    let (memory, everything) = fetches.measureMemory()
    results.memory = memory
    log("   verifying it against sqlite3")
    let rowIDs = try fetches.verify(everything, against: PeerQueries.everything(), title: "All assets")

    let startup = try fetches.peerStartup()
    log("1. images by creationDate")
    results.fetches.append(
        try fetches.compare("Fetch images sorted by creationDate", startup: startup, peerSQL: PeerQueries.images()) {
            fetches.fetchImages()
        })

    log("2. favorites by creationDate")
    results.fetches.append(
        try fetches.compare(
            "Fetch favorites (`\(FetchMeasures.favoritesFormat)`) sorted by creationDate", startup: startup,
            peerSQL: PeerQueries.favorites()
        ) { fetches.fetchFavorites() })

    let objects = ObjectMeasures(result: everything, rowIDs: rowIDs, cli: cli, repeats: options.repeats, startup: startup)
    log("3. random object(at:)")
    results.randomAccess = try objects.randomAccess(calls: options.randomReads)
    log("4. enumeration")
    results.enumeration = try objects.enumeration(peerSQL: PeerQueries.everything(selecting: PeerQueries.assetColumns))
    withExtendedLifetime(everything) {}

    for (title, sql) in [
        ("images", PeerQueries.images()), ("favorites", PeerQueries.favorites()),
        ("all assets", PeerQueries.everything()), ("one row", PeerQueries.singleRow(id: 1)),
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
    case .changeWriter:
        guard let library = options.library else { throw UsageError("change-writer needs --library") }
        try ChangeWriter.run(library: library)
    }
} catch {
    FileHandle.standardError.write(Data("StoreBenchmark: \(error)\n".utf8))
    exit(1)
}
