// swift-tools-version:6.1
import PackageDescription

/// Settings shared by every Swift target: Swift 6 language mode with strict concurrency
/// (the default in Swift 6), `any` spelled out for existentials, and imports internal unless a
/// file says `public import`, so no dependency leaks into a public API by accident.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PhotoKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Photos", targets: ["Photos"]),
        // `PHPhotoLibrary(database:files:)`: libraries on PostgreSQL (its own product: programs
        // using only SQLite never build the PostgreSQL client).
        .library(name: "PhotosPostgres", targets: ["PhotosPostgres"]),
        // `PHPhotoLibrary(url:originals:)`: originals in S3 buckets (its own product: programs
        // keeping originals in folders never build an HTTP client).
        .library(name: "PhotosS3", targets: ["PhotosS3"]),
        .executable(name: "photos", targets: ["PhotosCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // swift-configuration support is not used; leaving its trait off skips building it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // libvips, from Debian's libvips-dev, with a C shim for its variadic calls.
        // Its headers include glib's, found through `pkg-config glib-2.0` (glib's include
        // folders, nothing else). Not `pkgConfig: "vips"`: vips.pc's Cflags carry `-pthread`
        // (from gio), which SwiftPM drops with a "prohibited flag" warning on every build; the
        // headers need only glib's folders, and vips' own are in /usr/include. A consumer's
        // machine needs libvips-dev (which brings libglib2.0-dev) and pkg-config.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "glib-2.0",
            providers: [.apt(["libvips-dev", "pkg-config"])]
        ),
        // A Mutex on pthread locks, which ThreadSanitizer sees (the standard library's uses raw
        // futex calls on Linux); every layer locks with it.
        .target(
            name: "PhotosLocking",
            swiftSettings: swiftSettings
        ),
        // Decoding, metadata, thumbnails and encoding over libvips. Knows nothing of PhotoKit.
        .target(
            name: "Imaging",
            dependencies: ["CVips", "PhotosLocking"],
            swiftSettings: swiftSettings
        ),
        // SHA-256 from OpenSSL's libcrypto (Debian's libssl-dev), for content hashes of originals.
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // A small S3 client (Signature V4, PUT with a checksum, multipart, ranged GET, HEAD,
        // DELETE, ListObjectsV2, retries) on async-http-client and swift-crypto, configured as
        // AWS's tools are. Knows nothing of PhotoKit (Soto is not among this machine's packages).
        .target(
            name: "S3",
            dependencies: [
                "PhotosLocking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Apple's `UTType`: identifiers, conformance, filename extensions and MIME types from a
        // table of its own (no system type database on Linux).
        .target(
            name: "UniformTypeIdentifiers",
            swiftSettings: swiftSettings
        ),
        // The CoreLocation types PhotoKit's signatures use, and CLGeocoder over the offline
        // gazetteer (which the store also names moments' places from).
        .target(
            name: "CoreLocation",
            dependencies: ["PhotosLocking"],
            swiftSettings: swiftSettings
        ),
        // Core Graphics' bitmap, colour space and affine transform types, under Core Image,
        // AVFoundation and Photos. It depends on no C library (CGImage's libvips pixels are
        // attached in CoreImage): GRDB imports any module named CoreGraphics it can find
        // (`#if canImport(CoreGraphics)`, for CGFloat), and in a clean parallel build it may
        // find this one, so this one must compile for GRDB without libvips' headers.
        .target(
            name: "CoreGraphics",
            dependencies: ["_Testing_CoreGraphics"],
            swiftSettings: swiftSettings
        ),
        // Empty: the cross-import overlay Swift Testing looks for when a file imports Testing
        // and CoreGraphics, which Linux toolchains don't ship (see its one file).
        .target(
            name: "_Testing_CoreGraphics",
            swiftSettings: swiftSettings
        ),
        // Core Image on libvips: CIImage recipes, CIFilter's catalogue, CIContext.
        .target(
            name: "CoreImage",
            dependencies: ["CoreGraphics", "Imaging", "CoreImageSubmodules", "_Testing_CoreImage"],
            swiftSettings: swiftSettings
        ),
        // A Clang module named CoreImage with Apple's empty `CIFilterBuiltins` submodule, so
        // `import CoreImage.CIFilterBuiltins` compiles; the Swift CoreImage module is its overlay
        // (see its module.modulemap).
        .target(
            name: "CoreImageSubmodules"
        ),
        // Empty: Swift Testing's cross-import overlay for CoreImage (see its one file).
        .target(
            name: "_Testing_CoreImage",
            swiftSettings: swiftSettings
        ),
        // Stand-ins for Core Media's time types (`CMTime`, `CMTimeRange`).
        .target(
            name: "CoreMedia",
            swiftSettings: swiftSettings
        ),
        // Stand-ins for the AVFoundation types PhotoKit's video requests use, backed by
        // Debian's `ffmpeg`/`ffprobe` run as processes (nothing to link; see ARCHITECTURE.md).
        .target(
            name: "AVFoundation",
            dependencies: ["CoreMedia", "CoreGraphics", "CoreImage", "Imaging", "PhotosLocking"],
            swiftSettings: swiftSettings
        ),
        // The library on disk: SQLite through GRDB, `package` access only.
        .target(
            name: "PhotosStore",
            dependencies: ["CCrypto", "CoreLocation", "PhotosLocking", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // The library on PostgreSQL (issue 20): the same store for several `photos serve`
        // instances, through vapor/postgres-nio. Its own target, so programs using only SQLite
        // never build the PostgreSQL client.
        .target(
            name: "PhotosStorePostgres",
            dependencies: [
                "PhotosStore",
                "CoreLocation",
                "PhotosLocking",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The PhotoKit API with Apple's names.
        .target(
            name: "Photos",
            dependencies: [
                "PhotosStore", "Imaging", "CoreGraphics", "CoreImage", "CoreLocation", "AVFoundation", "UniformTypeIdentifiers", "PhotosLocking",
                .product(name: "Logging", package: "swift-log"),
                // bcrypt for people's passwords (a C implementation and its wrapper, nothing more).
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            swiftSettings: swiftSettings
        ),
        // PhotoKit on a PostgreSQL library: `PHPhotoLibrary(database:files:)`.
        .target(
            name: "PhotosPostgres",
            dependencies: ["Photos", "PhotosStore", "PhotosStorePostgres"],
            swiftSettings: swiftSettings
        ),
        // PhotoKit with originals in S3 buckets: the S3 client registered as the library's
        // object store.
        .target(
            name: "PhotosS3",
            dependencies: ["Photos", "S3", "PhotosLocking", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        // `photos serve`: the HTTP API, live updates and the web gallery (Hummingbird 2); uses
        // the public Photos API only.
        .target(
            name: "PhotosServer",
            dependencies: [
                "Photos",
                "PhotosLocking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Gallery"), .copy("OpenAPI")],
            swiftSettings: swiftSettings
        ),
        // The `photos` command-line tool; uses the public Photos API only.
        .executableTarget(
            name: "PhotosCLI",
            dependencies: [
                "Photos",
                "Imaging",
                "PhotosPostgres",
                "PhotosS3",
                "PhotosStore",
                "PhotosServer",
                "PhotosLocking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Shared test scaffolding: temporary libraries, generated photos, fetched fixtures.
        .target(
            name: "PhotosTestSupport",
            dependencies: [
                "Photos", "PhotosStore", "Imaging", "PhotosLocking", "PhotosPostgres", "PhotosStorePostgres",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AVFoundationTests",
            dependencies: ["AVFoundation", "Imaging", "PhotosTestSupport", "PhotosLocking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CoreImageTests",
            dependencies: ["CoreImage", "Imaging", "PhotosTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CoreLocationTests",
            dependencies: ["CoreLocation", "PhotosTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UniformTypeIdentifiersTests",
            dependencies: ["UniformTypeIdentifiers", "Imaging"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "S3Tests",
            dependencies: ["S3", "PhotosTestSupport", "PhotosLocking", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotosS3Tests",
            dependencies: ["PhotosS3", "Photos", "S3", "PhotosStore", "PhotosTestSupport", "PhotosLocking", "Imaging"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ImagingTests",
            dependencies: ["Imaging", "PhotosTestSupport", "PhotosLocking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotosStorePostgresTests",
            dependencies: [
                "PhotosStorePostgres", "PhotosStore", "PhotosTestSupport", "PhotosLocking", "Photos", "PhotosPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotosStoreTests",
            dependencies: ["PhotosStore", "PhotosTestSupport", "PhotosLocking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotosTests",
            dependencies: [
                "Photos", "PhotosStore", "Imaging", "PhotosTestSupport", "PhotosLocking", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotosServerTests",
            dependencies: [
                "PhotosServer", "Photos", "PhotosPostgres", "PhotosStorePostgres", "PhotosS3", "S3", "Imaging", "PhotosTestSupport",
                "PhotosLocking", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotosCLITests",
            dependencies: ["Photos", "Imaging", "PhotosS3", "S3", "PhotosTestSupport", "PhotosLocking"],
            // What AssetJSONOutputTests compares the CLI's and the API's JSON with, read by path.
            exclude: ["AssetJSONOutputs"],
            swiftSettings: swiftSettings
        ),
    ]
)

// `make fuzz` builds libFuzzer targets over the parsers that read untrusted input (Fuzz/, see
// docs/reliability.md). Added only when asked for, as the docs plugin is: they have no `main`
// (libFuzzer links its own), so they build only with `-sanitize=fuzzer`, and a package that
// depends on this one never sees them. `@testable import` reaches the parsers, which are
// internal; scripts/fuzz.sh builds with `-enable-testing`.
if Context.environment["PHOTOKIT_FUZZ"] != nil {
    func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(
            name: name, dependencies: dependencies, path: "Fuzz/\(name)",
            swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])])
    }
    package.targets += [
        fuzzTarget("FuzzTIFF", ["Imaging"]),
        fuzzTarget("FuzzJPEG", ["Imaging"]),
        fuzzTarget("FuzzPNG", ["Imaging"]),
        fuzzTarget("FuzzISOBMFF", ["Imaging"]),
        fuzzTarget("FuzzQuickTime", ["Imaging"]),
        fuzzTarget("FuzzAppleMakerNote", ["Imaging"]),
        fuzzTarget("FuzzProbe", ["Imaging"]),
        fuzzTarget("FuzzPredicate", ["Photos", "PhotosTestSupport"]),
        fuzzTarget("FuzzQuery", ["PhotosServer", "Photos"]),
        fuzzTarget("FuzzMultipart", ["PhotosServer", "PhotosTestSupport", .product(name: "NIOCore", package: "swift-nio")]),
    ]
}

// `make docs` builds the `Photos` documentation with swift-docc-plugin. Added only when asked
// for (as GRDB does), so a package that depends on this one never resolves the plugin.
if Context.environment["PHOTOKIT_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
