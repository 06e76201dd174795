import ActorFSM
import Foundation
import Logging
import Synchronization

/// A turnstile whose `pass` in the unlocked state fails.
enum Gate: MachineDefinition {
    enum State: String, Hashable, Sendable, Codable { case locked, unlocked }
    enum Event: String, Hashable, Sendable, Codable { case coin, pass, kick }
    typealias ID = String
}

struct Jammed: Error {}

func gateSchema() throws -> Schema<Gate> {
    try Schema<Gate>(initial: .locked) {
        define(.locked) { when(.coin) | then(.unlocked) }
        define(.unlocked) {
            when(.pass) | then(.locked)
            when(.kick) | then(.unlocked) | { _ in throw Jammed() }
        }
    }
}

/// What a log handler was given.
final class LogLines: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let lines = Mutex<[Line]>([])

    func append(_ line: Line) { lines.withLock { $0.append(line) } }

    var all: [Line] { lines.withLock { $0 } }
}

/// A log handler that keeps what it is given in `lines`.
struct KeptLog: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(LogLines.Line(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
    }
}

/// The examples of a page of the docs that a test file of this package compiles, verbatim.
enum GuideBlocks {
    /// Every ```swift block of `page` (a path from the repository's root) that a comment before
    /// it says `file` holds, its lines without indentation, import lines or blank lines.
    static func examples(in page: String, heldBy file: String) throws -> [[String]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var examples: [[String]] = []
        var block: [String]?
        var previous = ""
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            defer { previous = line }
            if block == nil {
                if line == "```swift" && previous.contains("\(file) holds it") { block = [] }
                continue
            }
            if line == "```" {
                examples.append(block ?? [])
                block = nil
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty && !trimmed.hasPrefix("import ") { block?.append(trimmed) }
        }
        return examples
    }

    /// Whether the file at `path` has `lines` one after another, indentation aside.
    static func file(_ path: String, holds lines: [String]) throws -> Bool {
        let here = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return here.indices.contains { start in
            lines.enumerated().allSatisfy { offset, line in start + offset < here.count && here[start + offset] == line }
        }
    }
}
