// swift-tools-version:6.1
import PackageDescription

/// Benchmarks for PhotoKit for Linux, kept out of the main package so that its dependencies and
/// release builds never touch the library's own build. Each executable measures the public
/// `Photos` API side by side with a peer (the `sqlite3` command; for images vipsthumbnail,
/// ImageMagick, Pillow and a libjpeg-turbo decode floor) and reports ratios.
///
/// Run `Benchmarks/run-store-benchmark.sh` or `Benchmarks/run-image-benchmark.sh`; see
/// `docs/performance.md` for the figures.
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "PhotoKit", path: "..")
    ],
    targets: [
        // glibc's mallinfo2/malloc_trim, which the Glibc module doesn't export.
        .target(name: "CMallocStats"),
        // What both benchmarks need: a monotonic clock, command-line and failure errors.
        .target(name: "BenchmarkSupport", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .executableTarget(
            name: "StoreBenchmark",
            dependencies: [
                "CMallocStats", "BenchmarkSupport", .product(name: "Photos", package: "PhotoKit"),
                .product(name: "PhotosPostgres", package: "PhotoKit"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
        .executableTarget(
            name: "ImageBenchmark",
            dependencies: ["CMallocStats", "BenchmarkSupport", .product(name: "Photos", package: "PhotoKit")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
        .executableTarget(
            name: "CoreImageBenchmark",
            dependencies: [.product(name: "Photos", package: "PhotoKit")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
