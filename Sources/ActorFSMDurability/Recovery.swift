import ActorFSM

/// What a durable machine resumes from, read from its journal: the newest completed entry, the
/// event an interrupted transition was processing, and the events it had posted to itself.
struct Recovery<Definition: MachineDefinition>: Sendable {
    typealias Entry = InboxEntry<Definition>

    /// The state, data, sequence number and timers to resume with.
    var point: RestorePoint<Definition>
    /// Events to process before any other, in order: the interrupted event, then the events
    /// posted next, then the follow-ups.
    var requeued: [Entry] = []
    /// Scheduled events still to deliver, with their tickets and deadlines (nanoseconds since 1970).
    var delayed: [(event: Definition.Event, predicates: PredicateContext?, ticket: UInt64, deadline: Int64)] = []
    /// Whether the interrupted event is a state timeout: it is processed again from
    /// ``requeued``, so its alarm is not armed again.
    var timeoutInterrupted = false
    /// The interrupted event's number and origin: the journal refuses to write that number for
    /// any other event, or a later number before it (see ``MachineJournal``).
    var interrupted: (number: UInt64, origin: StoredOrigin)?
    /// The retry the interrupted event's intent recorded, if its action was waiting to retry.
    var retry: StoredRetry?
    /// The operator's retry that wrote the interrupted event's intent, if one did: the entry
    /// that completes the event records it.
    var operation: StoredOperation?

    /// Reads the journal of the machine `key`; `nil` if the store has none.
    ///
    /// - Parameter data: the data to start with if the store holds only an interrupted first event.
    static func load(
        _ key: String, coding: DurableCoding<Definition>, schema: Schema<Definition>, data: Definition.Data?
    ) async throws(DurabilityError) -> Recovery? {
        let store = coding.durability.store
        let claimed: [String]
        let entries: [JournalEntry]
        do {
            claimed = try await store.claim([key])
            entries = claimed.isEmpty ? [] : try await store.latestEntries(of: key, count: 2)
        } catch {
            throw DurabilityError(.storeFailed, machine: key, detail: error.message)
        }
        guard !claimed.isEmpty else {
            throw DurabilityError(.heldElsewhere, machine: key, detail: "send to it through that process")
        }
        return try decode(entries, key: key, coding: coding, schema: schema, data: data)
    }

    /// What the newest entries of machine `key` (newest first, as
    /// ``MachineStore/latestEntries(of:count:)`` returns them) resume; `nil` if there are none.
    static func decode(
        _ entries: [JournalEntry], key: String, coding: DurableCoding<Definition>, schema: Schema<Definition>,
        data: Definition.Data?
    ) throws(DurabilityError) -> Recovery? {
        guard let newest = entries.first else { return nil }
        let reader = EntryReader(key: key, coding: coding, schema: schema)
        let newestPayload = try reader.payload(of: newest)
        var intent: (payload: JournalPayload, number: UInt64)?
        var completed: (payload: JournalPayload, number: UInt64)?
        if newestPayload.isIntent {
            intent = (newestPayload, newest.sequenceNumber)
            if entries.count > 1 {
                let below = (payload: try reader.payload(of: entries[1]), number: entries[1].sequenceNumber)
                // An intent stands right above the completed entry it starts from: anything else
                // means the store lost an entry, and resuming would number events wrongly.
                guard below.payload.kind == .completed, below.number + 1 == newest.sequenceNumber else {
                    throw DurabilityError(.corruptEntry, machine: key, sequenceNumber: newest.sequenceNumber,
                                          detail: "the entry below this intent is entry \(below.number), "
                                          + (below.payload.isIntent ? "another intent" : "not the one before it")
                                          + ": the store lost an entry")
                }
                completed = below
            }
        } else {
            completed = (newestPayload, newest.sequenceNumber)
        }
        var recovery: Recovery
        if let completed {
            recovery = Recovery(point: RestorePoint(
                state: try reader.state(completed.payload, number: completed.number),
                data: try reader.data(completed.payload, number: completed.number),
                sequenceNumber: completed.number, timers: completed.payload.timers))
        } else {
            // An intent with no entry below it (its creation entry lost): only the caller's
            // data can start the machine.
            guard let data else {
                throw DurabilityError(.undecodable, machine: key, sequenceNumber: newest.sequenceNumber,
                                      detail: "the store holds only the machine's first event, and no data to start with was given")
            }
            recovery = Recovery(point: RestorePoint(state: schema.initialState, data: data,
                                                    sequenceNumber: (intent?.number ?? 1) - 1, timers: StoredTimers()))
        }
        if let intent { try recovery.resume(intent.payload, number: intent.number, reader: reader) }
        try recovery.requeuePending(excluding: intent?.payload.ticket ?? 0, reader: reader)
        return recovery
    }

    /// Takes up the event whose `intent` (entry `number`) a crash or a stop interrupted: it is
    /// processed first, and its action goes on with the retry the intent recorded.
    private mutating func resume(_ intent: JournalPayload, number: UInt64, reader: EntryReader<Definition>) throws(DurabilityError) {
        interrupted = (number, intent.origin)
        retry = intent.retry
        operation = intent.timers.operation
        // A child's end processed again first is not taken from the child again.
        if intent.ticket & Machine<Definition>.childEndTicketFlag != 0 {
            point.timers.noteChildEnded(intent.ticket & ~Machine<Definition>.childEndTicketFlag)
        }
        if let event = intent.event {
            requeued.append(Entry(
                event: try reader.event(event, number: number), predicates: reader.coding.predicates(intent.predicates),
                origin: intent.origin.origin, acceptedAt: .now, ticket: Machine<Definition>.entryTicket(intent.ticket)))
        } else if case .timeout = intent.origin.origin {
            // The timeout that was interrupted goes first; its alarm is not armed again.
            var timeout = Entry(event: nil, predicates: nil, origin: intent.origin.origin, acceptedAt: .now)
            timeout.epoch = 1
            requeued.append(timeout)
            timeoutInterrupted = true
        }
    }

    /// What a supervisor's restart resumes from: the newest entry the failed machine wrote, with
    /// the events it had posted to itself (which this process encoded, so they decode).
    static func resuming(
        _ point: RestorePoint<Definition>, coding: DurableCoding<Definition>, schema: Schema<Definition>, key: String
    ) -> Recovery {
        var recovery = Recovery(point: point)
        try? recovery.requeuePending(excluding: 0, reader: EntryReader(key: key, coding: coding, schema: schema))
        return recovery
    }

    /// Queues the self-posted events the restore point holds (but `interrupted`, already
    /// queued): those posted next, then the follow-ups, each in the order posted; and keeps the
    /// scheduled events to arm again.
    mutating func requeuePending(excluding interrupted: UInt64, reader: EntryReader<Definition>) throws(DurabilityError) {
        let pending = point.timers.pending
        for kind in [PendingEvent.Kind.next, .followUp] {
            for stored in pending where stored.kind == kind && stored.ticket != interrupted {
                requeued.append(Entry(
                    event: try reader.event(stored.event, number: point.sequenceNumber),
                    predicates: reader.coding.predicates(stored.predicates), origin: kind == .next ? .next : .followUp,
                    acceptedAt: .now, ticket: Machine<Definition>.entryTicket(stored.ticket)))
            }
        }
        for stored in pending where stored.kind == .delayed && stored.ticket != interrupted {
            delayed.append((try reader.event(stored.event, number: point.sequenceNumber),
                            reader.coding.predicates(stored.predicates), stored.ticket, stored.deadline))
        }
    }
}

/// Decodes a machine's journal entries, applying the configuration's migration where the
/// current schema cannot read them.
struct EntryReader<Definition: MachineDefinition> {
    let key: String
    let coding: DurableCoding<Definition>
    let schema: Schema<Definition>

    func payload(of entry: JournalEntry) throws(DurabilityError) -> JournalPayload {
        guard let payload = JournalPayload(decoding: entry) else {
            throw DurabilityError(.corruptEntry, machine: key, sequenceNumber: entry.sequenceNumber,
                                  detail: "its checksum does not match its \(entry.payload.count) bytes")
        }
        return payload
    }

    /// The stored state; a state the schema does not know (when another schema wrote it) goes
    /// through the migration.
    func state(_ payload: JournalPayload, number: UInt64) throws(DurabilityError) -> Definition.State {
        switch coding.readState(payload.state, schemaVersion: Int(payload.schemaVersion),
                                sameSchema: payload.fingerprint == coding.fingerprint, in: schema) {
        case .state(let state):
            return state
        case .migrationFailed(let error):
            let stored = StoredValue(bytes: payload.state, schemaVersion: Int(payload.schemaVersion), codec: coding.codec)
            throw DurabilityError(.undecodable, machine: key, sequenceNumber: number,
                                  detail: "the migration could not read the stored state \(stored): \(error)")
        case .unknown:
            let stored = StoredValue(bytes: payload.state, schemaVersion: Int(payload.schemaVersion), codec: coding.codec)
            throw DurabilityError(.unknownState, machine: key, sequenceNumber: number,
                                  detail: "\(stored) (schema version \(payload.schemaVersion))")
        }
    }

    /// The stored data; data of another schema version goes through the migration if it has
    /// a data step, and so does data the current type cannot decode.
    func data(_ payload: JournalPayload, number: UInt64) throws(DurabilityError) -> Definition.Data {
        let stored = StoredValue(bytes: payload.data, schemaVersion: Int(payload.schemaVersion), codec: coding.codec)
        let migrate = coding.durability.migration?.data
        if let migrate, payload.schemaVersion != Int64(coding.durability.schemaVersion) {
            do { return try migrate(stored) } catch {
                throw DurabilityError(.undecodable, machine: key, sequenceNumber: number,
                                      detail: "the migration could not read the stored data \(stored): \(error)")
            }
        }
        do {
            return try coding.decodeData(payload.data)
        } catch {
            if let migrate, let migrated = try? migrate(stored) { return migrated }
            throw DurabilityError(.undecodable, machine: key, sequenceNumber: number,
                                  detail: "the stored data \(stored) cannot be decoded: \(error)")
        }
    }

    func event(_ bytes: [UInt8], number: UInt64) throws(DurabilityError) -> Definition.Event {
        do {
            return try coding.decodeEvent(bytes)
        } catch {
            let stored = StoredValue(bytes: bytes, schemaVersion: coding.durability.schemaVersion, codec: coding.codec)
            throw DurabilityError(.undecodable, machine: key, sequenceNumber: number,
                                  detail: "the stored event \(stored) cannot be decoded: \(error)")
        }
    }
}
