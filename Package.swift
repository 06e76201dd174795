// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ActorFSM",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ActorFSM", targets: ["ActorFSM"]),
        .library(name: "ActorFSMTesting", targets: ["ActorFSMTesting"]),
    ],
    targets: [
        .target(name: "ActorFSM", path: "Sources/ActorFSM"),
        .target(name: "ActorFSMTesting", dependencies: ["ActorFSM"], path: "Sources/ActorFSMTesting"),
        .target(name: "ExampleSchemas", dependencies: ["ActorFSM"], path: "Examples/Shared"),
        .executableTarget(name: "turnstile", dependencies: ["ActorFSM", "ExampleSchemas"], path: "Examples/Turnstile"),
        .executableTarget(name: "order-workflow", dependencies: ["ActorFSM"], path: "Examples/OrderWorkflow"),
        .executableTarget(name: "feedback-loop", dependencies: ["ActorFSM"], path: "Examples/FeedbackLoop"),
        .executableTarget(name: "fsm-diagram", dependencies: ["ActorFSM", "ExampleSchemas"], path: "Examples/Diagram"),
        .executableTarget(name: "fsm-benchmarks", dependencies: ["ActorFSM"], path: "Sources/fsm-benchmarks"),
        .testTarget(name: "ActorFSMTests", dependencies: ["ActorFSM", "ActorFSMTesting", "ExampleSchemas"],
                    path: "Tests/ActorFSMTests",
                    exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
