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
        // The state index orders by state and schema before time: a listing that names both
        // reads one ordered range of it. One that names a state, or filters by nothing the
        // index lacks, reads one range per state and schema it lets through and merges them,
        // rather than sorting every machine. (Filtering a range by status or version would
        // read most of the index for a rare value: those read the table once instead.)
        let ranged = query.state != nil || (query.status == nil && query.schemaVersion == nil)
        if ranged && (query.state == nil || query.fingerprint == nil) {
            var merged: [StoredMachine] = []
            for (state, fingerprint) in try ranges(state: query.state, fingerprint: query.fingerprint) {
                var one = query
                one.state = state
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

    /// The states and schemas that have machines, as the state index holds them, restricted to
    /// `state` and `fingerprint` where given: one index seek each.
    private func ranges(state: String?, fingerprint: String?) throws(StoreError) -> [(state: String, fingerprint: String)] {
        var ranges: [(state: String, fingerprint: String)] = []
        let states: [String] = if let state { [state] } else { try self.states() }
        for state in states {
            for found in try fingerprints(in: state) where fingerprint == nil || found == fingerprint {
                ranges.append((state, found))
            }
        }
        return ranges
    }

    /// The states that have machines, in order.
    private func states() throws(StoreError) -> [String] {
        try distinct("SELECT state FROM machines WHERE state > ?1 ORDER BY state LIMIT 1") { [.text($0)] }
    }

    /// The fingerprints of the schemas with machines in `state`.
    private func fingerprints(in state: String) throws(StoreError) -> [String] {
        try distinct("SELECT fingerprint FROM machines WHERE state = ?1 AND fingerprint > ?2 ORDER BY fingerprint LIMIT 1") {
            [.text(state), .text($0)]
        }
    }

    /// The values `sql` finds one after another, each the first above the one before it
    /// (bound by `values`, from ""): a walk of an index, one seek per value.
    private func distinct(_ sql: String, values: (String) -> [SQLiteValue]) throws(StoreError) -> [String] {
        var found: [String] = []
        while true {
            var next: String?
            try rows(sql, values(found.last ?? "")) { next = $0.text(0) }
            guard let next else { return found }
            found.append(next)
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
