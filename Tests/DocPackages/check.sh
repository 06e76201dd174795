#!/usr/bin/env bash
# Compiles the examples of Docs/Observability.md that need other packages (swift-log,
# swift-metrics, swift-distributed-tracing) against those packages, in a throwaway package that
# depends on this one by path. Usage: Tests/DocPackages/check.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/DocPackages"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "DocPackages",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "$root"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.0.0"),
    ],
    targets: [
        .target(name: "DocPackages", dependencies: [
            .product(name: "ActorFSM", package: "$(basename "$root")"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
# Each ```swift block right after a "<!-- not compiled: needs PACKAGE -->" line becomes a file.
awk -v out="$work/Sources/DocPackages" '
    /^<!-- not compiled: needs / { pending = 1; next }
    pending && /^```swift$/ { count++; file = out "/Snippet" count ".swift"; inside = 1; pending = 0; next }
    inside && /^```$/ { inside = 0; next }
    inside { print > file }
    { pending = 0 }
    END { if (count < 3) { print "expected at least 3 examples, found " count > "/dev/stderr"; exit 1 } }
' "$root/Docs/Observability.md"
ls "$work/Sources/DocPackages"
swift build --package-path "$work"
echo "The examples of Docs/Observability.md compile against swift-log, swift-metrics and swift-distributed-tracing."
