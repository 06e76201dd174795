import ActorFSMDurability

/// The store carries operators' requests between the processes that share the database: the
/// `actorfsm` command asks through it when a live process holds the machine, and the durable
/// supervisors of the process that holds it (or of any process, for a machine no live process
/// holds) take and answer them.
extension PostgresStore: OperatorRequestQueue {
    /// Queues `request`; see `OperatorRequestQueue.submit(_:)`.
    public func submit(_ request: OperatorRequest) async throws(StoreError) -> Int64 {
        try await run { database throws(StoreError) in
            try database.connection.query(PostgresSchema.submitRequest, [
                .text(request.machine), .text(request.schema), .text(request.verb.rawValue), .text(request.reason),
                .integer(request.time), .text(request.event?.text ?? ""),
            ]).integer(0, 0)
        }
    }

    /// Where a request is; see `OperatorRequestQueue.progress(ofRequest:)`.
    public func progress(ofRequest number: Int64) async throws(StoreError) -> OperatorRequestProgress {
        try await run { database throws(StoreError) in
            let rows = try database.connection.query(PostgresSchema.requestProgress, [.integer(number)])
            guard rows.count > 0 else { return .unknown }
            // Booleans come in binary form: one byte.
            if rows.bytes(0, 1) == [1] { return .answered(succeeded: rows.bytes(0, 2) == [1], message: rows.text(0, 3)) }
            if rows.text(0, 0).isEmpty { return .waiting }
            return rows.bytes(0, 4) == [1] ? .abandoned : .taken
        }
    }

    /// Removes a request not taken yet; see `OperatorRequestQueue.withdraw(request:)`.
    public func withdraw(request number: Int64) async throws(StoreError) -> Bool {
        try await run { database throws(StoreError) in
            try database.connection.query(PostgresSchema.withdrawRequest, [.integer(number)]).count > 0
        }
    }

    /// Takes waiting requests for machines of `schema` that this process holds, or that no live
    /// process holds; see `OperatorRequestQueue.takeRequests(forSchema:limit:)`.
    public func takeRequests(forSchema schema: String, limit: Int) async throws(StoreError) -> [OperatorRequest] {
        try await run { database throws(StoreError) in
            let rows = try database.connection.query(PostgresSchema.takeRequests, [
                .text(database.node), .text(schema), .integer(Int64(limit)), .text(database.instance),
            ])
            var taken: [OperatorRequest] = []
            for row in 0..<rows.count {
                guard let verb = OperatorRequest.Verb(rawValue: rows.text(row, 3)) else {
                    // A verb of a newer version of the command, say: refused, not left unanswered.
                    _ = try database.connection.query(PostgresSchema.answerRequest, [
                        .integer(rows.integer(row, 0)), .text("f"), .text("this process does not know the verb \(rows.text(row, 3))"),
                    ])
                    continue
                }
                taken.append(OperatorRequest(number: rows.integer(row, 0), machine: rows.text(row, 1), schema: rows.text(row, 2),
                                             verb: verb, reason: rows.text(row, 4), time: rows.integer(row, 5),
                                             event: SignalledEvent(text: rows.text(row, 6))))
            }
            return taken.sorted { $0.number < $1.number }
        }
    }

    /// Records an answer; see `OperatorRequestQueue.answer(request:succeeded:message:)`.
    public func answer(request number: Int64, succeeded: Bool, message: String) async throws(StoreError) {
        try await run { database throws(StoreError) in
            _ = try database.connection.query(PostgresSchema.answerRequest, [
                .integer(number), .text(succeeded ? "t" : "f"), .text(message),
            ])
        }
    }
}

extension PostgresSchema {
    /// Makes the requests' table if need be (or adds the columns that a table an older version
    /// made lacks: the signalled event, the taker's instance), in a block of its own: once the
    /// table has the newest column it changes nothing and takes no lock.
    static let requestsCreation = """
        DO $$
        BEGIN
            IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                       AND table_name = 'actorfsm_requests' AND column_name = 'taken_instance') THEN RETURN; END IF;
            PERFORM pg_advisory_xact_lock(4617245463532);
            CREATE TABLE IF NOT EXISTS actorfsm_requests (
                id bigserial PRIMARY KEY, machine text NOT NULL, schema text NOT NULL, verb text NOT NULL,
                reason text NOT NULL, requested_at bigint NOT NULL, taken_by text NOT NULL DEFAULT '',
                answered boolean NOT NULL DEFAULT false, succeeded boolean NOT NULL DEFAULT false,
                answer text NOT NULL DEFAULT '', answered_at timestamptz, event text NOT NULL DEFAULT '',
                taken_instance text NOT NULL DEFAULT '');
            -- A table an older version made lacks these columns.
            ALTER TABLE actorfsm_requests ADD COLUMN IF NOT EXISTS event text NOT NULL DEFAULT '';
            ALTER TABLE actorfsm_requests ADD COLUMN IF NOT EXISTS taken_instance text NOT NULL DEFAULT '';
            CREATE INDEX IF NOT EXISTS actorfsm_requests_waiting ON actorfsm_requests (schema, id) WHERE taken_by = '';
        END
        $$;
        """

    /// $1 machine, $2 schema, $3 verb, $4 reason, $5 time, $6 signalled event ('' if none):
    /// queues a request; returns its number.
    static let submitRequest = """
        INSERT INTO actorfsm_requests (machine, schema, verb, reason, requested_at, event) VALUES ($1, $2, $3, $4, $5, $6)
        RETURNING id
        """

    /// $1 number: who took the request, whether it was answered, whether it succeeded, the
    /// answer, and whether the process that took it is gone (its node expired, or belongs to
    /// another process now; a request an older version took, without its instance, never reads
    /// as gone).
    static let requestProgress = """
        SELECT r.taken_by, r.answered, r.succeeded, r.answer, r.taken_instance <> '' AND NOT EXISTS (
            SELECT 1 FROM actorfsm_nodes n WHERE n.node = r.taken_by AND n.instance = r.taken_instance AND n.expires_at > now())
        FROM actorfsm_requests r WHERE r.id = $1
        """

    /// $1 number: removes the request if no process took it; returns a row if it did.
    static let withdrawRequest = "DELETE FROM actorfsm_requests WHERE id = $1 AND taken_by = '' RETURNING id"

    /// $1 node, $2 schema, $3 limit, $4 the node's instance: takes, for $1, the oldest waiting requests of $2 whose
    /// machine $1 holds or no live node holds (skipping those another taker has locked), and
    /// removes those answered a day ago (by the database's clock: requesters' clocks differ).
    static let takeRequests = """
        WITH old AS (
            DELETE FROM actorfsm_requests WHERE answered_at < now() - interval '1 day'),
        chosen AS (
            SELECT r.id FROM actorfsm_requests r
            LEFT JOIN actorfsm_leases l ON l.machine = r.machine
            WHERE r.taken_by = '' AND r.schema = $2 AND (l.node IS NULL OR l.node = $1 OR NOT EXISTS (
                SELECT 1 FROM actorfsm_nodes n WHERE n.node = l.node AND n.expires_at > now()))
            ORDER BY r.id LIMIT $3 FOR UPDATE OF r SKIP LOCKED)
        UPDATE actorfsm_requests r SET taken_by = $1, taken_instance = $4 FROM chosen WHERE r.id = chosen.id
        RETURNING r.id, r.machine, r.schema, r.verb, r.reason, r.requested_at, r.event
        """

    /// $1 number, $2 succeeded, $3 answer: records the answer.
    static let answerRequest = """
        UPDATE actorfsm_requests SET answered = true, succeeded = $2, answer = $3, answered_at = now() WHERE id = $1
        """
}
