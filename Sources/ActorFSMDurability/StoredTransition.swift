import ActorFSM

/// One entry of a durable machine's journal, read back: for audits, and for checking what a
/// store holds after a crash.
///
/// ```swift
/// for entry in try await Durability(store: store).history(of: "o-1042", schema: orders) {
///     print(entry.sequenceNumber, entry.kind, entry.state.map { "\($0)" } ?? "-")
/// }
/// ```
public struct StoredTransition<Definition: MachineDefinition>: Sendable {
    /// What the entry records.
    public enum Kind: Sendable, Hashable {
        /// The machine was made: the state and data are those it started with, and its
        /// sequence number is 0 (the entry has no event).
        case created
        /// The event completed with this outcome (its description: `transitioned`, `unhandled`,
        /// `conditionFalse`, `failed`, `stopped`); the state and data are those after it.
        case completed(String)
        /// The event's asynchronous actions started and had not completed when the entry was
        /// written: if it is the newest entry, recovery processes the event again.
        case intent
    }

    /// The event's sequence number; 0 for the machine's creation.
    public let sequenceNumber: UInt64
    /// The event; `nil` for a state timeout and for the creation.
    public let event: Definition.Event?
    /// Where the event came from (`.send` for the creation: the call that made the machine).
    public let origin: EventOrigin
    /// Created, completed, or an intent.
    public let kind: Kind
    /// The state after the event (the newest completed state, for an intent).
    public let state: Definition.State?
    /// The data after the event; `nil` for an intent.
    public let data: Definition.Data?
    /// How many self-posted events and scheduled events waited to be processed after it.
    public let pendingEvents: Int
    /// How many of the state's timeouts had fired since the machine entered it.
    public let timeoutsFired: Int
}

extension Durability {
    /// Every entry the store holds for machine `id`, oldest first, read with `schema`'s types
    /// (and this configuration's migration).
    ///
    /// - Throws: ``DurabilityError`` if the store fails or an entry cannot be read.
    public func history(of id: Definition.ID, schema: Schema<Definition>) async throws(DurabilityError)
        -> [StoredTransition<Definition>]
    where Definition.State: Codable, Definition.Event: Codable, Definition.Data: Codable,
          Definition.ID: LosslessStringConvertible {
        let coding = try DurableCoding.make(schema: schema, durability: self, key: id.description)
        let key = coding.key(id)
        let entries: [JournalEntry]
        do { entries = try await store.entries(of: key) } catch {
            throw DurabilityError(.storeFailed, machine: key, detail: error.message)
        }
        let reader = EntryReader(key: key, coding: coding, schema: schema)
        var history: [StoredTransition<Definition>] = []
        for entry in entries {
            let payload = try reader.payload(of: entry)
            let completed = payload.kind == .completed
            history.append(StoredTransition(
                sequenceNumber: entry.sequenceNumber,
                event: try payload.event.map { bytes throws(DurabilityError) in
                    try reader.event(bytes, number: entry.sequenceNumber)
                },
                origin: payload.origin.origin,
                kind: !completed ? .intent : entry.sequenceNumber == 0 ? .created : .completed("\(payload.outcome)"),
                state: completed ? try reader.state(payload, number: entry.sequenceNumber) : nil,
                data: completed ? try reader.data(payload, number: entry.sequenceNumber) : nil,
                pendingEvents: payload.timers.pending.count, timeoutsFired: Int(payload.timers.timeoutsFired)))
        }
        return history
    }
}
