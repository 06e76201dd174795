import ActorFSMDurability

/// Reads of the journal.
extension PostgresConnection {
    /// The newest `count` entries of each of `machines`, newest first; all of them, oldest first,
    /// when `count` is `nil` (one machine). A machine named twice (two reads that share the
    /// query) is read once: the statement would answer its rows once per name.
    func entries(of machines: [String], newest count: Int?) throws(StoreError) -> [String: [JournalEntry]] {
        let machines = Array(Set(machines))
        let rows = if let count {
            try query(PostgresSchema.latest, [.texts(machines), .integer(Int64(count))])
        } else {
            try query(PostgresSchema.all, [.texts(machines)])
        }
        var entries = Self.entries(in: rows)
        for machine in machines where entries[machine] == nil { entries[machine] = [] }
        return entries
    }

    /// The entries of rows of machine, number and payload, per machine, in the rows' order.
    static func entries(in rows: PostgresRows) -> [String: [JournalEntry]] {
        var entries: [String: [JournalEntry]] = [:]
        for row in 0..<rows.count {
            let machine = rows.text(row, 0)
            entries[machine, default: []].append(JournalEntry(
                machine: machine, sequenceNumber: UInt64(bitPattern: rows.integer(row, 1)), payload: rows.bytes(row, 2)))
        }
        return entries
    }

    /// The ids of every machine with an entry.
    func machineIDs() throws(StoreError) -> [String] {
        let rows = try query(PostgresSchema.machines)
        return (0..<rows.count).map { rows.text($0, 0) }
    }
}
