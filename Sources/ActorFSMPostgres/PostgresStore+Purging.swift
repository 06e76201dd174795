import ActorFSMDurability

extension PostgresStore: MachinePurging {
    /// Deletes the journals of those of `machines` still ended at the entries given (and their
    /// summaries, or, `keepingSummaries`, marks those purged), on the
    /// store's thread, once this process's waiting summaries are written; see `MachinePurging`.
    ///
    /// One transaction locks the machines' lease rows first (`FOR UPDATE`, in machine order, as
    /// every statement takes them), so that an append of any process to one of them, which
    /// holds its lease row `FOR SHARE`, commits before the check or waits until after the
    /// deletion; the check and the deletion then read the journal afresh. The lease rows stay:
    /// their epochs keep fencing a process paused past its life.
    public func deleteJournals(
        of machines: [(id: String, sequenceNumber: UInt64)], keepingSummaries: Bool
    ) async throws(StoreError) -> [String] {
        let sorted = machines.sorted { $0.id < $1.id }
        return try await run { database throws(StoreError) in
            try database.summaries.flush(on: database.connection, node: database.node)
            let connection = database.connection
            try connection.execute("BEGIN")
            do throws(StoreError) {
                try connection.query(PostgresSchema.lockLeasesForPurge, [.texts(sorted.map(\.id))])
                let rows = try connection.query(PostgresSchema.deleteJournals, [
                    .texts(sorted.map(\.id)), .integers(sorted.map { Int64(bitPattern: $0.sequenceNumber) }),
                    .text(keepingSummaries ? "t" : "f"),
                ])
                try connection.execute("COMMIT")
                return (0..<rows.count).map { rows.text($0, 0) }
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}

extension PostgresSchema {
    /// $1 machines: locks their lease rows in machine order, for a purge's transaction.
    static let lockLeasesForPurge = """
        SELECT machine FROM actorfsm_leases WHERE machine = ANY($1::text[]) ORDER BY machine FOR UPDATE
        """

    /// $1 machines, $2 the entries their summaries were read at, $3 whether summaries are
    /// kept: deletes the entries of each machine whose summary is final or cancelled (or, unless
    /// $3, purged) at that entry and which has no newer one, and its summary, or, if $3, marks
    /// the summary purged at entry 0; the summary rows locked in machine order. Returns the
    /// machines purged.
    static let deleteJournals = """
        WITH p AS (SELECT * FROM unnest($1::text[], $2::bigint[]) AS p(machine, seq)),
        ended AS (
            SELECT m.machine FROM actorfsm_machines m JOIN p ON p.machine = m.machine AND m.seq = p.seq
            WHERE (m.status IN ('final', 'cancelled') OR (m.status = 'purged' AND NOT $3::boolean))
            AND NOT EXISTS (SELECT 1 FROM actorfsm_journal j WHERE j.machine = m.machine AND j.seq > m.seq)
            -- A kept summary whose id has a journal again belongs to a new machine now.
            AND NOT (m.status = 'purged' AND EXISTS (SELECT 1 FROM actorfsm_journal j WHERE j.machine = m.machine))
            ORDER BY m.machine
            FOR UPDATE OF m),
        gone AS (DELETE FROM actorfsm_journal j USING ended WHERE j.machine = ended.machine),
        dropped AS (DELETE FROM actorfsm_machines m USING ended WHERE m.machine = ended.machine AND NOT $3::boolean),
        kept AS (UPDATE actorfsm_machines m SET status = 'purged', seq = 0, change = nextval('actorfsm_changes') FROM ended
                 WHERE m.machine = ended.machine AND $3::boolean)
        SELECT machine FROM ended
        """
}
