import ActorFSM

/// Compares a schema with what a store holds: for every older version of the schema (by name)
/// whose machines have not all ended, each state they occupy must be readable by the schema. It
/// reads the stored descriptions and the summaries' counts, and lists machines only for a state
/// that fails.
package struct CompatibilityCheck: Sendable {
    /// The new schema, as a store would keep it.
    let schema: StoredSchema
    let store: any StoreInspection
    /// Why the new schema cannot read a state stored as these bytes by this older schema;
    /// `nil` if it can.
    let unreadable: @Sendable ([UInt8], StoredSchema) -> String?

    /// A check of `schema` against `store`, with `unreadable` saying why a stored state is not
    /// one the schema reads.
    package init(schema: StoredSchema, store: any StoreInspection, unreadable: @escaping @Sendable ([UInt8], StoredSchema) -> String?) {
        self.schema = schema
        self.store = store
        self.unreadable = unreadable
    }

    /// A check of a schema by its description alone, without its Swift types: a stored state
    /// is readable if the new schema encodes one of its states to the same bytes, or is named
    /// in `mapped` (states a migration maps, which only the application's code can run).
    package init(description schema: StoredSchema, store: any StoreInspection, mapped: Set<String>) {
        self.init(schema: schema, store: store) { bytes, stored in
            if schema.encodedStates.contains(bytes) { return nil }
            if let name = stored.stateName(encoded: bytes), mapped.contains(name) { return nil }
            return "it is not a state of \(schema.description.name) (give --mapped \(stored.stateName(encoded: bytes) ?? "STATE") "
                + "if the application's SchemaMigration maps it)"
        }
    }

    /// The store's versions of the schema: the same name, any fingerprint.
    package func storedVersions() async throws(StoreError) -> [StoredSchema] {
        let name = schema.description.name
        return try await store.storedSchemas().filter { $0.description.name == name }
    }

    package func report() async throws(StoreError) -> CompatibilityReport {
        try await report(of: storedVersions())
    }

    /// The report on the states of `versions`, the store's versions of the schema: those of
    /// another fingerprint (a fingerprint covers the states).
    package func report(of versions: [StoredSchema]) async throws(StoreError) -> CompatibilityReport {
        let older = versions.filter { $0.fingerprint != schema.fingerprint }
        guard !older.isEmpty else { return CompatibilityReport(problems: []) }
        var counts: [String: [String: Int]] = [:]
        for count in try await store.stateCounts() { counts[count.fingerprint, default: [:]][count.state, default: 0] += count.count }
        var problems: [CompatibilityReport.Problem] = []
        for stored in older {
            for (index, state) in stored.description.states.enumerated() where !state.isFinal && index < stored.encodedStates.count {
                guard let count = counts[stored.fingerprint]?[state.name], count > 0,
                      let reason = unreadable(stored.encodedStates[index], stored)
                else { continue }
                let (ended, firstIDs) = try await endedAndFirst(in: stored.fingerprint, state: state.name)
                guard count > ended else { continue }
                problems.append(.init(fingerprint: stored.fingerprint, schemaVersion: stored.schemaVersion, state: state.name,
                                      machines: count - ended, firstIDs: firstIDs, reason: reason))
            }
        }
        return CompatibilityReport(problems: problems)
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

extension DurableCoding {
    /// Why this schema, with its durability's migration, cannot read the state stored as `bytes`
    /// by the older schema `stored`, as a restore would read it; `nil` if it can.
    func unreadable(_ bytes: [UInt8], of stored: StoredSchema, in schema: Schema<Definition>) -> String? {
        let name = self.stored.description.name
        switch readState(bytes, schemaVersion: stored.schemaVersion, sameSchema: false, in: schema) {
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
}
