// swift-tools-version:6.1
import PackageDescription

/// A package outside PhotoKit for Linux that uses it the way other people's code does: by URL
/// and version, with no extra flags. `scripts/check-consumer.sh` (run by `make test`) makes a
/// git repository of the current checkout tagged 1.0.0, points `PHOTOKIT_URL` at it, builds this
/// package in debug and release, and runs `VersionedClient` against a real library.
///
/// - `UIKit`: minimal UIKit stand-ins for the sample apps (UIImage comes from Photos).
/// - `SampleApps` (Swift 6 mode) and `SampleApps5` (Swift 5 mode, the same files): small apps
///   written the way PhotoKit sample code is written, with runtime checks.
/// - `VersionedClient`: a small PhotoKit program, then the sample apps' checks.
let photoKitURL = Context.environment["PHOTOKIT_URL"] ?? "https://github.com/photokit-linux/photokit.git"

let package = Package(
    name: "VersionedClient",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: photoKitURL, from: "1.0.0")
    ],
    targets: [
        .target(
            name: "UIKit",
            dependencies: [.product(name: "Photos", package: "photokit")]
        ),
        .target(
            name: "SampleApps",
            dependencies: ["UIKit", .product(name: "Photos", package: "photokit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "SampleApps5",
            dependencies: ["UIKit", .product(name: "Photos", package: "photokit")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "VersionedClient",
            dependencies: ["SampleApps", "SampleApps5", .product(name: "Photos", package: "photokit")]
        ),
    ]
)
