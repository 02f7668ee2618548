import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Places where a test can make the process die abruptly, to check that a crash at that
/// point leaves a consistent library. Armed only by the `PHOTOKIT_FAILPOINT` environment
/// variable (read once); unset, a hit costs one comparison.
enum Failpoint: String {
    /// Inside the commit's transaction, after rows are written and files renamed into
    /// `originals/`, before `COMMIT`.
    case beforeCommit = "before-commit"
    /// A backup has copied its first new file into the backup folder.
    case backupAfterFirstCopy = "backup-after-first-copy"
    /// A backup has copied every file and placed its snapshot, before writing its manifest.
    case backupBeforeManifest = "backup-before-manifest"

    private static let armed = ProcessInfo.processInfo.environment["PHOTOKIT_FAILPOINT"].flatMap(Failpoint.init(rawValue:))

    static func hit(_ point: Failpoint) {
        if armed == point { _exit(86) }
    }
}
