public import Foundation

/// Real photos fetched by `scripts/fetch-fixtures.sh` (run by `make test`) into
/// `<package root>/.fixtures/`: tests that use them fail, naming the script, when they are missing.
public enum Fixtures {
    /// The package root: the first folder above this file that holds `Package.swift`.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    }()

    public static let folder = packageRoot.appendingPathComponent(".fixtures", isDirectory: true)

    /// Whether the fixtures have been fetched.
    public static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("sample1.jpg").path)
    }

    /// A fixture's URL (whether or not it exists; reading a missing one fails the test).
    public static func url(_ relativePath: String) -> URL { folder.appendingPathComponent(relativePath) }

    /// The 24 KPhotoAlbum demo photos.
    public static func kphotoalbum() throws -> [URL] {
        let folder = folder.appendingPathComponent("kphotoalbum")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }.sorted()
        guard !names.isEmpty else { throw MissingFixtures() }
        return names.map { folder.appendingPathComponent($0) }
    }

    public struct MissingFixtures: Error, CustomStringConvertible {
        public var description: String { "the test photos are missing: run scripts/fetch-fixtures.sh (make fixtures)" }
    }
}
