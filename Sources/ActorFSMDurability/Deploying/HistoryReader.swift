import ActorFSM

/// One entry of a stored history as a schema (through its durability's migration) reads it.
package struct ReadEntry<Definition: MachineDefinition>: Sendable {
    /// What the entry records.
    package enum Kind: Sendable, Equatable {
        /// A machine event's completed transition, or its outcome.
        case event
        /// A state timeout's completed transition, or its outcome.
        case timeout(Duration)
        /// A creation's, an operator's act, or an intent: carried, not replayed.
        case other
    }

    /// How the stored event ended.
    package enum Outcome: Sendable, Equatable { case transitioned, unhandled, conditionFalse, failed, stopped }

    package let sequenceNumber: UInt64
    package let kind: Kind
    package let outcome: Outcome
    /// The state after the entry.
    package let state: Definition.State
    /// The data after the entry.
    package let data: Definition.Data
    package let event: Definition.Event?
    package let predicates: PredicateContext?
}

/// Reads stored entries with a schema and its migration, as a restore reads them.
package struct HistoryReader<Definition: MachineDefinition>: Sendable {
    private let coding: DurableCoding<Definition>
    private let schema: Schema<Definition>

    /// A reader of `schema`'s values, for data that is `Codable`.
    package init(schema: Schema<Definition>, durability: Durability<Definition>) throws(DurabilityError)
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible, Definition.Data: Codable {
        coding = try DurableCoding.make(schema: schema, durability: durability, key: "(replay)")
        self.schema = schema
    }

    /// A reader of `schema`'s values, for a definition without data.
    package init(schema: Schema<Definition>, durability: Durability<Definition>) throws(DurabilityError)
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible, Definition.Data == Void {
        coding = try DurableCoding.make(schema: schema, durability: durability, key: "(replay)")
        self.schema = schema
    }

    /// `entry` as the schema reads it.
    ///
    /// - Throws: ``DurabilityError`` naming the machine and entry: damaged, a state the schema
    ///   neither has nor maps, or data or an event that does not decode.
    package func read(_ entry: JournalEntry) throws(DurabilityError) -> ReadEntry<Definition> {
        let reader = EntryReader(key: entry.machine, coding: coding, schema: schema)
        let payload = try reader.payload(of: entry)
        let number = entry.sequenceNumber
        let state = try reader.state(payload, number: number)
        let data = try reader.data(payload, number: number)
        let completed = payload.kind == .completed && payload.timers.operation?.recordsItsEvent != false
        let kind: ReadEntry<Definition>.Kind = if completed, payload.event != nil {
            .event
        } else if completed, let duration = payload.origin.origin.timeout {
            .timeout(duration)
        } else {
            .other
        }
        let event = try payload.event.map { bytes throws(DurabilityError) in try reader.event(bytes, number: number) }
        let outcome: ReadEntry<Definition>.Outcome = switch payload.outcome {
        case .transitioned: .transitioned
        case .unhandled: .unhandled
        case .conditionFalse: .conditionFalse
        case .failed: .failed
        case .stopped: .stopped
        }
        return ReadEntry(sequenceNumber: number, kind: kind, outcome: outcome, state: state, data: data,
                         event: event, predicates: coding.predicates(payload.predicates))
    }
}
