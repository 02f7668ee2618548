import BenchmarkSupport
import Foundation
import Photos

/// Issue 34's figure: a person's fetches in a library of N assets shared among P people, side by
/// side with the same fetches in a library of N / P assets without people (the generated
/// libraries of ``LibraryFixture``). The people's library is a copy of the N-asset one in which
/// `sqlite3` adds P people and gives asset `id` to person `id % P + 1` (the first owns the
/// collections); a person's fetches go through `library(forPerson:)`, so every one carries
/// `asset.ownerID = ?` (and the person's partners: none here).
enum PeopleMeasures {
    static let generatorVersion = 1

    static func folder(_ options: Options) -> URL {
        options.dataFolder.appendingPathComponent("library-\(options.assets)-people\(options.people).photoslibrary", isDirectory: true)
    }

    /// Makes the people's copy unless a matching one is cached.
    static func prepare(_ options: Options) throws {
        try LibraryFixture.prepare(options)
        let target = folder(options)
        let marker = target.appendingPathComponent("people-benchmark.marker")
        let text = "rows=\(options.assets) people=\(options.people) generator=\(generatorVersion)\n"
        if (try? String(contentsOf: marker, encoding: .utf8)) == text { return }
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: options.libraryFolder, to: target)
        // Opened once with PhotoKit: a library made by an older build gets today's schema.
        _ = try PHPhotoLibrary(url: target).withCurrent { PHAsset.fetchAssets(with: nil).count }
        let cli = try SQLiteCLI(executable: options.sqlite3, database: target.appendingPathComponent("database/Photos.sqlite"))
        defer { cli.removeScratch() }
        log("giving \(Format.count(options.assets)) assets to \(options.people) people with sqlite3…")
        let people = options.people
        let (_, nanos) = try timed {
            try cli.run(
                """
                PRAGMA synchronous = OFF;
                BEGIN;
                INSERT INTO person (identifier, name, nameKey, isAdmin, passwordHash, createdDate, passwordChangedDate)
                    WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < \(people))
                    SELECT printf('pe_bench%04d', n), printf('p%d', n), printf('p%d', n), n = 1, 'unused', 0, 0 FROM seq;
                INSERT INTO libraryInfo (key, value) VALUES ('ownerPersonID', '1');
                UPDATE asset SET ownerID = id % \(people) + 1;
                UPDATE collection SET ownerID = 1 WHERE NOT (isList = 0 AND type = 2) AND NOT (isList = 1 AND type = 3);
                COMMIT;
                PRAGMA wal_checkpoint(TRUNCATE);
                """)
        }
        log("done in \(Format.millis(nanos))")
        try Data(text.utf8).write(to: marker)
    }

    /// The fetches of one person (the fourth) against the same fetches in the single library of
    /// N / P assets, alternating, `repeats` times each after one untimed run: until `count`, and
    /// until the first object.
    static func run(_ options: Options) throws -> String {
        var single = options
        single.assets = options.assets / options.people
        try LibraryFixture.prepare(single)
        try prepare(options)
        let whole = try PHPhotoLibrary(url: folder(options))
        let person = try whole.library(forPerson: "p4")
        let alone = try PHPhotoLibrary(url: single.libraryFolder)
        let fetches = [
            ("Fetch images sorted by creationDate", { (library: PHPhotoLibrary) in FetchMeasures(library: library, cli: nil, repeats: 1).fetchImages() }),
            ("Fetch favorites sorted by creationDate", { (library: PHPhotoLibrary) in FetchMeasures(library: library, cli: nil, repeats: 1).fetchFavorites() }),
            ("Fetch every visible asset sorted by creationDate", { (library: PHPhotoLibrary) in FetchMeasures(library: library, cli: nil, repeats: 1).fetchVisible() }),
            ("Fetch the Screenshots smart album", { (library: PHPhotoLibrary) in FetchMeasures(library: library, cli: nil, repeats: 1).fetchScreenshots() }),
        ]
        var rows = [
            "| Measure | \(Format.count(single.assets)) assets, no people (median) | a person's \(Format.count(options.assets / options.people)) of \(Format.count(options.assets)) among \(options.people) (median) | person / single |",
            "| --- | ---: | ---: | ---: |",
        ]
        for (title, fetch) in fetches {
            log(title)
            let (aloneCount, personCount) = (fetch(alone).count, fetch(person).count)
            var counts: [[UInt64]] = [[], []], firsts: [[UInt64]] = [[], []]
            for _ in 0..<options.repeats {
                for (side, library) in [alone, person].enumerated() {
                    let (result, nanos) = timed { () -> PHFetchResult<PHAsset> in
                        let result = fetch(library)
                        _ = result.count
                        return result
                    }
                    counts[side].append(nanos)
                    withExtendedLifetime(result) {}
                    let (first, firstNanos) = timed { () -> Int in fetch(library).firstObject?.pixelWidth ?? 0 }
                    guard first > 0 else { throw BenchmarkFailure("\(title): no first object") }
                    firsts[side].append(firstNanos)
                }
            }
            for (label, samples) in [("count", counts), ("… and its first object", firsts)] {
                let (a, b) = (Samples(samples[0]).median, Samples(samples[1]).median)
                let name = label == "count" ? "\(title) (\(Format.count(aloneCount)) / \(Format.count(personCount))): count" : label
                rows.append("| \(name) | \(Format.millis(a)) | \(Format.millis(b)) | \(String(format: "%.2f", Double(b) / Double(max(a, 1))))× |")
            }
        }
        return rows.joined(separator: "\n")
    }
}
