import ActorFSM

/// Compares a schema and its migration with what a store holds: for every older version of the
/// schema (by name) whose machines have not all ended, each state they occupy must read, as a
/// restore would read it, as a state of the schema. It reads the stored descriptions and the
/// summaries' counts, and lists machines only for a state that fails.
struct CompatibilityCheck<Definition: MachineDefinition> {
    let coding: DurableCoding<Definition>
    let schema: Schema<Definition>
    let store: any StoreInspection

    func report() async throws(StoreError) -> CompatibilityReport {
        let name = coding.stored.description.name
        let older = try await store.storedSchemas().filter {
            $0.description.name == name && $0.fingerprint != coding.stored.fingerprint
        }
        guard !older.isEmpty else { return CompatibilityReport(problems: []) }
        var counts: [String: [String: Int]] = [:]
        for count in try await store.stateCounts() { counts[count.fingerprint, default: [:]][count.state, default: 0] += count.count }
        var problems: [CompatibilityReport.Problem] = []
        for stored in older {
            for (index, state) in stored.description.states.enumerated() where !state.isFinal && index < stored.encodedStates.count {
                guard let count = counts[stored.fingerprint]?[state.name], count > 0,
                      let reason = unreadable(stored.encodedStates[index], of: stored)
                else { continue }
                let (ended, firstIDs) = try await endedAndFirst(in: stored.fingerprint, state: state.name)
                guard count > ended else { continue }
                problems.append(.init(fingerprint: stored.fingerprint, schemaVersion: stored.schemaVersion, state: state.name,
                                      machines: count - ended, firstIDs: firstIDs, reason: reason))
            }
        }
        return CompatibilityReport(problems: problems)
    }

    /// Why the schema cannot read the state stored as `bytes` by `stored`; `nil` if it can.
    private func unreadable(_ bytes: [UInt8], of stored: StoredSchema) -> String? {
        let name = coding.stored.description.name
        switch coding.readState(bytes, schemaVersion: stored.schemaVersion, sameSchema: false, in: schema) {
        case .state(let state) where schema.storage.table.stateIDs[state] != nil:
            return nil
        case .state(let state):
            return "the migration maps it to \(state), which \(name) does not define"
        case .unknown(migrated: true):
            return "it is not a state of \(name), and the migration maps it to nothing"
        case .unknown(migrated: false):
            return "it is not a state of \(name): give Durability a SchemaMigration that maps it to one"
        case .migrationFailed(let error):
            return "the migration failed on it: \(error)"
        }
    }

    /// How many machines in `state` of the schema `fingerprint` have ended for good (cancelled,
    /// or purged with their summaries kept), and the ids of the first ten that have not.
    private func endedAndFirst(in fingerprint: String, state: String) async throws(StoreError) -> (Int, [String]) {
        var ended = 0
        for status in [MachineStatus.cancelled, .purged] {
            var query = MachineQuery(state: state, status: status, fingerprint: fingerprint, limit: 10_000)
            while true {
                let page = try await store.machines(query)
                ended += page.machines.count
                guard let next = page.next else { break }
                query.after = next
            }
        }
        var first: [String] = []
        var query = MachineQuery(state: state, fingerprint: fingerprint, limit: 100)
        while first.count < 10 {
            let page = try await store.machines(query)
            first += page.machines.filter { ![.cancelled, .purged].contains($0.summary.status) }.prefix(10 - first.count).map(\.id)
            guard let next = page.next else { break }
            query.after = next
        }
        return (ended, first)
    }
}
