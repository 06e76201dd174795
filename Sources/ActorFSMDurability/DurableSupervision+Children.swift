import ActorFSM

// Durable child machines: started or linked again where the parent runs, or, held by another
// process, followed through the store until they end.

extension DurableSupervision {
    package func activate(
        _ id: ID, data: Definition.Data, of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) -> Machine<Definition> {
        try await supervisor.activate(id: id, data: data)
    }

    package func isHeldElsewhere(_ error: MachineError<Definition>) -> Bool { Self.isHeldElsewhere(error) }

    package func isStoreUnavailable(_ error: MachineError<Definition>) -> Bool {
        error.kind == .notDurable && (error.underlying as? DurabilityError)?.kind == .storeFailed
    }

    package func key(for id: ID) -> String { coding.key(id) }

    package func id(forKey key: String) -> ID? { coding.id(key) }

    package func awaitStoredEnd(
        of id: ID, after error: MachineError<Definition>, of supervisor: Supervisor<Definition>,
        while wanted: @escaping @Sendable () -> Bool
    ) async -> (Definition.State, Definition.Data)? {
        guard Self.isHeldElsewhere(error) else { return nil }
        let key = coding.key(id)
        let clock = supervisor.configuration.machine.clock
        var delay = Self.firstEndPoll
        while wanted() {
            if let end = await storedEnd(of: key, schema: supervisor.schema) { return end }
            do { try await clock.sleep(for: delay) } catch { return nil }
            delay = min(delay * 2, Self.longestEndPoll)
        }
        return nil
    }

    /// How long a parent waits after its first read of the store for the end of a child another
    /// process holds (made at once) before the next; each later wait is twice as long, up to
    /// ``longestEndPoll``.
    static var firstEndPoll: Duration { .milliseconds(5) }
    /// The longest wait between two reads for a child's end.
    static var longestEndPoll: Duration { .seconds(1) }

    /// The final state and data the store holds for machine `key`, if its newest completed
    /// entry has a final state.
    private func storedEnd(of key: String, schema: Schema<Definition>) async -> (Definition.State, Definition.Data)? {
        guard let entries = try? await coding.durability.store.latestEntries(of: key, count: 2),
              let recovery = try? Recovery.decode(entries, key: key, coding: coding, schema: schema, data: coding.emptyData),
              schema.finalStates.contains(recovery.point.state)
        else { return nil }
        return (recovery.point.state, recovery.point.data)
    }
}
