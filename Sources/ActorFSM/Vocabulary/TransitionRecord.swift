/// What happened to one event: every event a machine accepts gets exactly one record.
public struct TransitionRecord<Definition: MachineDefinition>: Sendable,
    CustomStringConvertible
{
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// The definition's machine id type.
    public typealias ID = Definition.ID
    /// The machine's count of processed events, from 1; records of one machine are in this order.
    public let sequenceNumber: UInt64
    /// The machine's id.
    public let machineID: ID
    /// The state when the event was processed.
    public let source: State
    /// The event; `nil` when a state timeout fired (``origin`` is then ``EventOrigin/timeout(after:)``).
    public let event: Event?
    /// The predicates the event was processed with.
    public let predicates: PredicateContext
    /// The state after the event: the transition's target, or `source` if nothing changed.
    public let target: State
    // Beside the one-byte states of most machines, where it fills padding: a record is copied
    // whole, so every byte counts.
    @usableFromInline package let postponedCount: UInt32
    /// The retries of the transition's actions, beside `postponedCount` in what was padding.
    @usableFromInline package let retryCount: UInt32
    /// What happened.
    public let outcome: Outcome
    /// How many actions ran to completion (exit, transition and entry actions).
    public let actionsRun: Int
    /// Where the transition that fired was declared, if one did.
    public let transitionLocation: SourceLocation?
    /// How the event reached the machine.
    public let origin: EventOrigin
    /// The machine's data after the event, if a subscriber asked for it with
    /// ``Machine/records(buffering:includingData:)``; `nil` otherwise, so that records of
    /// machines nobody asked it of copy no data.
    public let data: Definition.Data?
    /// How many attempts the transition's actions took: 1, plus each time a ``RetryPolicy``
    /// tried an action again after it threw (see ``retry(_:unless:_:)``).
    public var attempts: Int { Int(retryCount) + 1 }
    /// How many times a transition postponed the event before this record (see
    /// ``postpone(fileID:line:)``); 0 for an event handled when it first came.
    public var postponements: Int { Int(postponedCount) }
    @usableFromInline package let accepted: Timestamp
    @usableFromInline package let completed: Timestamp

    /// When the machine accepted the event, on the system's continuous clock. Records read the
    /// real clock even when the machine's timers wait on another one (a `ManualClock` in tests),
    /// so that ``latency`` is the time the event really took.
    public var acceptedAt: ContinuousClock.Instant { accepted.instant }
    /// When processing finished.
    public var completedAt: ContinuousClock.Instant { completed.instant }
    /// How long the event took from acceptance to the end of processing, its wait in the inbox
    /// included. Zero when nobody read the record as it was made (no sender waiting for it, no
    /// subscriber, supervisor listener or instrument): the machine then skips the clock.
    public var latency: Duration { .nanoseconds(completed.nanoseconds(since: accepted)) }

    /// The record of `turn`, which left the machine in `target`.
    @inlinable
    package init(
        _ turn: borrowing EventTurn<Definition>, machineID: ID, target: State, outcome: Outcome, actions: ActionTally,
        transitionLocation: SourceLocation?, completedAt: Timestamp, data: Definition.Data? = nil
    ) {
        self.data = data
        postponedCount = turn.postponements
        retryCount = UInt32(clamping: actions.retries)
        self.sequenceNumber = turn.number
        self.machineID = machineID
        self.source = turn.source
        self.event = turn.event
        self.predicates = turn.predicates
        self.target = target
        self.outcome = outcome
        self.actionsRun = actions.completed
        self.transitionLocation = transitionLocation
        self.origin = turn.origin
        accepted = turn.acceptedAt
        completed = completedAt
    }

    /// Whether this stands for an event postponed on its turn: a value that is published
    /// nowhere, numbered 0 (real records count from 1).
    @inlinable package var isPostponement: Bool { sequenceNumber == 0 }

    /// The event as text, or the timeout's: `coin`, `after 30s`.
    public var eventDescription: String {
        event.map { "\($0)" } ?? origin.timeout.map { Timeout($0).description } ?? "no event"
    }

    /// `#3 gate-7: locked --coin--> unlocked (transitioned)`; `--after 30s-->` for a timeout.
    public var description: String {
        "#\(sequenceNumber) \(machineID): \(source) --\(eventDescription)\(predicates.isEmpty ? "" : " \(predicates)")--> \(target) (\(outcome))"
    }
}

/// What happened to an event.
public enum Outcome: Sendable, CustomStringConvertible {
    /// A transition fired and all its actions ran.
    case transitioned
    /// No transition applied; the reason says why.
    case unhandled(UnhandledReason)
    /// A transition applied but its condition was false; nothing ran.
    case conditionFalse
    /// An action threw; the machine applied its failure policy.
    case failed(any Error)
    /// The machine stopped before it processed the event.
    case stopped

    /// Whether a transition fired and completed.
    public var isTransitioned: Bool { if case .transitioned = self { true } else { false } }

    /// `transitioned`, `unhandled: …`, `conditionFalse`, `failed: …`, `stopped`.
    public var description: String {
        switch self {
        case .transitioned: "transitioned"
        case .unhandled(let reason): "unhandled: \(reason)"
        case .conditionFalse: "conditionFalse"
        case .failed(let error): "failed: \(error)"
        case .stopped: "stopped"
        }
    }
}
