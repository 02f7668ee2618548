import Foundation
import PhotosTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `photos serve` as a process: what it sets up for itself.
@Suite("photos serve", .blocking)
struct ServeCommandTests {
    /// After an image is rendered and encoded, the threads that did it run at nice +10 (or what
    /// `--background-niceness` says) and the
    /// event loops at the process's own priority (0), so cached answers win the CPU from
    /// renders. (Dispatch runs its user-initiated work at nice -2 on Linux: above the loops, as
    /// the image manager's renders ran before.) Read from /proc: each thread's name and nice.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "needs Linux's /proc"),
        arguments: [nil, 4] as [Int?])
    func heavyWorkRunsBelowTheEventLoops(backgroundNiceness: Int?) async throws {
        let nice = backgroundNiceness ?? 10
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Library.photoslibrary", isDirectory: true)
        let photo = try #require(try Fixtures.kphotoalbum().first)
        try #require(CLIRunner.run(["import", photo.path], library: library).status == 0)
        let listing = try CLIRunner.run(["ls", "--json"], library: library).stdout
        let assets = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]])
        let uuid = try #require((assets.first?["localIdentifier"] as? String)?.prefix(36))

        let server = try ServerProcess(
            arguments: ["serve", "--open", "--port", "0", "--library", library.path]
                + (backgroundNiceness.map { ["--background-niceness", "\($0)"] } ?? []))
        defer { server.stop() }
        let before = Self.threads(of: server.process.processIdentifier)
        // NIO's threads: the event loops ("NIO-SGLTN-…" in `photos serve`, NIO's singletons).
        #expect(before.contains { $0.name.hasPrefix("NIO-") }, "no event loop among \(before)")
        // Before any request nothing runs at the background niceness but the text recognition
        // `photos serve` starts at launch ("TextRecog.N", and the libvips workers it starts).
        #expect(!before.contains { $0.nice == nice && !$0.name.hasPrefix("TextRecog") && !$0.name.hasPrefix("libvips") }, "before any work: \(before)")

        // Not cached: rendered by the image manager, encoded on the server's work pool. The
        // threads are watched on a thread of their own while it happens: Dispatch's and
        // libvips' idle threads end after a few seconds, and this test's continuation may wait
        // longer than that for a concurrency thread when the suite runs.
        let watch = ThreadWatch(pid: server.process.processIdentifier)
        var image = try #require(URLComponents(string: "http://127.0.0.1:\(server.port)/api/assets/\(uuid)/image"))
        image.queryItems = [URLQueryItem(name: "width", value: "300"), URLQueryItem(name: "height", value: "300")]
        let (data, response) = try await URLSession.shared.data(from: try #require(image.url))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data.starts(with: [0xFF, 0xD8]))

        let seen = watch.stop()
        let loops = seen.filter { $0.name.hasPrefix("NIO-") }
        #expect(!loops.isEmpty && loops.allSatisfy { $0.nice == 0 }, "event loops: \(loops)")
        let pool = seen.filter { $0.name.hasPrefix("TP-") && $0.nice == nice }
        #expect(!pool.isEmpty, "no work-pool thread at nice \(nice) (the encode): \(seen)")
        // Dispatch's threads are named after their queues' QoS ("…user-initiated-qos").
        let renders = seen.filter { $0.name.contains("qos") && $0.nice == nice }
        #expect(!renders.isEmpty, "no Dispatch thread at nice \(nice) (the image manager's render): \(seen)")
        // libvips's workers take the nice value of the thread that started them.
        let workers = seen.filter { $0.name.hasPrefix("libvips") }
        #expect(!workers.isEmpty && workers.allSatisfy { $0.nice == nice }, "libvips workers: \(workers)")
    }

    /// The server reads its database with `pread` unless told to map it: each of its
    /// connections would map the file anew, and every mapped page read counts in the server's
    /// resident set (issue 19: 421 MB of a 1,000,000-asset library after 600 s of use). Read
    /// from /proc/PID/maps after a page of the library was served.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "needs Linux's /proc"),
        arguments: [nil, 64] as [Int?])
    func theDatabaseIsMappedOnlyWhenAsked(megabytes: Int?) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Library.photoslibrary", isDirectory: true)
        let photo = try #require(try Fixtures.kphotoalbum().first)
        try #require(CLIRunner.run(["import", photo.path], library: library).status == 0)
        // A library whose rows are in the database file, not only in its write-ahead log
        // (which SQLite reads with pread, mapped or not): restored from a backup.
        let backup = folder.appendingPathComponent("backup", isDirectory: true)
        let restored = folder.appendingPathComponent("Restored.photoslibrary", isDirectory: true)
        try #require(CLIRunner.run(["backup", backup.path], library: library).status == 0)
        try #require(CLIRunner.run(["restore", backup.path, "--to", restored.path], library: library).status == 0)
        let server = try ServerProcess(
            arguments: ["serve", "--open", "--port", "0", "--library", restored.path]
                + (megabytes.map { ["--database-map", "\($0)"] } ?? []))
        defer { server.stop() }
        // The photo's text is read at launch (a write): the page is read once that is done.
        let deadline = Date().addingTimeInterval(60)
        while try !CLIRunner.run(["cache", "status"], library: restored).stdout.contains("1 photos: 1 read"), Date() < deadline {
            usleep(100_000)
        }
        let page = try #require(URL(string: "http://127.0.0.1:\(server.port)/api/assets?limit=10"))
        let (data, response) = try await URLSession.shared.data(from: page)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"count\":1"))
        // Read to its end: Foundation takes a /proc file's size (0) as a hint and stops short of
        // a long one (a server that has loaded libvips has hundreds of mappings).
        let reader = try #require(FileHandle(forReadingAtPath: "/proc/\(server.process.processIdentifier)/maps"))
        let maps = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        let mapped = maps.split(separator: "\n").filter { $0.hasSuffix("/database/Photos.sqlite") }
        if megabytes == nil {
            #expect(mapped.isEmpty, "mapped: \(mapped)")
        } else {
            #expect(!mapped.isEmpty, "the database isn't mapped")
        }
        let refused = try CLIRunner.run(["serve", "--open", "--port", "0", "--database-map", "-1"], library: library)
        #expect(refused.status != 0 && refused.stderr.contains("--database-map"))
    }

    struct ThreadInfo: CustomStringConvertible {
        var id = ""
        let name: String
        let nice: Int
        var description: String { "\(name)=\(nice)" }
    }

    /// Reads a process's threads every 2 ms on a thread of its own until stopped; each thread
    /// as last seen, with the highest nice value it was seen at.
    final class ThreadWatch: @unchecked Sendable {
        // @unchecked Sendable: `seen` and `stopped` are only touched under `lock`.
        private let lock = NSLock()
        private var seen: [String: ThreadInfo] = [:]
        private var stopped = false
        private let done = DispatchSemaphore(value: 0)

        private let pid: Int32

        init(pid: Int32) {
            self.pid = pid
            Thread { [self] in
                while !lock.withLock({ stopped }) {
                    sample()
                    usleep(2_000)
                }
                done.signal()
            }.start()
        }

        private func sample() {
            let now = ServeCommandTests.threads(of: pid)
            lock.withLock {
                for thread in now {
                    let nice = max(thread.nice, seen[thread.id]?.nice ?? Int.min)
                    seen[thread.id] = ThreadInfo(id: thread.id, name: thread.name, nice: nice)
                }
            }
        }

        /// What was seen, with a last look taken now: the watching thread's latest look may
        /// predate threads started for the work just answered (a pool's, lowered for good).
        func stop() -> [ThreadInfo] {
            lock.withLock { stopped = true }
            done.wait()
            sample()
            return lock.withLock { Array(seen.values) }
        }
    }

    /// The threads of process `pid`, from /proc/PID/task/TID/stat (the nice value is field 19;
    /// the name, in parentheses, may hold spaces).
    static func threads(of pid: Int32) -> [ThreadInfo] {
        let tasks = URL(fileURLWithPath: "/proc/\(pid)/task")
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks.path)) ?? []
        return ids.compactMap { id in
            guard let stat = try? String(contentsOf: tasks.appendingPathComponent("\(id)/stat"), encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // fields[0] is field 3 (the state), so field 19 is fields[16].
            guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
            return ThreadInfo(id: id, name: String(stat[stat.index(after: open)..<close]), nice: nice)
        }
    }
}

/// A database URL's password given on the command line is not left for `ps` to show (issue
/// 35): `photos serve --database postgresql://postgres:PASSWORD@...` runs with the password
/// overwritten in its argument memory, which `/proc/PID/cmdline` reads, and nothing it logs
/// shows it.
@Suite(
    "photos serve and database passwords", .blocking,
    .enabled(if: ThrowawayPostgres.isAvailable, "PostgreSQL's server is not installed (apt install postgresql)"),
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/cmdline"), "needs Linux's /proc"))
struct DatabasePasswordTests {
    @Test func aPasswordInTheURLIsNotInThePsOutput() throws {
        let server = try ThrowawayPostgres()
        let database = try server.createDatabase()
        // Trust authentication: the server never asks for the password, which is only carried.
        let secret = "sekrit-\(UUID().uuidString.prefix(6))"
        let url = "postgresql://postgres:\(secret)@127.0.0.1:\(server.port)\(database.path)?sslmode=disable&password=\(secret)"
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)/Library.photoslibrary")
        defer { try? FileManager.default.removeItem(at: files.deletingLastPathComponent()) }
        let serve = try ServerProcess(arguments: ["serve", "--database", url, "--library", files.path, "--port", "0", "--open"])
        defer { serve.stop() }
        let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(serve.process.processIdentifier)/cmdline"))
        let shown = String(decoding: cmdline.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        #expect(!shown.contains(secret), "\(shown)")
        #expect(shown.contains("postgresql://postgres:\(String(repeating: "*", count: secret.count))@127.0.0.1"), "\(shown)")
        #expect(shown.contains("password=\(String(repeating: "*", count: secret.count))"), "\(shown)")
        // The server reads its library all the same.
        let answer = try Data(contentsOf: URL(string: "http://127.0.0.1:\(serve.port)/api/assets")!)
        #expect(String(decoding: answer, as: UTF8.self).contains("\"count\""))
    }
}
