import ActorFSMDurability

// Purging: the journals of final machines deleted a batch at a time, each checked against its
// summary in the batch's own transaction.

extension SQLiteSummaries {
    /// Deletes the entries and the summary of each of `machines` whose summary is final at the
    /// entry numbered as given, and which has no newer entry; in one transaction, after the
    /// waiting summaries are written.
    ///
    /// - Returns: the ids of the machines deleted.
    func deleteJournals(of machines: [(id: String, sequenceNumber: UInt64)]) throws(StoreError) -> [String] {
        var deleted: [String] = []
        try inTransaction { () throws(StoreError) in
            try writeWaiting()
            for machine in machines {
                var isFinal = false
                try connection.rows(Self.finalAtEntry, [.text(machine.id), .int(Int64(bitPattern: machine.sequenceNumber))]) { _ in
                    isFinal = true
                }
                guard isFinal else { continue }
                try connection.rows("DELETE FROM journal WHERE machine = ?1", [.text(machine.id)]) { _ in }
                try connection.rows("DELETE FROM machines WHERE machine = ?1", [.text(machine.id)]) { _ in }
                deleted.append(machine.id)
            }
        }
        return deleted
    }

    private static let finalAtEntry = """
        SELECT 1 FROM machines WHERE machine = ?1 AND sequence = ?2 AND status = 'final'
        AND NOT EXISTS (SELECT 1 FROM journal WHERE machine = ?1 AND sequence > ?2)
        """
}
