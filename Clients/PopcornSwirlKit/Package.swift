// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "PopcornSwirlKit",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        // The generated client's module comes with the kit: an app's code names its types.
        .library(name: "PopcornSwirlKit", targets: ["PopcornSwirlKit", "PopcornSwirlAPI"]),
        .executable(name: "popcorn", targets: ["popcorn"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // The client generated from the server's own spec: `openapi.yaml` here is a symlink to
        // `Sources/PopcornAPI/openapi.yaml` at the repository's root (SpecIsOneFileTests checks it).
        .target(
            name: "PopcornSwirlAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "PopcornSwirlKit",
            dependencies: [
                "PopcornSwirlAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])
                ),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS])
                ),
            ]
        ),
        // The terminal client, on the kit.
        .executableTarget(
            name: "popcorn",
            dependencies: [
                "PopcornSwirlKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "PopcornSwirlKitTests",
            dependencies: [
                "PopcornSwirlKit",
                "PopcornSwirlAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ]
)
