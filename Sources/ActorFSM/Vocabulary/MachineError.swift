/// Why a machine did not process an event, or why processing failed.
///
/// The error names the machine, and carries the event's record when the event was processed
/// (an action failed) or stopped unprocessed:
///
/// ```swift
/// do {
///     try await machine.send(.coin)
/// } catch {
///     if error.kind == .actionFailed, let record = error.record {
///         print("machine \(error.machineID) stayed \(record.target): \(error.underlying!)")
///     }
/// }
/// ```
public struct MachineError<Definition: MachineDefinition>: Error, Sendable, CustomStringConvertible {
    /// The kinds of machine error.
    public typealias Kind = MachineErrorKind

    /// What went wrong. Compare with `==`; new kinds may be added.
    public let kind: Kind
    /// The machine that refused the event or failed; for `.unknownMachine` and
    /// `.duplicateMachine`, the id asked of the supervisor.
    public let machineID: Definition.ID
    /// The event's record: with outcome `.failed` for `.actionFailed`, or `.stopped` for an event
    /// the machine had taken up when it stopped. `nil` for an event that was refused, and for a
    /// `send` whose event still waited in the inbox when `stop()` answered it.
    public let record: TransitionRecord<Definition>?
    /// Why the supervisor, not the machine, refused, if it did.
    package let supervisorShutDown: Bool
    /// The store's or the recovery's error, for `.notDurable`.
    package let cause: (any Error)?

    @usableFromInline
    package init(_ kind: Kind, machineID: Definition.ID, record: TransitionRecord<Definition>? = nil,
         supervisorShutDown: Bool = false, cause: (any Error)? = nil) {
        self.kind = kind
        self.machineID = machineID
        self.record = record
        self.supervisorShutDown = supervisorShutDown
        self.cause = cause
    }

    /// The error an action threw, for `.actionFailed`; for `.notDurable`, the store's
    /// `StoreError` or the recovery's `DurabilityError` (both from `ActorFSMDurability`); the
    /// supervisor's escalation, for `.stopped` after one shut the supervisor down.
    public var underlying: (any Error)? {
        if let cause { return cause }
        if case .failed(let error)? = record?.outcome { return error }
        return nil
    }

    /// A sentence that says what happened and what to do.
    public var description: String {
        let machine = "machine \(machineID)"
        let event = record.map { " (\($0))" } ?? ""
        return switch kind.code {
        case .stopped where supervisorShutDown:
            "the supervisor is shut down and takes no more events (\(machine))\(cause.map { ": \($0)" } ?? "")"
        case .stopped: "\(machine) is stopped or shutting down and accepts no more events\(event)"
        case .inboxFull: "\(machine)'s inbox is full; use send or post, which wait for room, or raise inboxCapacity"
        case .reentrantSend:
            "an action awaited send on its own machine, \(machine), which would wait for itself forever; use context.tryPost for follow-up events"
        case .actionFailed: "an action of \(machine) failed: \(underlying.map { "\($0)" } ?? "unknown error")\(event)"
        case .cancelled: "the sending task was cancelled before \(machine) took the event"
        case .unknownMachine: "the supervisor has no machine with id \(machineID)"
        case .duplicateMachine: "the supervisor already has a machine with id \(machineID)"
        case .paused:
            "\(machine) is paused and takes no new events until it is resumed; its queued events wait"
        case .notDurable:
            "\(machine) could not write to or read from its store: \(underlying.map { "\($0)" } ?? "unknown error")\(event)"
        }
    }
}

/// The kinds of ``MachineError``, the same for every machine definition.
public struct MachineErrorKind: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    package enum Code: Sendable, Hashable, CaseIterable {
        case stopped, inboxFull, reentrantSend, actionFailed, cancelled, unknownMachine, duplicateMachine, notDurable, paused
    }
    @usableFromInline let code: Code

    @usableFromInline package init(code: Code) { self.code = code }

    /// The machine is stopped, or shutting down, and takes no new event.
    public static let stopped = Self(code: .stopped)
    /// The inbox is full and the event was refused (only `tryPost` and follow-ups refuse; `send` and `post` wait).
    public static let inboxFull = Self(code: .inboxFull)
    /// An action awaited `send` on its own machine: waiting would deadlock.
    public static let reentrantSend = Self(code: .reentrantSend)
    /// An action threw; the machine applied its failure policy.
    public static let actionFailed = Self(code: .actionFailed)
    /// The sender's task was cancelled while its event waited; the event was withdrawn.
    public static let cancelled = Self(code: .cancelled)
    /// A supervisor has no machine with the id given.
    public static let unknownMachine = Self(code: .unknownMachine)
    /// A supervisor already has a machine with the id given to `spawn`.
    public static let duplicateMachine = Self(code: .duplicateMachine)
    /// A durable machine's store failed: the transition completed in memory but is not durable
    /// (or the machine could not be restored). ``MachineError/underlying`` says why.
    public static let notDurable = Self(code: .notDurable)
    /// The machine is paused (``Machine/pause(reason:)``) and takes no new event until it is resumed.
    public static let paused = Self(code: .paused)

    /// The kind's name.
    public var description: String { "\(code)" }
}
