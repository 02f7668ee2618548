package import Foundation
import GRDB
import Synchronization

extension Gazetteer {
    /// Where the gazetteer is looked for: `$PHOTOS_GAZETTEER`, else
    /// `${XDG_DATA_HOME:-~/.local/share}/photos/gazetteer.tsv` (where
    /// `scripts/fetch-gazetteer.sh` writes it).
    package static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["PHOTOS_GAZETTEER"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let dataHome: URL
        if let path = environment["XDG_DATA_HOME"], path.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: path, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            dataHome = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome.appendingPathComponent("photos/gazetteer.tsv")
    }

    /// The gazetteer at ``defaultURL(environment:)``, loaded on first use and then kept for the
    /// life of the process; `nil` when there is no readable file there (moments then have no
    /// place names).
    package static let shared: Gazetteer? = {
        let url = defaultURL()
        guard FileManager.default.isReadableFile(atPath: url.path) else { return nil }
        return try? Gazetteer(contentsOf: url)
    }()

    /// Gazetteers used instead of ``shared`` for particular libraries, keyed by the library
    /// folder's resolved path. For tests, which run in parallel in one process and must not
    /// depend on (or change) the machine's file or environment.
    private static let overrides = Mutex<[String: Gazetteer?]>([:])
    private static let hasOverrides = Atomic<Bool>(false)

    /// Makes the library at `root` name its moments from `gazetteer` (`nil`: no place names),
    /// whatever ``shared`` is.
    package static func use(_ gazetteer: Gazetteer?, forLibraryAt root: URL) {
        let key = root.standardizedFileURL.resolvingSymlinksInPath().path
        overrides.withLock { $0[key] = .some(gazetteer) }
        hasOverrides.store(true, ordering: .releasing)
    }

    /// Undoes ``use(_:forLibraryAt:)``.
    package static func removeOverride(forLibraryAt root: URL) {
        let key = root.standardizedFileURL.resolvingSymlinksInPath().path
        _ = overrides.withLock { $0.removeValue(forKey: key) }
    }

    /// The gazetteer for the library whose database `db` is: its override, else ``shared``.
    static func forLibrary(of db: Database) -> Gazetteer? {
        guard hasOverrides.load(ordering: .acquiring),
            let file = try? String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'"),
            !file.isEmpty
        else { return shared }
        let database = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
        let found: Gazetteer?? = overrides.withLock { overrides in
            for (root, gazetteer) in overrides where database.hasPrefix(root + "/") { return .some(gazetteer) }
            return nil
        }
        if let found { return found }
        return shared
    }
}
