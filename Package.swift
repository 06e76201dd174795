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
        .testTarget(name: "ActorFSMTests", dependencies: ["ActorFSM"], path: "Tests/ActorFSMTests"),
    ],
    swiftLanguageModes: [.v6]
)
