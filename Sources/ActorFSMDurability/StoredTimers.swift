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
    /// next, in the order they will be processed, and delayed posts with their deadlines.
    var pending: [PendingEvent] = []
    /// The child machines of the state, by their places among its tasks (bit `n` for place
    /// `n`), whose ends the machine has processed since that entry. Written after the timers,
    /// only when some have.
    var childrenEnded: UInt64 = 0

    init() {}

    /// Notes the end of the child in `slot` as processed; places beyond 63 are not tracked.
    mutating func noteChildEnded(_ slot: UInt64) {
        if slot < 64 { childrenEnded |= 1 << slot }
    }

    /// Whether the machine has something to do with no new event: a state timeout to wait for,
    /// or a self-posted event to process. (A state's timeouts that have all fired count too.)
    var hasPendingWork: Bool { enteredAt != 0 || !pending.isEmpty }

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
    /// For a delayed post, when it is due, in nanoseconds since 1970.
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
