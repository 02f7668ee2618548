import Foundation
import PhotosTestSupport
import Testing

@Suite("photos cache", .blocking)
struct CacheCommandTests {
    @Test func warmStatusAndTrim() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let folder = temporary.scratch.appendingPathComponent("in", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<3 {
            try TestImages.writeJPEG(to: folder.appendingPathComponent("p\(index).jpg"), width: 1800 + index, height: 1200)
        }
        #expect(try cli.run(["import", folder.path]).status == 0)
        let grid = try cli.run(["cache", "warm", "--size", "256x256"])
        #expect(grid.status == 0, "\(grid.stderr)")
        #expect(grid.stdout.contains("Made 3 derivatives"), "thumbnails only: \(grid.stdout)")
        let warm = try cli.run(["cache", "warm", "--size", "1024x768"])
        #expect(warm.stdout.contains("Made 3 derivatives"), "previews now: \(warm.stdout)")
        let status = try cli.run(["cache", "status"])
        #expect(status.stdout.contains("Thumbnails  3") && status.stdout.contains("Previews    3"))
        let trim = try cli.run(["cache", "trim", "--limit", "0"])
        #expect(trim.stdout.contains("Removed 3 previews; 0 left"))
        #expect(try cli.run(["cache", "trim", "--limit", "lots"]).stderr.contains("give a size like 500M"))
    }
}
