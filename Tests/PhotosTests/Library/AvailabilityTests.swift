import Foundation
import PhotosLocking
import PhotosPostgres
import PhotosTestSupport
import Testing

@testable import Photos

/// A library whose folder goes away, or whose PostgreSQL server stops, tells its availability
/// observers once, with a reason; the reason clears when it comes back.
@Suite("Library availability")
struct AvailabilityTests {
    final class Recorder: PHPhotoLibraryAvailabilityObserver, @unchecked Sendable {
        let calls = Mutex<[String]>([])
        let told = DispatchSemaphore(value: 0)

        func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary) {
            let reason = (photoLibrary.unavailabilityReason as? PHPhotosError)?.message ?? "no reason"
            calls.withLock { $0.append(reason) }
            told.signal()
        }
    }

    static var quickLooks: PHPhotoLibrary.Configuration {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.availabilityCheckInterval = .milliseconds(100)
        return configuration
    }

    /// Waits until `condition` holds (looking every 50 ms), at most 20 s.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition() {
            guard Date() < deadline else { return false }
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(50))
        }
        return true
    }

    @Test(.enabled(if: !TestStore.isPostgres, "a library folder with its own database: the SQLite pass"))
    func aFolderThatGoesAwayIsReportedAndComesBack() throws {
        let temporary = try TemporaryLibrary(configuration: Self.quickLooks)
        let library = temporary.library
        #expect(library.unavailabilityReason == nil)
        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterAvailabilityObserver(recorder) }

        let away = temporary.url.deletingLastPathComponent().appendingPathComponent("away-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: temporary.url, to: away)
        #expect(recorder.told.wait(timeout: .now() + 20) == .success, "the observer was not told")
        let reason = try #require(library.unavailabilityReason as? PHPhotosError)
        #expect(reason.code == .libraryVolumeOffline && reason.message.contains(temporary.url.path))
        #expect(recorder.calls.withLock { $0.count } == 1)

        try FileManager.default.moveItem(at: away, to: temporary.url)
        #expect(Self.eventually { library.unavailabilityReason == nil })
        #expect(recorder.calls.withLock { $0.count } == 1, "told once per time it went away")

        // Gone again: told again. Unregistered: the reason is worked out when asked.
        try FileManager.default.moveItem(at: temporary.url, to: away)
        #expect(recorder.told.wait(timeout: .now() + 20) == .success)
        library.unregisterAvailabilityObserver(recorder)
        #expect((library.unavailabilityReason as? PHPhotosError)?.code == .libraryVolumeOffline)
        try FileManager.default.moveItem(at: away, to: temporary.url)
        #expect(library.unavailabilityReason == nil)
    }

    @Test(.enabled(if: ThrowawayPostgres.unavailableReason == nil, "\(ThrowawayPostgres.unavailableReason ?? "")"))
    func aDatabaseThatStopsIsReportedAndComesBack() throws {
        let server = try ThrowawayPostgres()
        let files = try TestImages.temporaryDirectory("availability")
        let library = try PHPhotoLibrary(database: try server.createDatabase(), files: files, configuration: Self.quickLooks)
        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterAvailabilityObserver(recorder) }
        #expect(Self.eventually { library.unavailabilityReason == nil })

        server.shutDown(.fast)
        #expect(recorder.told.wait(timeout: .now() + 30) == .success, "the observer was not told")
        let reason = try #require(library.unavailabilityReason as? PHPhotosError)
        #expect(reason.code == .libraryVolumeOffline && reason.message.contains("database"), "\(reason.message)")

        try server.restart()
        #expect(Self.eventually { library.unavailabilityReason == nil }, "\(String(describing: library.unavailabilityReason))")
        #expect(recorder.calls.withLock { $0.count } == 1)
    }
}
