import ActorFSMDurability

// The inspection queries, answered from the `actorfsm_machines` and `actorfsm_schemas` tables.

extension PostgresConnection {
    func storedSchemas() throws(StoreError) -> [StoredSchema] {
        try requireSummaries()
        let rows = try query("SELECT description FROM actorfsm_schemas ORDER BY fingerprint")
        return (0..<rows.count).compactMap { StoredSchema(json: rows.text($0, 0)) }
    }

    func stateCounts() throws(StoreError) -> [StateCount] {
        try requireSummaries()
        let rows = try query("""
            SELECT fingerprint, state, count(*) FROM actorfsm_machines GROUP BY fingerprint, state ORDER BY fingerprint, state
            """)
        return (0..<rows.count).map { StateCount(fingerprint: rows.text($0, 0), state: rows.text($0, 1), count: Int(rows.integer($0, 2))) }
    }

    func machines(_ query: MachineQuery) throws(StoreError) -> MachinePage {
        try requireSummaries()
        // The state index orders by time within a state: a listing of any state reads one
        // ordered range per state and merges them, rather than sorting every machine. (A
        // listing by status has an index of its own; filtering each range by schema or
        // version would read most of the index for a rare one.)
        if query.state == nil && query.status == nil && query.fingerprint == nil && query.schemaVersion == nil {
            var merged: [StoredMachine] = []
            for state in try states() {
                var one = query
                one.state = state
                merged += try machines(one).machines
            }
            merged.sort { MachineCursor($0) < MachineCursor($1) }
            return MachinePage(machines: Array(merged.prefix(query.limit)), limit: query.limit)
        }
        let (clause, bound) = query.sql(parameter: { "$\($0)" }, integer: { "\($0)::bigint" }, machine: #"machine COLLATE "C""#)
        let values = bound.map { value -> PostgresParameter in
            switch value {
            case .text(let text): .text(text)
            case .integer(let number): .integer(number)
            }
        }
        let rows = try self.query(Self.machineColumns + clause, values)
        return MachinePage(machines: (0..<rows.count).map { Self.machine(rows, $0) }, limit: query.limit)
    }

    /// The states that have machines, from the state index: one seek each.
    private func states() throws(StoreError) -> [String] {
        let rows = try query("""
            WITH RECURSIVE states(state) AS (
                (SELECT state FROM actorfsm_machines ORDER BY state LIMIT 1)
                UNION ALL
                SELECT (SELECT m.state FROM actorfsm_machines m WHERE m.state > s.state ORDER BY m.state LIMIT 1)
                FROM states s WHERE s.state IS NOT NULL
            )
            SELECT state FROM states WHERE state IS NOT NULL
            """)
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    func machine(_ id: String) throws(StoreError) -> StoredMachine? {
        try requireSummaries()
        let rows = try query(Self.machineColumns + " WHERE machine = $1", [.text(id)])
        return rows.count == 0 ? nil : Self.machine(rows, 0)
    }

    func changes(after change: Int64, limit: Int) throws(StoreError) -> [StoredMachine] {
        try requireSummaries()
        let rows = try query(Self.machineColumns + " WHERE change > $1::bigint ORDER BY change LIMIT $2::bigint",
                             [.integer(change), .integer(Int64(limit))])
        return (0..<rows.count).map { Self.machine(rows, $0) }
    }

    func allEntries(of machine: String) throws(StoreError) -> [JournalEntry] {
        let rows = try query("SELECT seq, payload FROM actorfsm_journal WHERE machine = $1 ORDER BY seq", [.text(machine)])
        return (0..<rows.count).map {
            JournalEntry(machine: machine, sequenceNumber: UInt64(bitPattern: rows.integer($0, 0)), payload: rows.bytes($0, 1))
        }
    }

    private static let machineColumns = """
        SELECT machine, seq, state, status, fingerprint, schema_version, last_transition, COALESCE(waiting_until, 0), change
        FROM actorfsm_machines
        """

    private static func machine(_ rows: PostgresRows, _ row: Int) -> StoredMachine {
        let until = rows.integer(row, 7)
        let summary = MachineSummary(
            state: rows.text(row, 2), status: MachineStatus(rawValue: rows.text(row, 3)) ?? .running,
            fingerprint: rows.text(row, 4), schemaVersion: Int(rows.integer(row, 5)), lastTransition: rows.integer(row, 6),
            waitingUntil: until == 0 ? nil : until)
        return StoredMachine(id: rows.text(row, 0), sequenceNumber: UInt64(bitPattern: rows.integer(row, 1)),
                             summary: summary, change: rows.integer(row, 8))
    }

    /// Fails with a message saying what to do if the database has no summary tables.
    private func requireSummaries() throws(StoreError) {
        let rows = try query("SELECT to_regclass('actorfsm_machines') IS NOT NULL")
        guard rows.count > 0, rows.integer(0, 0) != 0 else {
            throw StoreError("the database at \(target) keeps no machine summaries: no PostgresStore of this release "
                             + "has opened it (with this namespace, if it has one)")
        }
    }
}
