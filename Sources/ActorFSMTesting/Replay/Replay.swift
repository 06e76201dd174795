import ActorFSM
import ActorFSMDurability

/// Stored histories replayed through a new version of their schema, with its migration: each
/// entry is read as a restore would read it, and each stored event is resolved again from the
/// state and data before it. A ``ReplayDivergence`` names each entry the new version cannot read
/// (a state it neither has nor maps, data or an event that no longer decodes) and each event it
/// resolves otherwise (another target, unhandled now, or handled where it was not).
///
/// A state timeout's entry is resolved again like an event's. Creations and operators' acts
/// are carried from one entry to the next, not compared; events whose action failed or that were
/// stopped record no target, and are carried too. These initializers compare what the table
/// does; the ones with `runningActions` also run the actions, in a dry run.
///
/// ```swift
/// let histories = try await StoredHistory.read(from: productionCopy, matching: MachineQuery(limit: 1_000))
/// let replay = try Replay(histories, through: ordersV2, migration: migration, schemaVersion: 2)
/// #expect(replay.divergences.isEmpty, "\(replay.divergences)")
/// ```
public struct Replay<Definition: MachineDefinition>: Sendable {
    /// Where the histories and the new version part, in the histories' order.
    public let divergences: [ReplayDivergence]
    /// How many stored events and timeouts were resolved again.
    public let replayedEvents: Int

    /// Replays `histories` through `schema`, reading what an older version wrote through
    /// `migration`; `schemaVersion` and `codec` are the new version's `Durability` settings.
    ///
    /// - Throws: `DurabilityError` if the codec cannot encode the schema's states.
    public init(
        _ histories: [StoredHistory], through schema: Schema<Definition>, migration: SchemaMigration<Definition>? = nil,
        schemaVersion: Int = 1, codec: any DurableCodec = JSONCodec()
    ) throws(DurabilityError)
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible, Definition.Data: Codable {
        let durability = Durability<Definition>(store: InMemoryStore(codec: codec), schemaVersion: schemaVersion, migration: migration)
        let reader = try HistoryReader(schema: schema, durability: durability)
        (divergences, replayedEvents, _) = Self.compare(histories, schema: schema) { entry throws(DurabilityError) in
            try reader.read(entry)
        }
    }

    /// Replays `histories` of a definition without data; see the initializer above.
    public init(
        _ histories: [StoredHistory], through schema: Schema<Definition>, migration: SchemaMigration<Definition>? = nil,
        schemaVersion: Int = 1, codec: any DurableCodec = JSONCodec()
    ) throws(DurabilityError)
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible, Definition.Data == Void {
        let durability = Durability<Definition>(store: InMemoryStore(codec: codec), schemaVersion: schemaVersion, migration: migration)
        let reader = try HistoryReader(schema: schema, durability: durability)
        (divergences, replayedEvents, _) = Self.compare(histories, schema: schema) { entry throws(DurabilityError) in
            try reader.read(entry)
        }
    }

    /// The divergences of `histories`, whose entries `read` reads, how many events were resolved
    /// again, and the stored transitions the new version resolves alike.
    static func compare(
        _ histories: [StoredHistory], schema: Schema<Definition>,
        read: (JournalEntry) throws(DurabilityError) -> ReadEntry<Definition>
    ) -> (divergences: [ReplayDivergence], replayed: Int, agreed: [AgreedTransition<Definition>]) {
        var divergences: [ReplayDivergence] = []
        var agreed: [AgreedTransition<Definition>] = []
        var replayed = 0
        let contexts = ReplayContexts(schema)
        for history in histories {
            var previous: ReadEntry<Definition>?
            for entry in history.entries {
                let current: ReadEntry<Definition>
                do {
                    current = try read(entry)
                } catch {
                    divergences.append(ReplayDivergence(machine: history.machine, sequenceNumber: entry.sequenceNumber,
                                                        stored: "an entry", replayed: "it cannot be read: \(error)"))
                    previous = nil
                    continue
                }
                defer { previous = current }
                guard let before = previous, current.outcome != .failed, current.outcome != .stopped,
                      let (label, resolution, predicates) = resolve(current, after: before, in: schema, contexts: contexts)
                else { continue }
                replayed += 1
                if let now = Self.divergence(of: current, from: before.state, label: label, resolution: resolution) {
                    divergences.append(ReplayDivergence(machine: history.machine, sequenceNumber: entry.sequenceNumber,
                                                        stored: Self.describe(current, from: before.state, label: label), replayed: now))
                } else if current.outcome == .transitioned {
                    agreed.append(AgreedTransition(machine: history.machine, label: label, predicates: predicates, before: before,
                                                   entry: current))
                }
            }
        }
        return (divergences, replayed, agreed)
    }

    /// What `schema` does with the event or timeout of `entry` after `before`, its label, and the
    /// predicates it was resolved with; `nil` for an entry that records neither. An entry that
    /// kept no predicates is resolved without, then, if that does otherwise than it records, with
    /// each context that selects a row of its state and event, until one does the same.
    private static func resolve(
        _ entry: ReadEntry<Definition>, after before: ReadEntry<Definition>, in schema: Schema<Definition>,
        contexts: ReplayContexts<Definition>
    ) -> (String, Resolution<Definition>, PredicateContext)? {
        let label: String
        let eventID: Int?
        let resolve: (PredicateContext) -> Resolution<Definition>
        switch entry.kind {
        case .event:
            guard let event = entry.event else { return nil }
            (label, eventID) = ("\(event)", schema.eventID(of: event))
            resolve = { schema.resolve(event, in: before.state, predicates: $0, data: before.data) }
        case .timeout(let duration):
            (label, eventID) = ("\(Timeout(duration))", schema.timeoutEventID(of: duration))
            resolve = { schema.resolveTimeout(duration, in: before.state, predicates: $0, data: before.data) }
        case .other:
            return nil
        }
        let first = resolve(entry.predicates ?? .none)
        guard entry.predicates == nil, divergence(of: entry, from: before.state, label: label, resolution: first) != nil,
              let state = schema.stateIndex(of: before.state), let eventID
        else { return (label, first, entry.predicates ?? .none) }
        let candidates = contexts.contexts(state: state, event: eventID)
        for context in candidates {
            let again = resolve(context)
            if divergence(of: entry, from: before.state, label: label, resolution: again) == nil { return (label, again, context) }
        }
        // No context does what the entry records: say what the first one does, rather than that none was given.
        return candidates.first.map { (label, resolve($0), $0) } ?? (label, first, .none)
    }

    /// What the new version does with the event or timeout `label` in `source`, if it differs
    /// from what `stored` records.
    private static func divergence(
        of stored: ReadEntry<Definition>, from source: Definition.State, label event: String, resolution: Resolution<Definition>
    ) -> String? {
        switch (stored.outcome, resolution) {
        case (.transitioned, .transition(let transition)) where transition.target == stored.state: nil
        case (.unhandled, .unhandled), (.conditionFalse, .conditionFalse): nil
        case (_, .transition(let transition)): "\(event): \(source) → \(transition.target)"
        case (_, .conditionFalse): "\(event) in \(source): its condition is false"
        case (_, .unhandled(let reason)): "\(event) in \(source): unhandled (\(reason))"
        }
    }

    /// What `stored` records for the event or timeout `label` in `source`.
    static func describe(_ stored: ReadEntry<Definition>, from source: Definition.State, label event: String) -> String {
        switch stored.outcome {
        case .transitioned: "\(event): \(source) → \(stored.state)"
        case .unhandled: "\(event) in \(source): unhandled"
        case .conditionFalse: "\(event) in \(source): its condition was false"
        case .failed, .stopped: "\(event) in \(source): \(stored.outcome)"
        }
    }
}
