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

    package func storedEnd(
        of id: ID, of supervisor: Supervisor<Definition>
    ) async -> (Definition.State, Definition.Data)? {
        let key = coding.key(id)
        let schema = supervisor.schema
        guard let entries = try? await coding.durability.store.latestEntries(of: key, count: 2),
              let recovery = try? Recovery.decode(entries, key: key, coding: coding, schema: schema, data: coding.emptyData),
              schema.finalStates.contains(recovery.point.state)
        else { return nil }
        return (recovery.point.state, recovery.point.data)
    }
}
