import ActorFSMDurability

// The inspection queries, answered from the `machines` and `schemas` tables.

extension SQLiteConnection {
    func storedSchemas() throws(StoreError) -> [StoredSchema] {
        try requireSummaries()
        var schemas: [StoredSchema] = []
        try rows("SELECT description FROM schemas ORDER BY fingerprint") { row in
            if let schema = StoredSchema(json: row.text(0)) { schemas.append(schema) }
        }
        return schemas
    }

    func stateCounts() throws(StoreError) -> [StateCount] {
        try requireSummaries()
        var counts: [StateCount] = []
        // In the order of the state index, which covers the query.
        try rows("SELECT fingerprint, state, COUNT(*) FROM machines GROUP BY state, fingerprint") { row in
            counts.append(StateCount(fingerprint: row.text(0), state: row.text(1), count: Int(row.int(2))))
        }
        return counts.sorted { ($0.fingerprint, $0.state) < ($1.fingerprint, $1.state) }
    }

    func machines(_ query: MachineQuery) throws(StoreError) -> MachinePage {
        try requireSummaries()
        // The state index orders by schema before time: one ordered read per schema with
        // machines in that state, merged, rather than sorting every machine in it.
        if let state = query.state, query.fingerprint == nil {
            var merged: [StoredMachine] = []
            for fingerprint in try fingerprints(in: state) {
                var one = query
                one.fingerprint = fingerprint
                merged += try machines(one).machines
            }
            merged.sort { MachineCursor($0) < MachineCursor($1) }
            return MachinePage(machines: Array(merged.prefix(query.limit)), limit: query.limit)
        }
        let (clause, bound) = query.sql(parameter: { "?\($0)" })
        let values = bound.map { value -> SQLiteValue in
            switch value {
            case .text(let text): .text(text)
            case .integer(let number): .int(number)
            }
        }
        let sql = Self.machineColumns + clause
        var machines: [StoredMachine] = []
        try rows(sql, values) { machines.append(Self.machine($0)) }
        return MachinePage(machines: machines, limit: query.limit)
    }

    /// The fingerprints of the schemas with machines in `state`, one index seek each.
    private func fingerprints(in state: String) throws(StoreError) -> [String] {
        var fingerprints: [String] = []
        while true {
            var next: String?
            try rows("SELECT fingerprint FROM machines WHERE state = ?1 AND fingerprint > ?2 ORDER BY fingerprint LIMIT 1",
                     [.text(state), .text(fingerprints.last ?? "")]) { next = $0.text(0) }
            guard let next else { return fingerprints }
            fingerprints.append(next)
        }
    }

    func machine(_ id: String) throws(StoreError) -> StoredMachine? {
        try requireSummaries()
        var machine: StoredMachine?
        try rows(Self.machineColumns + " WHERE machine = ?1", [.text(id)]) { machine = Self.machine($0) }
        return machine
    }

    func changes(after change: Int64, limit: Int) throws(StoreError) -> [StoredMachine] {
        try requireSummaries()
        var machines: [StoredMachine] = []
        try rows(Self.machineColumns + " WHERE change > ?1 ORDER BY change LIMIT ?2", [.int(change), .int(Int64(limit))]) {
            machines.append(Self.machine($0))
        }
        return machines
    }

    private static let machineColumns = """
        SELECT machine, sequence, state, status, fingerprint, schema_version, last_transition, waiting_until, change FROM machines
        """

    private static func machine(_ row: SQLiteRow) -> StoredMachine {
        let summary = MachineSummary(
            state: row.text(2), status: MachineStatus(rawValue: row.text(3)) ?? .running, fingerprint: row.text(4),
            schemaVersion: Int(row.int(5)), lastTransition: row.int(6), waitingUntil: row.optionalInt(7))
        return StoredMachine(id: row.text(0), sequenceNumber: UInt64(bitPattern: row.int(1)), summary: summary, change: row.int(8))
    }

    /// Fails with a message saying what to do if the file has no summary tables: a store a
    /// release before them wrote, not opened since by a writer of this one.
    private func requireSummaries() throws(StoreError) {
        guard summaries == nil else { return }
        guard try hasTable("machines") else {
            throw StoreError("the store \(path) keeps no machine summaries yet: a release before them wrote it; "
                             + "open it once with this release's SQLiteStore, which adds them from the journal")
        }
    }
}
