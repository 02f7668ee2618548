import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite("Several processes on one library", .blocking)
struct ConcurrentProcessesTests {
    /// Three `photos import` processes and this process's own change blocks write to one
    /// library at the same time; none may fail with "database is locked".
    @Test func concurrentWritersAllSucceed() async throws {
        let temporary = try TemporaryLibrary()
        let photos = try Fixtures.kphotoalbum()
        let batches = [Array(photos[0..<8]), Array(photos[8..<16]), Array(photos[16..<24])]
        let library = temporary.library

        async let local: Int = Task.detached {
            var albums = 0
            for index in 0..<40 {
                try library.performChangesAndWait {
                    _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Album \(index)")
                }
                albums += 1
            }
            return albums
        }.value
        let outputs = try await withThrowingTaskGroup(of: CLIRunner.Output.self) { group in
            for batch in batches {
                group.addTask {
                    // One file per call: many short transactions interleave with the others.
                    var last = CLIRunner.Output(status: 0, stdout: "", stderr: "")
                    for file in batch {
                        last = try CLIRunner(temporary).run(["import", "--quiet", file.path])
                        if last.status != 0 { return last }
                    }
                    return last
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(try await local == 40)
        for output in outputs {
            #expect(output.status == 0, "\(output.stdout) \(output.stderr)")
            #expect(!output.stderr.contains("locked"))
        }
        library.withCurrent {
            #expect(PHAsset.fetchAssets(with: nil).count == 24)
            #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 40)
        }
    }
}
