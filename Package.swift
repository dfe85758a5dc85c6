// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "popcornswirl",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "popcornswirl", targets: ["PopcornSwirl"]),
        .executable(name: "bench-mix", targets: ["BenchMix"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/fluent-kit.git", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        // 6.x, as swift-openapi-generator (4.0.0..<7.0.0) resolves it.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // The native app's core (its own package, for an iOS app to depend on alone): built and
        // tested here with the server, against it.
        .package(path: "Clients/PopcornSwirlKit"),
    ],
    targets: [
        .executableTarget(
            name: "PopcornSwirl",
            dependencies: [
                "App",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "PopcornAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
            ],
            resources: [.copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "App",
            dependencies: [
                "PopcornAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Yams", package: "Yams"),
            ],
            resources: [.copy("Resources")]
        ),
        // `scripts/bench --mix`'s load generator: replays a request plan with N connections and
        // reports latency per kind of request.
        .executableTarget(
            name: "BenchMix",
            dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client")],
            path: "Benchmarks/BenchMix"
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App",
                "PopcornAPI",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "CompressNIO", package: "compress-nio"),
                // KitContractTests drive the kit's view models against the server on 127.0.0.1.
                .product(name: "PopcornSwirlKit", package: "PopcornSwirlKit"),
            ],
            // Checked-in descriptions the tests compare with, read through #filePath.
            exclude: [
                "Persistence/schema-sqlite.txt", "Persistence/schema-postgres.txt", "Persistence/seed-demo-offers.txt", "__Snapshots__",
            ],
            resources: [.copy("Fixtures")]
        ),
        // The kit's own tests (sync against a fake API, the store, the middlewares), built with
        // the server's packages: one build for CI instead of a second of its own (12 minutes cold).
        .testTarget(
            name: "PopcornSwirlKitTests",
            dependencies: [
                .product(name: "PopcornSwirlKit", package: "PopcornSwirlKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Clients/PopcornSwirlKit/Tests/PopcornSwirlKitTests"
        ),
    ]
)
