import ActorFSM
import ActorFSMDurability

/// A stored transition the new version resolves as the history did: what a dry run of its
/// actions starts from.
struct AgreedTransition<Definition: MachineDefinition>: Sendable {
    let machine: String
    /// The event's or timeout's label.
    let label: String
    /// The predicates it was resolved with: the stored ones, or a context that selects its row.
    let predicates: PredicateContext
    /// The entry before it: the state and data the transition started from.
    let before: ReadEntry<Definition>
    let entry: ReadEntry<Definition>
}

extension Replay {
    /// Replays `histories` through `schema` as the initializer without `runningActions`
    /// does and, if `runningActions`, also runs the actions of each stored transition the new
    /// version resolves alike, in a dry run: a fresh machine of `schema`, in the state and with
    /// the data before the entry, takes the event (or its clock is moved for the timeout). Build
    /// `schema` with the test doubles of the services its actions call. An action that throws is
    /// a divergence.
    ///
    /// ```swift
    /// let replay = try await Replay(histories, through: ordersWithDoubles, migration: migration, schemaVersion: 2,
    ///                               runningActions: true)
    /// #expect(replay.divergences.isEmpty, "\(replay.divergences)")
    /// ```
    public init(
        _ histories: [StoredHistory], through schema: Schema<Definition>, migration: SchemaMigration<Definition>? = nil,
        schemaVersion: Int = 1, codec: any DurableCodec = JSONCodec(), runningActions: Bool
    ) async throws(DurabilityError)
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible, Definition.Data: Codable {
        let durability = Durability<Definition>(store: InMemoryStore(codec: codec), schemaVersion: schemaVersion, migration: migration)
        let reader = try HistoryReader(schema: schema, durability: durability)
        let compared = Self.compare(histories, schema: schema) { entry throws(DurabilityError) in try reader.read(entry) }
        let failed = runningActions ? await Self.dryRun(compared.agreed, schema: schema) : []
        (divergences, replayedEvents) = (compared.divergences + failed, compared.replayed)
    }

    /// Replays `histories` of a definition without data; see the initializer above.
    public init(
        _ histories: [StoredHistory], through schema: Schema<Definition>, migration: SchemaMigration<Definition>? = nil,
        schemaVersion: Int = 1, codec: any DurableCodec = JSONCodec(), runningActions: Bool
    ) async throws(DurabilityError)
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible, Definition.Data == Void {
        let durability = Durability<Definition>(store: InMemoryStore(codec: codec), schemaVersion: schemaVersion, migration: migration)
        let reader = try HistoryReader(schema: schema, durability: durability)
        let compared = Self.compare(histories, schema: schema) { entry throws(DurabilityError) in try reader.read(entry) }
        let failed = runningActions ? await Self.dryRun(compared.agreed, schema: schema) : []
        (divergences, replayedEvents) = (compared.divergences + failed, compared.replayed)
    }

    /// The divergences of the transitions `agreed` whose actions throw when run again, or that a
    /// dry run cannot take as the history did.
    static func dryRun(_ agreed: [AgreedTransition<Definition>], schema: Schema<Definition>) async -> [ReplayDivergence]
    where Definition.ID: LosslessStringConvertible {
        var divergences: [ReplayDivergence] = []
        for transition in agreed {
            guard let id = Definition.ID(transition.machine) else { continue }
            let clock = ManualClock()
            let machine = Machine(schema: schema, id: id, data: transition.before.data, startingIn: transition.before.state,
                                  configuration: MachineConfiguration(clock: clock))
            if let problem = await problem(of: transition, on: machine, clock: clock) {
                divergences.append(ReplayDivergence(
                    machine: transition.machine, sequenceNumber: transition.entry.sequenceNumber,
                    stored: describe(transition.entry, from: transition.before.state, label: transition.label),
                    replayed: problem))
            }
            await machine.stop()
        }
        return divergences
    }

    /// What goes otherwise than the history when `machine` takes `transition`'s event or timeout
    /// again: an action that throws, or a record of something else; `nil` if nothing does.
    private static func problem(
        of transition: AgreedTransition<Definition>, on machine: Machine<Definition>, clock: ManualClock
    ) async -> String? {
        let (before, entry) = (transition.before, transition.entry)
        var records = await machine.records().makeAsyncIterator()
        // A state task may move the fresh machine on before the event or timeout comes.
        let start = await machine.state
        guard start == before.state else { return "a dry run found the machine in \(start)" }
        let record: TransitionRecord<Definition>?
        switch entry.kind {
        case .event:
            guard let event = entry.event else { return nil }
            do {
                record = try await machine.send(event, predicates: transition.predicates)
            } catch {
                if let underlying = error.underlying { return "an action throws in a dry run: \(underlying)" }
                return "a dry run could not send the event: \(error)"
            }
        case .timeout(let duration):
            clock.advance(by: duration)
            let rearms = machine.schema.entryExitPolicy == .executeAlways
            var last: TransitionRecord<Definition>?
            while let next = await records.next() {
                last = next
                if next.source != before.state || next.origin.timeout == duration || next.target != before.state
                    || (rearms && next.outcome.isTransitioned) { break }
            }
            record = last
        case .other:
            return nil
        }
        guard let record else { return "a dry run's machine stopped" }
        if case .failed(let error) = record.outcome { return "an action throws in a dry run: \(error)" }
        guard record.source == before.state, record.target == entry.state, record.outcome.isTransitioned else {
            return "a dry run did \(record)"
        }
        return nil
    }
}
