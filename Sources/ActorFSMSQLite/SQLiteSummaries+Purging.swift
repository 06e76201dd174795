import ActorFSMDurability
import CSQLite

// Purging: the journals of final machines deleted a batch at a time, each checked against its
// summary in the batch's own transaction, with statements over the whole batch.

extension SQLiteSummaries {
    /// Deletes the entries and the summary of each of `machines` whose summary is final (or
    /// purged) at the entry numbered as given, and which has no newer entry, or keeps the
    /// summary as purged; in one transaction, after the waiting summaries are written.
    ///
    /// - Returns: the ids of the machines deleted.
    func deleteJournals(of machines: [(id: String, sequenceNumber: UInt64)], keepingSummaries: Bool) throws(StoreError) -> [String] {
        var deleted: [String] = []
        try inTransaction { () throws(StoreError) in
            try writeWaiting()
            try connection.execute(Self.batchTable)
            try connection.execute("DELETE FROM temp.purging")
            let insert = try connection.prepare("INSERT OR IGNORE INTO temp.purging (machine, sequence) VALUES (?1, ?2)")
            defer { sqlite3_finalize(insert) }
            for machine in machines {
                try connection.run(insert) { statement in
                    sqlite3_bind_text(statement, 1, machine.id, -1, transient)
                    sqlite3_bind_int64(statement, 2, Int64(bitPattern: machine.sequenceNumber))
                }
            }
            try connection.execute(keepingSummaries ? Self.keepOnlyEnded : Self.keepOnlyEndedOrPurged)
            try connection.rows("SELECT machine FROM temp.purging") { deleted.append($0.text(0)) }
            try connection.execute("DELETE FROM journal WHERE machine IN (SELECT machine FROM temp.purging)")
            if keepingSummaries {
                // Each kept row changes: watchers and followers see it purged.
                for id in deleted {
                    try connection.rows("UPDATE machines SET status = 'purged', sequence = 0, change = ?2 WHERE machine = ?1",
                                        [.text(id), .int(nextChange)]) { _ in }
                    nextChange += 1
                }
            } else {
                try connection.execute("DELETE FROM machines WHERE machine IN (SELECT machine FROM temp.purging)")
            }
        }
        return deleted
    }

    /// The machines of the batch being purged, with the entries their summaries were read at.
    private static let batchTable = """
        CREATE TEMP TABLE IF NOT EXISTS purging (machine TEXT NOT NULL PRIMARY KEY, sequence INTEGER NOT NULL) WITHOUT ROWID
        """

    /// Drops from the batch every machine whose summary is no longer final, cancelled (or, for
    /// a purge that drops summaries, purged) at the entry read, or whose journal has a newer entry.
    private static func keepOnly(_ statuses: String) -> String {
        """
        DELETE FROM temp.purging WHERE NOT EXISTS (
            SELECT 1 FROM machines m WHERE m.machine = purging.machine AND m.sequence = purging.sequence AND m.status IN (\(statuses)))
        OR EXISTS (SELECT 1 FROM journal j WHERE j.machine = purging.machine AND j.sequence > purging.sequence)
        OR EXISTS (SELECT 1 FROM machines m JOIN journal j ON j.machine = m.machine
                   WHERE m.machine = purging.machine AND m.status = 'purged')
        """
    }

    private static let keepOnlyEnded = keepOnly("'final', 'cancelled'")
    private static let keepOnlyEndedOrPurged = keepOnly("'final', 'cancelled', 'purged'")
}
