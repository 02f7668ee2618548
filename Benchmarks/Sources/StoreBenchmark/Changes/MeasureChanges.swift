import BenchmarkSupport
import Foundation
import Photos

/// The `changes` command: every change measure on a fresh copy of the generated library.
func measureChanges(_ options: Options) throws -> ChangeResults {
    guard LibraryFixture.isCached(options) else {
        throw BenchmarkFailure("no generated library at \(options.libraryFolder.path); run `prepare` first")
    }
    let loadAtStart = MachineInfo.loadAverage()
    let folder = options.changesLibraryFolder
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.copyItem(at: options.libraryFolder, to: folder)
    defer { try? FileManager.default.removeItem(at: folder) }

    let database = folder.appendingPathComponent("database/Photos.sqlite")
    let cli = try SQLiteCLI(executable: options.sqlite3, database: database)
    defer { cli.removeScratch() }
    let library = try PHPhotoLibrary(url: folder)
    var measures = ChangeMeasures(library: library, folder: folder, cli: cli, repeats: options.repeats)
    var results = ChangeResults(assets: options.assets, repeats: options.repeats)
    let rounds = max(options.repeats * 4, 20)
    let all = ChangeMeasures.byCreationDate(before: nil)

    log("changes 1. one favorite toggled, in-process, 1M fetch")
    results.latencies.append(
        try measures.inProcess(
            "One favorite toggled in this process, fetch of every asset by creationDate", options: all, batch: 1, rounds: rounds
        ) { $0.changed == 1 && $0.removed + $0.inserted + $0.moves == 0 })
    log("changes 2. one favorite toggled, in-process, favorites fetch")
    results.latencies.append(
        try measures.inProcess(
            "One favorite toggled in this process, fetch of `isFavorite == YES`", options: ChangeMeasures.favorites(), batch: 1,
            rounds: rounds
        ) { $0.removed + $0.inserted == 1 && $0.incremental })
    log("changes 3. one favorite toggled by another process")
    results.latencies.append(try measures.crossProcess(rounds: rounds))
    log("changes 4. 1,000 favorites toggled in one transaction")
    results.latencies.append(
        try measures.inProcess(
            "1,000 favorites toggled in one transaction, fetch of every asset by creationDate", options: all, batch: 1_000,
            rounds: options.repeats
        ) { $0.changed == 1_000 && $0.removed + $0.inserted + $0.moves == 0 })
    results.latencies.append(
        try measures.inProcess(
            "1,000 favorites toggled in one transaction, fetch of `isFavorite == YES`", options: ChangeMeasures.favorites(),
            batch: 1_000, rounds: options.repeats
        ) { $0.removed + $0.inserted == 1_000 && $0.incremental })
    log("changes 5. details against a reload, by result size")
    results.scaling = try measures.scaling(sizes: [10_000, 100_000, 1_000_000])
    results.machine = MachineInfo.describe(cli: cli, assets: options.assets, databaseFile: database, loadAtStart: loadAtStart)
    return results
}
