import Foundation
import PhotosTestSupport
import Testing

/// Other packages look for Apple's modules with `#if canImport(...)` and import whatever module
/// of that name the build has made (GRDB does `import CoreGraphics` for `CGFloat`). In one
/// package graph every module lands in one folder, so in a clean parallel build GRDB may find
/// this package's CoreGraphics; it must then compile without the C headers (libvips') that
/// GRDB's compile is not given. CI's clean build failed on exactly that ("missing required
/// module 'CVips'") while CoreGraphics' CGImage held a libvips image type.
@Suite("Apple-named modules import without C headers")
struct AppleNamedModuleTests {
    /// The modules a dependency may find by `canImport`, each with a declaration a client uses.
    static let modules = [
        ("CoreGraphics", "let value: CGFloat = CGRect(x: 0, y: 0, width: 2, height: 1).applying(CGAffineTransform(scaleX: 2, y: 1)).width"),
        ("UniformTypeIdentifiers", "let value = UTType.jpeg.preferredMIMEType"),
        ("CoreLocation", "let value = CLLocation(latitude: 48.85, longitude: 2.35).coordinate"),
        ("CoreMedia", "let value = CMTime(seconds: 1, preferredTimescale: 600)"),
    ]

    @Test(arguments: modules)
    func compilesWithTheModulesFolderOnly(module: String, use: String) throws {
        let modules = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("Modules")
        try #require(
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("\(module).swiftmodule").path),
            "no \(module).swiftmodule beside the test bundle in \(modules.path)")
        let source = try TestImages.temporaryDirectory("module-import").appendingPathComponent("client.swift")
        try "import \(module)\n\(use)\nprint(value)\n".write(to: source, atomically: true, encoding: .utf8)

        // As SwiftPM compiles a dependency that didn't declare this package: only `-I` the
        // modules folder, no `-Xcc -fmodule-map-file` for this package's C modules. A failure
        // throws with the compiler's errors.
        try ExternalTool.run("/usr/bin/env", ["swiftc", "-typecheck", "-swift-version", "5", "-I", modules.path, source.path])
    }
}
