import ActorFSMDurability
import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The table of operators' requests, which the `actorfsm` command writes beside the process
// that holds the store, and that process takes and answers.

extension SQLiteConnection {
    static let createRequests = """
        CREATE TABLE IF NOT EXISTS actorfsm_requests (
            id INTEGER PRIMARY KEY AUTOINCREMENT, machine TEXT NOT NULL, schema TEXT NOT NULL, verb TEXT NOT NULL,
            reason TEXT NOT NULL, requested_at INTEGER NOT NULL, taken_by TEXT NOT NULL DEFAULT '',
            answered INTEGER NOT NULL DEFAULT 0, succeeded INTEGER NOT NULL DEFAULT 0, answer TEXT NOT NULL DEFAULT '',
            answered_at INTEGER, event TEXT NOT NULL DEFAULT '')
        """

    /// Makes the requests' table if need be, with the signalled event's column that a table an
    /// older version made lacks.
    func makeRequestsTable() throws(StoreError) {
        try execute(Self.createRequests)
        var hasEvent = false
        try rows("SELECT 1 FROM pragma_table_info('actorfsm_requests') WHERE name = 'event'") { _ in hasEvent = true }
        guard !hasEvent else { return }
        do {
            try execute("ALTER TABLE actorfsm_requests ADD COLUMN event TEXT NOT NULL DEFAULT ''")
        } catch {
            // Another process opening the same file may have added it first.
            var added = false
            try rows("SELECT 1 FROM pragma_table_info('actorfsm_requests') WHERE name = 'event'") { _ in added = true }
            if !added { throw error }
        }
    }

    func submit(_ request: OperatorRequest) throws(StoreError) -> Int64 {
        try rows("""
            INSERT INTO actorfsm_requests (machine, schema, verb, reason, requested_at, event) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """, [.text(request.machine), .text(request.schema), .text(request.verb.rawValue), .text(request.reason),
                  .int(request.time), .text(request.event?.text ?? "")]) { _ in }
        return sqlite3_last_insert_rowid(database)
    }

    func progress(ofRequest number: Int64) throws(StoreError) -> OperatorRequestProgress {
        var progress = OperatorRequestProgress.unknown
        try rows("SELECT taken_by, answered, succeeded, answer FROM actorfsm_requests WHERE id = ?1", [.int(number)]) { row in
            progress = row.int(1) != 0 ? .answered(succeeded: row.int(2) != 0, message: row.text(3))
                : row.text(0).isEmpty ? .waiting : Self.isGone(taker: row.text(0)) ? .abandoned : .taken
        }
        return progress
    }

    /// Whether the process that took a request is gone: its taker names its process id (the
    /// store's file is local, so the process ran on this host), and no process has that id.
    /// A taker that names no process (`SQLiteRequests`) is never gone.
    static func isGone(taker: String) -> Bool {
        guard taker.hasPrefix("pid "), let id = pid_t(taker.dropFirst(4)), id > 0 else { return false }
        return kill(id, 0) != 0 && errno == ESRCH
    }

    func withdraw(request number: Int64) throws(StoreError) -> Bool {
        try rows("DELETE FROM actorfsm_requests WHERE id = ?1 AND taken_by = ''", [.int(number)]) { _ in }
        return sqlite3_changes(database) > 0
    }

    /// Takes the oldest waiting requests for `schema`, as `taker`; those answered a day before
    /// `now` (this process's clock, which answered them: requesters' clocks differ) go.
    /// A look first, so that a poll that finds nothing writes nothing.
    func takeRequests(forSchema schema: String, limit: Int, taker: String, now: Int64) throws(StoreError) -> [OperatorRequest] {
        var waiting = false
        try rows("SELECT 1 FROM actorfsm_requests WHERE taken_by = '' AND schema = ?1 LIMIT 1", [.text(schema)]) { _ in waiting = true }
        guard waiting else { return [] }
        try rows("DELETE FROM actorfsm_requests WHERE answered_at < ?1", [.int(now - 86_400_000)]) { _ in }
        // One transaction, without `UPDATE … RETURNING` (SQLite 3.35), which older systems lack.
        try execute("BEGIN IMMEDIATE")
        var taken: [OperatorRequest] = []
        var unknown: [(number: Int64, verb: String)] = []
        do throws(StoreError) {
            try rows("""
                SELECT id, machine, schema, verb, reason, requested_at, event FROM actorfsm_requests
                WHERE taken_by = '' AND schema = ?1 ORDER BY id LIMIT ?2
                """, [.text(schema), .int(Int64(limit))]) { row in
                guard let verb = OperatorRequest.Verb(rawValue: row.text(3)) else {
                    unknown.append((row.int(0), row.text(3)))
                    return
                }
                taken.append(OperatorRequest(number: row.int(0), machine: row.text(1), schema: row.text(2), verb: verb,
                                             reason: row.text(4), time: row.int(5), event: SignalledEvent(text: row.text(6))))
            }
            for number in taken.map(\.number) + unknown.map(\.number) {
                try rows("UPDATE actorfsm_requests SET taken_by = ?1 WHERE id = ?2", [.text(taker), .int(number)]) { _ in }
            }
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        // A verb of a newer version of the command, say: refused, not left unanswered.
        for request in unknown {
            try answer(request: request.number, succeeded: false, message: "this process does not know the verb \(request.verb)",
                       now: now)
        }
        return taken
    }

    func answer(request number: Int64, succeeded: Bool, message: String, now: Int64) throws(StoreError) {
        try rows("UPDATE actorfsm_requests SET answered = 1, succeeded = ?2, answer = ?3, answered_at = ?4 WHERE id = ?1",
                 [.int(number), .int(succeeded ? 1 : 0), .text(message), .int(now)]) { _ in }
    }
}
