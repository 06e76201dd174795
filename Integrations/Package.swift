// swift-tools-version: 6.2
import PackageDescription

// Ready-made integrations of ActorFSM with the server ecosystem's packages: they live here, in
// a package of their own, so that ActorFSM itself depends on nothing.
let package = Package(
    name: "ActorFSMIntegrations",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ActorFSMInstruments", targets: ["ActorFSMInstruments"]),
        .library(name: "ActorFSMLogging", targets: ["ActorFSMLogging"]),
        .library(name: "ActorFSMMetrics", targets: ["ActorFSMMetrics"]),
        .library(name: "ActorFSMTracing", targets: ["ActorFSMTracing"]),
        .library(name: "ActorFSMServiceLifecycle", targets: ["ActorFSMServiceLifecycle"]),
        .library(name: "ActorFSMInspector", targets: ["ActorFSMInspector"]),
        // Serves the web inspector on a store: `actorfsm-inspector --store orders.sqlite`.
        .executable(name: "actorfsm-inspector", targets: ["actorfsm-inspector"]),
    ],
    dependencies: [
        .package(name: "ActorFSM", path: ".."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0", traits: []),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    ],
    targets: [
        .target(name: "ActorFSMInstruments", dependencies: [.product(name: "ActorFSM", package: "ActorFSM")]),
        .target(name: "ActorFSMLogging", dependencies: [
            .product(name: "ActorFSM", package: "ActorFSM"), .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "ActorFSMMetrics", dependencies: [
            .product(name: "ActorFSM", package: "ActorFSM"), .product(name: "ActorFSMDurability", package: "ActorFSM"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        .target(name: "ActorFSMTracing", dependencies: [
            .product(name: "ActorFSM", package: "ActorFSM"), .product(name: "Tracing", package: "swift-distributed-tracing"),
        ]),
        .target(name: "ActorFSMServiceLifecycle", dependencies: [
            .product(name: "ActorFSM", package: "ActorFSM"), "ActorFSMMetrics",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "ActorFSMInspector", dependencies: [
            .product(name: "ActorFSM", package: "ActorFSM"), .product(name: "ActorFSMDurability", package: "ActorFSM"),
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
        ], resources: [
            // The page, its styles and its script, compiled into the binary (`PackageResources`).
            .embedInCode("Page/index.html"), .embedInCode("Page/inspector.css"), .embedInCode("Page/inspector.js"),
        ]),
        .executableTarget(name: "actorfsm-inspector", dependencies: [
            "ActorFSMInspector", .product(name: "ActorFSMSQLite", package: "ActorFSM"),
            .product(name: "ActorFSMPostgres", package: "ActorFSM"), .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .testTarget(name: "IntegrationTests", dependencies: [
            "ActorFSMInspector", .product(name: "ActorFSMSQLite", package: "ActorFSM"),
            .product(name: "ActorFSMPostgres", package: "ActorFSM"), .product(name: "ActorFSMDurability", package: "ActorFSM"), "ActorFSMInstruments", "ActorFSMLogging", "ActorFSMMetrics", "ActorFSMTracing", "ActorFSMServiceLifecycle",
            .product(name: "ActorFSMTesting", package: "ActorFSM"),
            .product(name: "MetricsTestKit", package: "swift-metrics"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
