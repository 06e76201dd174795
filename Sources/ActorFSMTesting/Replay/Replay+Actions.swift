import ActorFSM
import ActorFSMDurability

/// A stored transition the new version resolves as the history did: what a dry run of its
/// actions starts from.
struct AgreedTransition<Definition: MachineDefinition>: Sendable {
    let machine: String
    /// The event's or timeout's label.
    let label: String
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

    /// The divergences of the transitions `agreed` whose actions throw when run again.
    static func dryRun(_ agreed: [AgreedTransition<Definition>], schema: Schema<Definition>) async -> [ReplayDivergence]
    where Definition.ID: LosslessStringConvertible {
        var divergences: [ReplayDivergence] = []
        for transition in agreed {
            guard let id = Definition.ID(transition.machine) else { continue }
            let clock = ManualClock()
            let machine = Machine(schema: schema, id: id, data: transition.before.data, startingIn: transition.before.state,
                                  configuration: MachineConfiguration(clock: clock))
            if let error = await failure(of: transition.entry, on: machine, clock: clock) {
                divergences.append(ReplayDivergence(
                    machine: transition.machine, sequenceNumber: transition.entry.sequenceNumber,
                    stored: describe(transition.entry, from: transition.before.state, label: transition.label),
                    replayed: "an action throws in a dry run: \(error)"))
            }
            await machine.stop()
        }
        return divergences
    }

    /// What an action of `entry`'s transition throws when `machine` takes its event or timeout again.
    private static func failure(of entry: ReadEntry<Definition>, on machine: Machine<Definition>, clock: ManualClock) async -> (any Error)? {
        switch entry.kind {
        case .event:
            guard let event = entry.event else { return nil }
            do {
                _ = try await machine.send(event, predicates: entry.predicates ?? PredicateContext.none)
                return nil
            } catch {
                return error.underlying ?? error
            }
        case .timeout(let duration):
            var records = await machine.records().makeAsyncIterator()
            clock.advance(by: duration)
            while let record = await records.next() {
                guard record.origin.timeout == duration || record.target != record.source else { continue }
                if case .failed(let error) = record.outcome { return error }
                return nil
            }
            return nil
        case .other:
            return nil
        }
    }
}
