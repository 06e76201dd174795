import ActorFSM
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
