// swift-tools-version: 6.2
import PackageDescription

// The benchmarks of ActorFSM, a package apart so that the library's own package builds none of
// their code: `swift run -c release --package-path Benchmarks fsm-benchmarks`.
let package = Package(
    name: "ActorFSMBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "ActorFSM", path: "..")],
    targets: [
        .executableTarget(
            name: "fsm-benchmarks",
            dependencies: [
                .product(name: "ActorFSM", package: "ActorFSM"),
                .product(name: "ActorFSMDurability", package: "ActorFSM"),
                .product(name: "ActorFSMSQLite", package: "ActorFSM"),
                .product(name: "ActorFSMPostgres", package: "ActorFSM"),
                .product(name: "ActorFSMTesting", package: "ActorFSM"),
            ],
            path: "Sources/fsm-benchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
