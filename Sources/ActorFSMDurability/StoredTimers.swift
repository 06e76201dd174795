import ActorFSM

/// A machine's timers and self-posted events as stored with every completed entry: enough to
/// arm again, after a restart, exactly what was pending.
struct StoredTimers: Equatable {
    /// When the machine last entered (or re-entered) its state, in nanoseconds since 1970; the
    /// state's timeouts are due that long after it. 0 if the state has no timeouts.
    var enteredAt: Int64 = 0
    /// How many of the state's timeouts, shortest first, have fired since that entry.
    var timeoutsFired: UInt64 = 0
    /// The ticket the next self-posted event takes.
    var nextTicket: UInt64 = 1
    /// Events the machine posted to itself and has not processed: follow-ups and events posted
    /// next, in the order they will be processed, and scheduled events with their deadlines.
    var pending: [PendingEvent] = []
    /// The child machines of the state, by their places among its tasks (bit `n` for place
    /// `n`), whose ends the machine has processed since that entry. Written after the timers,
    /// only when some have.
    var childrenEnded: UInt64 = 0
    /// Child machines the machine left before they had their cancelling event. Written after
    /// the timers, only when there are some.
    var cancels: [StoredCancel] = []
    /// When the machine last completed a transition, in milliseconds since 1970 (0 if not
    /// known): written in the trailer of completed entries, for histories and listings.
    var lastTransition: Int64 = 0
    /// Whether an operator paused the machine: restored, it is paused. Carried by every
    /// completed entry until the resume's; written in the trailer, only when set.
    var isPaused = false
    /// What an operator did, for the entry that records it (and its amendments) only.
    var operation: StoredOperation?
    /// Whether an operator cancelled the machine outright: it is never restored. Written in the
    /// trailer, only when set.
    var isCancelled = false
    /// The durable children the state started, by place, with the keys they are stored under:
    /// for histories, which link a parent to its children. Written in the trailer, only when
    /// there are some.
    var children: [StoredChild] = []

    init() {}

    /// An operator's `verb`, at `time` (milliseconds since 1970): a pause sets it, any other act
    /// ends it; a cancel that `ends` the machine drops everything that was due, and counts as its
    /// last transition (a purge's age runs from there).
    mutating func apply(_ verb: OperatorVerb, ends: Bool, at time: Int64) {
        isPaused = verb == .pause
        guard ends else { return }
        isCancelled = true
        (enteredAt, timeoutsFired, pending, lastTransition) = (0, 0, [], time)
    }

    /// Notes the end of the child in `slot` as processed; places beyond 63 are not tracked.
    mutating func noteChildEnded(_ slot: UInt64) {
        if slot < 64 { childrenEnded |= 1 << slot }
    }

    /// Whether the machine has something to do with no new event: a state timeout to wait for,
    /// or a self-posted event to process. (A state's timeouts that have all fired count too.)
    var hasPendingWork: Bool { enteredAt != 0 || !pending.isEmpty || !cancels.isEmpty }

    /// Writes what a completed entry holds after the timers: tagged sections, each only when
    /// it has something, so that an entry without them reads as before.
    func writeTrailer(to writer: inout ByteWriter) {
        if childrenEnded != 0 {
            writer.byte(1)
            writer.varint(childrenEnded)
        }
        if !cancels.isEmpty {
            writer.byte(2)
            writer.varint(UInt64(cancels.count))
            for cancel in cancels { cancel.write(to: &writer) }
        }
        if lastTransition > 0 {
            writer.byte(3)
            writer.varint(UInt64(lastTransition))
        }
        if isPaused { writer.byte(4) }
        if let operation {
            writer.byte(5)
            operation.write(to: &writer)
        }
        if isCancelled { writer.byte(6) }
        if !children.isEmpty {
            writer.byte(7)
            writer.varint(UInt64(children.count))
            for child in children {
                writer.varint(child.slot)
                writer.text(child.key)
            }
        }
    }

    /// Reads what ``writeTrailer(to:)`` wrote, up to the end of the entry.
    mutating func readTrailer(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        while !reader.isAtEnd {
            switch try reader.byte() {
            case 1:
                childrenEnded = try reader.varint()
            case 2:
                let count = try reader.varint()
                guard count < 1_000_000 else { throw ByteReader.Truncated() }
                for _ in 0..<count { cancels.append(try StoredCancel(from: &reader)) }
            case 3:
                lastTransition = Int64(clamping: try reader.varint())
            case 4:
                isPaused = true
            case 5:
                operation = try StoredOperation(from: &reader)
            case 6:
                isCancelled = true
            case 7:
                let count = try reader.varint()
                guard count < 1_000 else { throw ByteReader.Truncated() }
                for _ in 0..<count { children.append(StoredChild(slot: try reader.varint(), key: try reader.text())) }
            default:
                throw ByteReader.Truncated()
            }
        }
    }

    func write(to writer: inout ByteWriter) {
        writer.signed(enteredAt)
        writer.varint(timeoutsFired)
        writer.varint(nextTicket)
        writer.varint(UInt64(pending.count))
        for event in pending { event.write(to: &writer) }
    }

    init(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        enteredAt = try reader.signed()
        timeoutsFired = try reader.varint()
        nextTicket = try reader.varint()
        let count = try reader.varint()
        guard count < 1_000_000 else { throw ByteReader.Truncated() }
        for _ in 0..<count { pending.append(try PendingEvent(from: &reader)) }
    }
}

/// An event a durable machine posted to itself and has not processed yet.
struct PendingEvent: Equatable, Sendable {
    enum Kind: UInt8, Sendable { case followUp = 0, next, delayed }

    /// Identifies the event within its machine; the entry that processes it names it.
    var ticket: UInt64
    var kind: Kind
    /// For a scheduled event, when it is due, in nanoseconds since 1970.
    var deadline: Int64
    var event: [UInt8]
    var predicates: [StoredPredicate]

    init(ticket: UInt64, kind: Kind, deadline: Int64, event: [UInt8], predicates: [StoredPredicate]) {
        self.ticket = ticket
        self.kind = kind
        self.deadline = deadline
        self.event = event
        self.predicates = predicates
    }

    func write(to writer: inout ByteWriter) {
        writer.varint(ticket)
        writer.byte(kind.rawValue)
        if kind == .delayed { writer.signed(deadline) }
        writer.blob(event)
        StoredPredicate.write(predicates, to: &writer)
    }

    init(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        ticket = try reader.varint()
        guard let kind = Kind(rawValue: try reader.byte()) else { throw ByteReader.Truncated() }
        self.kind = kind
        deadline = kind == .delayed ? try reader.signed() : 0
        event = try reader.blob()
        predicates = try StoredPredicate.read(from: &reader)
    }
}

/// A child machine its parent left before the child had its cancelling event: the parent sends
/// it again once restored, until the child has had it.
struct StoredCancel: Equatable, Sendable {
    /// Identifies the cancellation within its machine (shared with ``PendingEvent/ticket``).
    var ticket: UInt64
    /// The state the parent left, encoded, and the child's place among its tasks.
    var state: [UInt8]
    var slot: UInt64
    /// The child's key in its store.
    var key: String

    func write(to writer: inout ByteWriter) {
        writer.varint(ticket)
        writer.blob(state)
        writer.varint(slot)
        writer.blob(Array(key.utf8))
    }

    init(ticket: UInt64, state: [UInt8], slot: UInt64, key: String) {
        (self.ticket, self.state, self.slot, self.key) = (ticket, state, slot, key)
    }

    init(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        ticket = try reader.varint()
        state = try reader.blob()
        slot = try reader.varint()
        key = String(decoding: try reader.blob(), as: UTF8.self)
    }
}

/// A child machine a state started: its place among the state's tasks, and its key in its store.
struct StoredChild: Equatable, Sendable {
    var slot: UInt64
    var key: String
}
