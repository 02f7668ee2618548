import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOPosix
import PhotosLocking
import PhotosServer
import PhotosTestSupport
import Testing

/// CPU-heavy and blocking work (renders, encodes, edits, commits) runs on the server's work
/// pools, never where request handlers run: in `photos serve` those are the event loops
/// (``ServerRuntime``), which also answer cached thumbnails, so an edit rendered there would
/// stall every connection of its loop.
@Suite("Server heavy work off the event loops")
struct EventLoopTests {
    /// Edits held inside their renders (one per core, so inline renders would hold every
    /// thread handlers run on) while a cached thumbnail and a small API request on the same
    /// server are answered; then the edits go on and are applied. Every heavy job ran on a
    /// thread that is neither an event loop nor running a Swift task.
    @Test(.timeLimit(.minutes(2 * TestTimeScale.factor))) func heavyWorkLeavesTheLoopsFree() async throws {
        let held = max(2, min(4, ProcessInfo.processInfo.activeProcessorCount))
        let hold = WorkHold(holding: "edit")
        let fixture = try ServerFixture(photos: held + 1, height: 480, delegate: EventDelegate(workWillRun: { hold.probe($0) }))
        let configuration = ServerConfiguration()
        let token = fixture.readWrite
        let thumbnail = "/api/assets/\(ServerFixture.uuid(fixture.assets[held]))/image?w=64&h=64"
        try await fixture.withServer(configuration, live: true) { client in
            let port = try #require(client.port)
            // Rendered and encoded once; answered from memory after that.
            let first = try await client.call(.get, thumbnail, token: token)
            #expect(first.status == .ok)

            let edits = try (0..<held).map { _ in try RawConnection(port: port, timeout: 60) }
            for (index, connection) in edits.enumerated() {
                let json = #"{"operations":[{"op":"edit","asset":"\#(ServerFixture.uuid(fixture.assets[index]))","rotate":90}]}"#
                try connection.send(
                    "POST /api/changes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)")
            }
            // The event: every edit is inside its render, held there.
            var entered = 0
            for await _ in hold.entries {
                entered += 1
                if entered == held { break }
            }

            // Meanwhile, on new connections: the cached thumbnail and a small API request.
            let cached = try RawConnection(port: port, timeout: 10)
            try cached.send("GET \(thumbnail) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n")
            let cachedResponse = try await cached.readResponse()
            #expect(cachedResponse.status == 200)
            #expect(cachedResponse.body == Array(first.body.readableBytesView))
            let small = try RawConnection(port: port, timeout: 10)
            try small.send(
                "GET /api/assets/\(ServerFixture.uuid(fixture.assets[held])) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n")
            #expect(try await small.readResponse().status == 200)
            #expect(hold.stillHeld == held, "the edits were still held while the small requests were answered")

            hold.release()
            for connection in edits {
                let response = try await connection.readResponse()
                #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            }
        }
        let runs = hold.runs
        #expect(Set(runs.map(\.job)).isSuperset(of: ["encode", "edit", "commit"]), "jobs seen: \(runs.map(\.job))")
        for run in runs {
            #expect(!run.onEventLoop, "'\(run.job)' ran on an event loop")
            #expect(!run.inTask, "'\(run.job)' ran inline in a Swift task (in photos serve: on an event loop)")
        }
    }
}

/// The server's heavy-work probe: records where each job runs and holds the jobs of one name
/// until released (at most 30 s, so a server that runs them where handlers run fails the
/// test instead of hanging it).
final class WorkHold: Sendable {
    struct Run: Sendable {
        let job: String
        let onEventLoop: Bool
        let inTask: Bool
    }

    let entries: AsyncStream<Void>
    private let entered: AsyncStream<Void>.Continuation
    private let holding: String
    private let state = Mutex<(runs: [Run], held: Int, released: Bool)>(([], 0, false))
    private let gate = DispatchSemaphore(value: 0)

    init(holding: String) {
        self.holding = holding
        (entries, entered) = AsyncStream.makeStream()
    }

    var runs: [Run] { state.withLock { $0.runs } }
    var stillHeld: Int { state.withLock { $0.held } }

    func probe(_ job: String) {
        let run = Run(
            job: job, onEventLoop: MultiThreadedEventLoopGroup.currentEventLoop != nil, inTask: withUnsafeCurrentTask { $0 != nil })
        let hold = state.withLock { state in
            state.runs.append(run)
            guard job == holding, !state.released else { return false }
            state.held += 1
            return true
        }
        guard hold else { return }
        entered.yield()
        _ = gate.wait(timeout: .now() + 30)
        state.withLock { $0.held -= 1 }
    }

    func release() {
        let count = state.withLock { state in
            state.released = true
            return state.held
        }
        for _ in 0..<count { gate.signal() }
    }
}
