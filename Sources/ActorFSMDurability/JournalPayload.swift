import ActorFSM

/// What one journal entry holds, in the machine's own binary layout, sealed with a CRC-32.
///
/// A completed entry holds the machine's whole state after the event: the state, the data, the
/// timers and the events it posted to itself that wait to be processed. Recovery needs only the
/// newest one. An intent entry, written before a transition's asynchronous actions start, holds
/// the event, so that a crash during the actions has it processed again. An operator's retry
/// writes a failed event's entry again as an intent of its own kind, which also holds the
/// operation.
struct JournalPayload: Equatable {
    enum Kind: UInt8 {
        case completed = 0, intent = 1
        /// An intent an operator's retry wrote in place of a failed event's entry.
        case retryIntent = 2
        /// The intent, written by the machine, of an event an operator signalled or retried: it
        /// holds the operation too (and, as any intent a machine writes, the retry its action
        /// waits to make), so that a restore that processes the event again still records it.
        case operatorIntent = 3
    }

    /// Whether the entry is an intent a machine wrote, which may hold its action's retry.
    private var mayHoldRetry: Bool { kind == .intent || kind == .operatorIntent }

    /// Whether the entry holds an event to process again rather than a completed state.
    var isIntent: Bool { kind != .completed }

    /// The outcome of the event, as written.
    enum Outcome: UInt8 { case transitioned = 0, unhandled, conditionFalse, failed, stopped }

    /// The layout written: 2 seals the entry for its machine and sequence number. Entries of
    /// layout 1, sealed for their bytes alone, are still read.
    static let formatVersion: UInt8 = 2

    var kind: Kind
    var outcome: Outcome
    /// The event's origin (``StoredOrigin``) and, for a timeout, its duration in nanoseconds.
    var origin: StoredOrigin
    /// The self-posted event this entry processed (see ``PendingEvent/ticket``), 0 if none.
    var ticket: UInt64
    var fingerprint: UInt64
    var schemaVersion: Int64
    var state: [UInt8]
    var event: [UInt8]?
    var predicates: [StoredPredicate]
    var data: [UInt8]
    var timers: StoredTimers
    /// For an intent whose action is being retried: the attempt it waits to make, and when (in
    /// nanoseconds since 1970). Written after the timers, only when present.
    var retry: StoredRetry?

    /// The entry's bytes, sealed for machine `key`'s entry `number`.
    func encoded(machine key: String, sequenceNumber number: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 48 + state.count + (event?.count ?? 0) + data.count)
        writer.byte(Self.formatVersion)
        writer.byte(kind.rawValue)
        writer.byte(outcome.rawValue)
        origin.write(to: &writer)
        writer.varint(ticket)
        writer.fixed64(fingerprint)
        writer.signed(schemaVersion)
        writer.blob(state)
        writer.byte(event == nil ? 0 : 1)
        if let event { writer.blob(event) }
        StoredPredicate.write(predicates, to: &writer)
        writer.blob(data)
        timers.write(to: &writer)
        if !mayHoldRetry { timers.writeTrailer(to: &writer) }
        if kind == .operatorIntent {
            // Always written for this kind, which its reader expects.
            (timers.operation ?? StoredOperation(verb: .signal, time: 0, reason: "")).write(to: &writer)
        }
        if let retry {
            writer.varint(UInt64(retry.action))
            writer.varint(UInt64(retry.attempt))
            writer.signed(retry.deadline)
        }
        writer.seal(binding: EntryBinding(machine: key, number: number))
        return writer.bytes
    }

    /// The payload of `entry`, or `nil` if its checksum does not match (its bytes are damaged,
    /// or they were sealed for another machine or number) or it is cut short.
    init?(decoding entry: JournalEntry) {
        guard let version = entry.payload.first else { return nil }
        let binding = version == 1 ? nil : EntryBinding(machine: entry.machine, number: entry.sequenceNumber)
        guard var reader = ByteReader.unsealing(entry.payload, binding: binding) else { return nil }
        do {
            guard try reader.byte() == version, version == 1 || version == Self.formatVersion,
                  let kind = Kind(rawValue: try reader.byte()),
                  let outcome = Outcome(rawValue: try reader.byte())
            else { return nil }
            self.kind = kind
            self.outcome = outcome
            origin = try StoredOrigin(from: &reader)
            ticket = try reader.varint()
            fingerprint = try reader.fixed64()
            schemaVersion = try reader.signed()
            state = try reader.blob()
            event = try reader.byte() == 0 ? nil : try reader.blob()
            predicates = try StoredPredicate.read(from: &reader)
            data = try reader.blob()
            timers = try StoredTimers(from: &reader)
            if !mayHoldRetry { try timers.readTrailer(from: &reader) }
            if kind == .operatorIntent { timers.operation = try StoredOperation(from: &reader) }
            if mayHoldRetry && !reader.isAtEnd {
                let action = try reader.varint()
                let attempt = try reader.varint()
                guard action <= UInt64(Int32.max), attempt >= 2, attempt <= UInt64(Int32.max) else { return nil }
                retry = StoredRetry(action: Int(action), attempt: Int(attempt), deadline: try reader.signed())
            }
            guard reader.isAtEnd else { return nil }
        } catch {
            return nil
        }
    }

    /// The header of an entry, written by the schema with `fingerprint` in its `schemaVersion`,
    /// that holds no values yet: the writer sets those it has.
    init(
        kind: Kind, outcome: Outcome, origin: StoredOrigin, ticket: UInt64, fingerprint: UInt64, schemaVersion: Int64
    ) {
        self.kind = kind
        self.outcome = outcome
        self.origin = origin
        self.ticket = ticket
        self.fingerprint = fingerprint
        self.schemaVersion = schemaVersion
        self.state = []
        self.event = nil
        self.predicates = []
        self.data = []
        self.timers = StoredTimers()
    }
}

/// An event's origin as stored.
package struct StoredOrigin: Equatable {
    var code: UInt8
    var timeoutNanoseconds: Int64

    init(_ origin: EventOrigin) {
        switch origin {
        case .send: code = 0
        case .post: code = 1
        case .followUp: code = 2
        case .next: code = 3
        case .timeout: code = 4
        case .scheduled: code = 5
        case .stateTask: code = 6
        }
        timeoutNanoseconds = origin.timeout.map(Self.nanoseconds) ?? 0
    }

    init(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        code = try reader.byte()
        timeoutNanoseconds = code == 4 ? try reader.signed() : 0
    }

    func write(to writer: inout ByteWriter) {
        writer.byte(code)
        if code == 4 { writer.signed(timeoutNanoseconds) }
    }

    var origin: EventOrigin {
        switch code {
        case 0: .send
        case 1: .post
        case 2: .followUp
        case 3: .next
        case 4: .timeout(after: .nanoseconds(timeoutNanoseconds))
        case 5: .scheduled
        default: .stateTask
        }
    }

    static package func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}

/// A predicate as stored: its type's name and its case's position in `allCases`, read back
/// against the schema's predicate types.
package struct StoredPredicate: Equatable {
    var typeName: String
    var ordinal: UInt64

    static package func write(_ predicates: [StoredPredicate], to writer: inout ByteWriter) {
        writer.varint(UInt64(predicates.count))
        for predicate in predicates {
            writer.text(predicate.typeName)
            writer.varint(predicate.ordinal)
        }
    }

    static package func read(from reader: inout ByteReader) throws(ByteReader.Truncated) -> [StoredPredicate] {
        let count = try reader.varint()
        guard count < 1_000 else { throw ByteReader.Truncated() }
        var predicates: [StoredPredicate] = []
        for _ in 0..<count { predicates.append(StoredPredicate(typeName: try reader.text(), ordinal: try reader.varint())) }
        return predicates
    }
}

extension JournalPayload.Outcome {
    init(_ outcome: Outcome) {
        switch outcome {
        case .transitioned: self = .transitioned
        case .unhandled: self = .unhandled
        case .conditionFalse: self = .conditionFalse
        case .failed: self = .failed
        case .stopped: self = .stopped
        }
    }
}

/// The retry an intent records: which of the transition's retried actions waits, the attempt
/// it waits to make, and when.
struct StoredRetry: Equatable {
    /// The action's index among the transition's retried actions, in the order they run.
    var action: Int
    var attempt: Int
    /// When the attempt is due, in nanoseconds since 1970.
    var deadline: Int64
}
