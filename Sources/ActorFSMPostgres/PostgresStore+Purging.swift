import ActorFSMDurability

extension PostgresStore: MachinePurging {
    /// Deletes the journals of those of `machines` still final at the entries given, in one
    /// statement on the store's thread, once this process's waiting summaries are written; see
    /// `MachinePurging`. The leases of the machines deleted go too, unless a live process holds
    /// one (a final machine still in its memory).
    public func deleteJournals(
        of machines: [(id: String, sequenceNumber: UInt64)], keepingSummaries: Bool
    ) async throws(StoreError) -> [String] {
        let sorted = machines.sorted { $0.id < $1.id }
        return try await run { database throws(StoreError) in
            try database.summaries.flush(on: database.connection, node: database.node)
            let rows = try database.connection.query(PostgresSchema.deleteJournals, [
                .texts(sorted.map(\.id)), .integers(sorted.map { Int64(bitPattern: $0.sequenceNumber) }),
                .text(keepingSummaries ? "keep" : "drop"),
            ])
            return (0..<rows.count).map { rows.text($0, 0) }
        }
    }
}

extension PostgresSchema {
    /// $1 machines, $2 the entries their summaries were read at, $3 `keep` or `drop`: deletes
    /// the entries of each machine whose summary is final at that entry and which has no newer
    /// one, its summary unless $3 is `keep`, and its lease unless a live node holds it (one whose
    /// entries are gone already, only if its summary goes now); the
    /// summary rows are locked in machine order, as every statement that writes them locks
    /// them; returns the machines deleted.
    static let deleteJournals = """
        WITH p AS (SELECT * FROM unnest($1::text[], $2::bigint[]) AS p(machine, seq)),
        final AS (
            SELECT m.machine, EXISTS (SELECT 1 FROM actorfsm_journal j WHERE j.machine = m.machine) AS journaled
            FROM actorfsm_machines m JOIN p ON p.machine = m.machine AND m.seq = p.seq
            WHERE m.status = 'final'
            AND NOT EXISTS (SELECT 1 FROM actorfsm_journal j WHERE j.machine = m.machine AND j.seq > m.seq)
            ORDER BY m.machine
            FOR UPDATE OF m),
        ended AS (SELECT machine FROM final WHERE journaled OR $3 = 'drop'),
        gone AS (DELETE FROM actorfsm_journal j USING ended WHERE j.machine = ended.machine),
        dropped AS (DELETE FROM actorfsm_machines m USING ended WHERE m.machine = ended.machine AND $3 = 'drop'),
        released AS (
            DELETE FROM actorfsm_leases l USING ended WHERE l.machine = ended.machine
            AND NOT EXISTS (SELECT 1 FROM actorfsm_nodes n WHERE n.node = l.node AND n.expires_at > now()))
        SELECT machine FROM ended
        """
}
