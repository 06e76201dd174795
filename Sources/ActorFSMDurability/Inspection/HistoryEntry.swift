import ActorFSM

/// One stored entry of a machine, decoded without its Swift schema: values appear as the
/// codec wrote them (JSON with the default codec), states by name.
public struct HistoryEntry: Sendable, Codable, Equatable {
    /// What the entry records.
    public enum Kind: String, Sendable, Codable {
        /// The machine's first entry: where it started.
        case created
        /// A transition's completion: the state, data and timers after the event.
        case completed
        /// An event whose asynchronous actions started and have not completed.
        case intent
        /// An operator's act (``HistoryEntry/operation``): the state, data and timers it found.
        case `operator`
        /// Bytes that do not decode: damaged, cut short, or written by a newer release.
        case unreadable
    }

    /// A timer or self-posted event waiting in the entry.
    public struct Pending: Sendable, Codable, Equatable {
        /// `followUp`, `next` or `delayed`.
        public var kind: String
        /// The event, as the codec wrote it.
        public var event: String
        /// When a scheduled event is due, in milliseconds since 1970; `nil` for the others.
        public var due: Int64?
    }

    /// The entry's sequence number.
    public var sequenceNumber: UInt64
    /// What it records.
    public var kind: Kind
    /// The event's outcome: `transitioned`, `unhandled`, `conditionFalse`, `failed` or `stopped`;
    /// `nil` for an intent, whose event has none yet.
    public var outcome: String?
    /// Where the event came from: `send`, `post`, `timeout after 30s`…
    public var origin: String?
    /// The event, as the codec wrote it (JSON text, or base64 for a binary codec).
    public var event: String?
    /// The event's predicates, as `Type #case-position`.
    public var predicates: [String]
    /// The state after the event, by name.
    public var state: String?
    /// The data after the event, as the codec wrote it.
    public var data: String?
    /// When the transition completed, in milliseconds since 1970, if the entry says.
    public var time: Int64?
    /// The fingerprint of the schema that wrote the entry.
    public var fingerprint: String?
    /// The user version of that schema.
    public var schemaVersion: Int?
    /// How many timeouts of the state have fired.
    public var timeoutsFired: Int
    /// Timers and self-posted events still to come.
    public var pending: [Pending]
    /// For an intent whose action waits to retry: the attempt it will make, and when (ms since 1970).
    public var retry: Retry?
    /// The places, among its state's tasks, of the child machines whose ends the machine has
    /// processed since it entered the state.
    public var childrenEnded: [Int]
    /// The keys of child machines the machine left and still has to send their cancelling event.
    public var cancelling: [String]
    /// The ids (store keys) of the durable child machines the state started, in the order of
    /// their places among its tasks.
    public var children: [String]
    /// The former form of ``cancelling``: how many there are. It goes in the next release.
    public var cancellations: Int { cancelling.count }
    /// For an operator's entry: what the operator did, and why.
    public var operation: Operation?
    /// Whether the machine is paused from this entry on (an operator paused it).
    public var isPaused: Bool

    /// An operator's act, as its entry records it.
    public struct Operation: Sendable, Codable, Equatable {
        /// `pause`, `resume`, `cancel`, `retry` or `signal`.
        public var verb: String
        /// The reason the operator gave; empty if none.
        public var reason: String
    }

    /// A retry an intent waits for.
    public struct Retry: Sendable, Codable, Equatable {
        /// The attempt it will make, from 2.
        public var attempt: Int
        /// When, in milliseconds since 1970.
        public var due: Int64
    }
}

extension HistoryEntry {
    /// `entry` decoded, naming its state from `schemas`.
    init(_ entry: JournalEntry, schemas: [StoredSchema]) {
        sequenceNumber = entry.sequenceNumber
        predicates = []
        timeoutsFired = 0
        pending = []
        childrenEnded = []
        cancelling = []
        children = []
        isPaused = false
        guard let payload = JournalPayload(decoding: entry) else {
            kind = .unreadable
            return
        }
        let completed = payload.kind == .completed
        let operation = payload.timers.operation
        // A retry's or a signal's operation stays with the event it processed; the other acts'
        // entries record nothing but the act.
        let isAct = operation.map { !$0.recordsItsEvent } ?? false
        kind = !completed ? .intent : isAct ? .operator : entry.sequenceNumber == 0 ? .created : .completed
        outcome = completed && !isAct ? "\(payload.outcome)" : nil
        origin = isAct ? "operator" : Self.describe(payload.origin)
        self.operation = operation.map { Operation(verb: "\($0.verb)", reason: $0.reason) }
        isPaused = payload.timers.isPaused
        event = payload.event.map { StoredText($0).text }
        predicates = payload.predicates.map { "\($0.typeName) #\($0.ordinal)" }
        fingerprint = StoredSchema.hex(payload.fingerprint)
        schemaVersion = Int(payload.schemaVersion)
        if completed {
            let schema = schemas.first { $0.fingerprint == fingerprint }
            state = schema?.stateName(encoded: payload.state) ?? StoredText(payload.state).name
            data = StoredText(payload.data).text
            time = (isAct ? operation?.time : nil) ?? (payload.timers.lastTransition > 0 ? payload.timers.lastTransition : nil)
            timeoutsFired = Int(payload.timers.timeoutsFired)
            pending = payload.timers.pending.map { event in
                Pending(kind: "\(event.kind)", event: StoredText(event.event).text,
                        due: event.kind == .delayed ? event.deadline / 1_000_000 : nil)
            }
            childrenEnded = (0..<64).filter { payload.timers.childrenEnded & (1 << UInt64($0)) != 0 }
            cancelling = payload.timers.cancels.map(\.key)
            children = payload.timers.children.map(\.key)
        }
        retry = payload.retry.map { Retry(attempt: $0.attempt, due: $0.deadline / 1_000_000) }
    }

    private static func describe(_ origin: StoredOrigin) -> String {
        switch origin.origin {
        case .send: "send"
        case .post: "post"
        case .followUp: "followUp"
        case .next: "next"
        case .timeout(let after): "timeout \(Timeout(after))"
        case .scheduled: "scheduled"
        case .stateTask: "stateTask"
        }
    }
}
