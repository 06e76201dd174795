// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ActorFSM",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ActorFSM", targets: ["ActorFSM"]),
    ],
    targets: [
        .target(name: "ActorFSM", path: "Sources/ActorFSM"),
        .executableTarget(name: "turnstile", dependencies: ["ActorFSM"], path: "Examples/Turnstile"),
        .executableTarget(name: "fsm-benchmarks", dependencies: ["ActorFSM"], path: "Sources/fsm-benchmarks"),
        .testTarget(name: "ActorFSMTests", dependencies: ["ActorFSM"], path: "Tests/ActorFSMTests"),
    ],
    swiftLanguageModes: [.v6]
)
