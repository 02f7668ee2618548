import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import PhotosStore

/// Snapshots (change details read from them) and the write-ahead log under them.
@Suite("Snapshots and the write-ahead log")
struct SnapshotTests {
    static func favorite(_ store: LibraryDatabase, _ uuid: String, _ value: Bool) throws {
        var changes = StoreChangeSet(now: Date())
        var edit = AssetEdit()
        edit.isFavorite = value
        changes.assetEdits[uuid] = edit
        _ = try store.commit(changes)
    }

    /// Snapshots reuse their connections: one let go must end its transaction, or the next
    /// snapshot on that connection would see the library as it was.
    @Test func aSnapshotOnAReusedConnectionSeesLaterCommits() throws {
        let temporary = try TemporaryLibrary()
        let uuid = String(try temporary.seed([SyntheticAsset()])[0].prefix(36))
        let store = try LibraryDatabase.open(at: temporary.url)
        var positions: [Int64] = []
        for index in 0..<(SnapshotConnections.keptIdle * 3) {
            let before = index > 0 && (index - 1) % 2 == 0
            let held = try store.makeSnapshot()
            try Self.favorite(store, uuid, index % 2 == 0)
            // The held snapshot still sees the state before the commit.
            #expect(try held.assets(uuids: [uuid]).first?.isFavorite == before)
            let fresh = try store.makeSnapshot()
            #expect(try fresh.position == held.position + 1)
            #expect(try fresh.assets(uuids: [uuid]).first?.isFavorite == (index % 2 == 0))
            positions.append(try fresh.position)
        }
        #expect(positions == Array(positions.first!...positions.last!))
    }

    /// SQLite writes the log from its start again only at a moment no reader uses it; with
    /// reads overlapping every commit (a busy server) that moment never comes by itself.
    @Test func theLogStaysBoundedWhileReadsOverlapEveryCommit() throws {
        let temporary = try TemporaryLibrary()
        let uuid = String(try temporary.seed([SyntheticAsset()])[0].prefix(36))
        let store = try LibraryDatabase.open(at: temporary.url)
        store.logRestartFrames = 256  // 1 MB of 4 KiB pages

        // A reader that always holds a snapshot: each new one taken before the last is let go.
        let stop = Atomic(false)
        let reads = Atomic(0)
        let reader = Thread {
            var held = try? store.makeSnapshot()
            while !stop.load(ordering: .relaxed) {
                let next = try? store.makeSnapshot()
                _ = try? next?.assets(uuids: [uuid])
                held = next
                reads.add(1, ordering: .relaxed)
                usleep(200)
            }
            _ = held
        }
        reader.start()
        defer { stop.store(true, ordering: .relaxed) }

        for index in 0..<1_500 {
            try Self.favorite(store, uuid, index % 2 == 0)
        }
        stop.store(true, ordering: .relaxed)
        let log = temporary.url.appendingPathComponent("database/Photos.sqlite-wal")
        let size = (try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
        #expect(reads.load(ordering: .relaxed) > 100, "the reader ran alongside the commits")
        // Each commit adds ~8 KB: unbounded, 1,500 make ~12 MB (measured); restarted past 1 MB,
        // checked every 64 commits, the log stays under 2 MB.
        #expect(size < 4 << 20, "write-ahead log: \(size) bytes after 1,500 commits")
    }
}
