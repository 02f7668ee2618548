import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Places where a test can make the process die abruptly, to check that a crash at that
/// point leaves a consistent library. Armed only by the `PHOTOKIT_FAILPOINT` environment
/// variable (read once); unset, a hit costs one comparison. `NAME:stall` stops the thread
/// there for good instead (saying so on standard error), for a test that kills the process
/// itself while it is in the middle of that work (`kill -9` of an instance mid-import).
enum Failpoint: String {
    /// Inside the commit's transaction, after rows are written and files renamed into
    /// `originals/`, before `COMMIT`.
    case beforeCommit = "before-commit"
    /// A backup has copied its first new file into the backup folder.
    case backupAfterFirstCopy = "backup-after-first-copy"
    /// A backup has copied every file and placed its snapshot, before writing its manifest.
    case backupBeforeManifest = "backup-before-manifest"
    /// Inside an import batch's commit, after its assets are written and it is marked done.
    case importBatchBeforeCommit = "import-batch-before-commit"

    private static let setting = ProcessInfo.processInfo.environment["PHOTOKIT_FAILPOINT"]?.split(separator: ":").map(String.init) ?? []
    private static let armed = setting.first.flatMap(Failpoint.init(rawValue:))
    private static let stalls = setting.dropFirst().first == "stall"

    static func hit(_ point: Failpoint) {
        guard armed == point else { return }
        guard stalls else { _exit(86) }
        FileHandle.standardError.write(Data("failpoint \(point.rawValue): stalled\n".utf8))
        while true { sleep(3600) }
    }
}
