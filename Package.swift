// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ActorFSM",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ActorFSM", targets: ["ActorFSM"]),
        .library(name: "ActorFSMDurability", targets: ["ActorFSMDurability"]),
        .library(name: "ActorFSMDistribution", targets: ["ActorFSMDistribution"]),
        .library(name: "ActorFSMTesting", targets: ["ActorFSMTesting"]),
        .library(name: "ActorFSMSQLite", targets: ["ActorFSMSQLite"]),
        .library(name: "ActorFSMPostgres", targets: ["ActorFSMPostgres"]),
        // Reads a store's machines from the command line: counts, listings, histories, changes.
        .executable(name: "actorfsm", targets: ["actorfsm"]),
    ],
    targets: [
        // The layers, each over the one before: the compiler keeps them one-way.
        .target(name: "ActorFSM", path: "Sources/ActorFSM"),
        .target(name: "ActorFSMDurability", dependencies: ["ActorFSM"], path: "Sources/ActorFSMDurability"),
        .target(name: "ActorFSMDistribution", dependencies: ["ActorFSM", "ActorFSMDurability"],
                path: "Sources/ActorFSMDistribution"),
        .target(name: "ActorFSMTesting", dependencies: ["ActorFSM", "ActorFSMDurability"], path: "Sources/ActorFSMTesting"),
        // The system's SQLite: libsqlite3-dev on Debian and Ubuntu, sqlite-devel on Fedora,
        // part of the SDK on macOS.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"]), .brew(["sqlite"])]),
        .target(name: "ActorFSMSQLite", dependencies: ["ActorFSM", "ActorFSMDurability", "CSQLite"], path: "Sources/ActorFSMSQLite"),
        // The system's libpq: libpq-dev on Debian and Ubuntu, libpq-devel on Fedora, libpq on Homebrew.
        .systemLibrary(name: "CPostgreSQL", path: "Sources/CPostgreSQL", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"]), .yum(["libpq-devel"]), .brew(["libpq"])]),
        .target(name: "ActorFSMPostgres", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMDistribution", "CPostgreSQL"], path: "Sources/ActorFSMPostgres"),
        .target(name: "ActorFSMTool", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMSQLite", "ActorFSMPostgres"],
                path: "Sources/ActorFSMTool"),
        .executableTarget(name: "actorfsm", dependencies: ["ActorFSMTool"], path: "Sources/actorfsm"),
        .target(name: "ExampleSchemas", dependencies: ["ActorFSM"], path: "Examples/Shared"),
        .executableTarget(name: "turnstile", dependencies: ["ActorFSM", "ExampleSchemas"], path: "Examples/Turnstile"),
        .executableTarget(name: "order-workflow", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMSQLite", "ActorFSMPostgres", "ActorFSMTesting"],
                          path: "Examples/OrderWorkflow"),
        .executableTarget(name: "feedback-loop", dependencies: ["ActorFSM", "ExampleSchemas"], path: "Examples/FeedbackLoop"),
        .executableTarget(name: "fsm-diagram", dependencies: ["ActorFSM", "ExampleSchemas"], path: "Examples/Diagram"),
        // A process the takeover tests kill: it holds reminders of the fixtures' schema.
        .target(name: "TestFixtures", dependencies: ["ActorFSM"], path: "Tests/Fixtures"),
        .executableTarget(name: "takeover-worker", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMPostgres", "ActorFSMSQLite",
                                                                   "ActorFSMTesting", "TestFixtures"],
                          path: "Tests/TakeoverWorker"),
        // Helpers the test targets share: machines, clocks, gates, stores.
        .target(name: "TestSupport", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMTesting"], path: "Tests/Support"),
        // A PostgreSQL server for the tests that need one, apart, so that no other test links libpq.
        .target(name: "PostgresTestSupport", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMTesting", "ActorFSMPostgres",
                                                            "TestSupport"],
                path: "Tests/PostgresSupport"),
        // One test target per module, and one for the examples of the docs.
        .testTarget(name: "ActorFSMTests", dependencies: ["ActorFSM", "ActorFSMTesting", "ExampleSchemas", "TestSupport"],
                    path: "Tests/ActorFSMTests", exclude: ["Diagrams/Golden"]),
        .testTarget(name: "ActorFSMDurabilityTests", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMTesting",
                                                                   "ActorFSMSQLite", "ActorFSMTool", "TestSupport"],
                    path: "Tests/ActorFSMDurabilityTests"),
        .testTarget(name: "ActorFSMDistributionTests", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMDistribution",
                                                                     "ActorFSMTesting", "ActorFSMPostgres", "ActorFSMSQLite", "ActorFSMTool", "TestFixtures",
                                                                     "TestSupport", "PostgresTestSupport"],
                    path: "Tests/ActorFSMDistributionTests"),
        .testTarget(name: "ActorFSMTestingTests", dependencies: ["ActorFSM", "ActorFSMTesting", "ExampleSchemas"],
                    path: "Tests/ActorFSMTestingTests"),
        // The examples' schemas, exercised by generated paths.
        .testTarget(name: "ExampleTests", dependencies: ["order-workflow", "ActorFSM", "ActorFSMTesting", "ExampleSchemas"],
                    path: "Tests/ExampleTests"),
        .testTarget(name: "DocumentationTests", dependencies: ["ActorFSM", "ActorFSMDurability", "ActorFSMDistribution",
                                                              "ActorFSMTesting", "ActorFSMSQLite", "ActorFSMPostgres",
                                                              "TestSupport"],
                    path: "Tests/DocumentationTests"),
    ],
    swiftLanguageModes: [.v6]
)
