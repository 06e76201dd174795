/// Why a machine did not process an event, or why processing failed.
///
/// ```swift
/// do {
///     try await machine.send(.coin)
/// } catch {
///     if error.kind == .actionFailed { print(error.underlying!, error.detail) }
/// }
/// ```
public struct MachineError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Compare with `==`; new kinds may be added.
    public let kind: Kind
    /// The error an action threw, for `.actionFailed`.
    public let underlying: (any Error)?
    /// A description of the event's transition record, for `.actionFailed`.
    public let detail: String

    @usableFromInline
    init(_ kind: Kind, underlying: (any Error)? = nil, detail: String = "") {
        self.kind = kind
        self.underlying = underlying
        self.detail = detail
    }

    /// A sentence that says what happened and what to do.
    public var description: String {
        switch kind.code {
        case .stopped: "the machine is stopped or finishing and accepts no more events\(detail)"
        case .inboxFull: "the machine's inbox is full; use send or post, which wait for room, or raise inboxCapacity"
        case .reentrantSend:
            "an action awaited send on its own machine, which would wait for itself forever; use context.tryPost for follow-up events"
        case .actionFailed: "an action failed: \(underlying.map { "\($0)" } ?? "unknown error")\(detail)"
        case .cancelled: "the sending task was cancelled before the machine took the event"
        case .unknownMachine: "the supervisor has no machine with this id\(detail)"
        case .duplicateMachine: "the supervisor already has a machine with this id\(detail)"
        }
    }

    /// The kinds of machine error.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Code: Sendable, Hashable {
            case stopped, inboxFull, reentrantSend, actionFailed, cancelled, unknownMachine, duplicateMachine
        }
        let code: Code

        /// The machine is stopped, or finishing, and takes no new event.
        public static let stopped = Kind(code: .stopped)
        /// The inbox is full and the event was refused (only `tryPost` and follow-ups refuse; `send` and `post` wait).
        public static let inboxFull = Kind(code: .inboxFull)
        /// An action awaited `send` on its own machine: waiting would deadlock.
        public static let reentrantSend = Kind(code: .reentrantSend)
        /// An action threw; the machine applied its failure policy.
        public static let actionFailed = Kind(code: .actionFailed)
        /// The sender's task was cancelled while its event waited; the event was withdrawn.
        public static let cancelled = Kind(code: .cancelled)

        /// A supervisor has no machine with the id given.
        public static let unknownMachine = Kind(code: .unknownMachine)
        /// A supervisor already has a machine with the id given to `spawn`.
        public static let duplicateMachine = Kind(code: .duplicateMachine)

        /// The kind's name.
        public var description: String { "\(code)" }
    }
}
