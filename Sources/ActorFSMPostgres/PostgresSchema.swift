/// The tables a ``PostgresStore`` keeps, and the statements it runs on them.
enum PostgresSchema {
    /// Creates the tables if need be (in `namespace`, a schema of the database made if need be,
    /// which the connection's search path names), in one statement; several processes may run
    /// it at once (an advisory lock orders them). Once the newest of its objects exists it
    /// changes nothing, and takes no lock on the tables: a process that starts while others
    /// write and send must not hold a lock they wait for while it waits for theirs (a deadlock).
    static func creation(in namespace: String?) -> String {
        """
        SET client_min_messages = warning;
        DO $$
        BEGIN
            PERFORM pg_advisory_xact_lock(4617245463531);
            \(namespace.map { "IF to_regnamespace('\($0)') IS NULL THEN CREATE SCHEMA \($0); END IF;" } ?? "")
            IF to_regclass('actorfsm_summary_writers') IS NOT NULL THEN RETURN; END IF;
            CREATE TABLE IF NOT EXISTS actorfsm_journal (
                machine text NOT NULL, seq bigint NOT NULL, payload bytea NOT NULL,
                PRIMARY KEY (machine, seq));
            CREATE TABLE IF NOT EXISTS actorfsm_nodes (
                node text PRIMARY KEY, expires_at timestamptz NOT NULL);
            CREATE TABLE IF NOT EXISTS actorfsm_leases (
                machine text PRIMARY KEY, node text NOT NULL, epoch bigint NOT NULL);
            ALTER TABLE actorfsm_leases ADD COLUMN IF NOT EXISTS pending_work boolean NOT NULL DEFAULT true;
            CREATE INDEX IF NOT EXISTS actorfsm_leases_node ON actorfsm_leases (node);
            CREATE TABLE IF NOT EXISTS actorfsm_inbox (
                id bigserial PRIMARY KEY, machine text NOT NULL, payload bytea NOT NULL,
                reply_to text NOT NULL, token bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
            ALTER TABLE actorfsm_inbox ADD COLUMN IF NOT EXISTS consumed_by text NOT NULL DEFAULT '';
            CREATE INDEX IF NOT EXISTS actorfsm_inbox_machine ON actorfsm_inbox (machine);
            CREATE INDEX IF NOT EXISTS actorfsm_inbox_token ON actorfsm_inbox (token);
            CREATE TABLE IF NOT EXISTS actorfsm_replies (
                token bigint PRIMARY KEY, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
            ALTER TABLE actorfsm_replies ADD COLUMN IF NOT EXISTS created_at timestamptz NOT NULL DEFAULT now();
            CREATE INDEX IF NOT EXISTS actorfsm_leases_pending ON actorfsm_leases (node, machine) WHERE pending_work;
            CREATE TABLE IF NOT EXISTS actorfsm_machines (
                machine text PRIMARY KEY, seq bigint NOT NULL, state text NOT NULL, status text NOT NULL,
                fingerprint text NOT NULL, schema_version bigint NOT NULL, last_transition bigint NOT NULL,
                waiting_until bigint, change bigint NOT NULL);
            CREATE SEQUENCE IF NOT EXISTS actorfsm_changes;
            CREATE INDEX IF NOT EXISTS actorfsm_machines_by_state ON actorfsm_machines (state, last_transition);
            CREATE INDEX IF NOT EXISTS actorfsm_machines_by_status ON actorfsm_machines (status, last_transition)
                WHERE status IN ('waiting', 'failed', 'passivated');
            CREATE TABLE IF NOT EXISTS actorfsm_schemas (
                fingerprint text PRIMARY KEY, schema_version bigint NOT NULL, description text NOT NULL);
            CREATE INDEX IF NOT EXISTS actorfsm_machines_by_change ON actorfsm_machines (change);
            ALTER TABLE actorfsm_nodes ADD COLUMN IF NOT EXISTS instance text NOT NULL DEFAULT '';
            CREATE INDEX IF NOT EXISTS actorfsm_nodes_by_instance ON actorfsm_nodes (instance);
            -- The newest object, made last: its presence says everything above is done.
            CREATE TABLE IF NOT EXISTS actorfsm_summary_writers (
                node text NOT NULL, instance text NOT NULL, PRIMARY KEY (node, instance));
        END
        $$;
        """
    }

    /// $1 node: the channel the node listens on (a channel name is at most 63 bytes; a node's
    /// name may be longer).
    static let channel = "SELECT 'actorfsm_' || md5($1)"

    /// $1 node, $2 interval, $3 instance: the node is alive until now + $2, for the process
    /// (store) $3, unless another instance's life under that name has not run out; returns a
    /// row if it is.
    static let renew = """
        INSERT INTO actorfsm_nodes AS n (node, expires_at, instance) VALUES ($1, now() + $2::interval, $3)
        ON CONFLICT (node) DO UPDATE SET expires_at = EXCLUDED.expires_at, instance = EXCLUDED.instance
        WHERE n.instance = EXCLUDED.instance OR n.expires_at <= now()
        RETURNING 1
        """

    /// $1 node: the instance alive under the name, and how long its life runs.
    static let nodeHolder = """
        SELECT instance, to_char(expires_at - now(), 'FMHH24:MI:SS') FROM actorfsm_nodes WHERE node = $1
        """

    /// $1 machines, $2 node: takes each lease that is free, held by $2, or held by a node whose
    /// time is up, raising its epoch; returns the machines taken, with their epochs. Rows are
    /// locked in machine order, as `append` locks them, so that the two never deadlock. A new
    /// lease's machine has no entry yet, so no work pending.
    static let claim = """
        INSERT INTO actorfsm_leases AS l (machine, node, epoch, pending_work)
        SELECT DISTINCT m, $2, 1, false FROM unnest($1::text[]) AS m ORDER BY m
        ON CONFLICT (machine) DO UPDATE SET node = EXCLUDED.node, epoch = l.epoch + 1
        WHERE l.node = EXCLUDED.node OR NOT EXISTS (
            SELECT 1 FROM actorfsm_nodes n WHERE n.node = l.node AND n.expires_at > now())
        RETURNING machine, epoch
        """

    /// $1 machines, $2 node: gives up the leases of $1 that $2 holds (the epochs stay).
    static let releaseSome = """
        UPDATE actorfsm_leases SET node = '' WHERE machine = ANY($1::text[]) AND node = $2
        """

    /// $1 node: ends the node's life now, so that other nodes take its machines over at once.
    static let expire = "UPDATE actorfsm_nodes SET expires_at = '-infinity' WHERE node = $1 AND instance = $2"

    /// $1 node, $2 limit: takes over up to $2 leases of nodes whose time is up and whose
    /// machines have work pending, skipping those another node is taking at the same moment
    /// (none if $1's own time is up), and forgets dead nodes left with no lease.
    static let adopt = """
        WITH dead AS (
            SELECT l.machine FROM actorfsm_leases l JOIN actorfsm_nodes n ON n.node = l.node
            WHERE n.expires_at < now() AND l.node <> $1 AND l.pending_work
            AND EXISTS (SELECT 1 FROM actorfsm_nodes me WHERE me.node = $1 AND me.expires_at > now())
            ORDER BY l.machine LIMIT $2
            FOR UPDATE OF l SKIP LOCKED),
        gone AS (
            DELETE FROM actorfsm_nodes n WHERE n.expires_at < now() - interval '1 minute'
            AND NOT EXISTS (SELECT 1 FROM actorfsm_leases l WHERE l.node = n.node))
        UPDATE actorfsm_leases l SET node = $1, epoch = l.epoch + 1 FROM dead
        WHERE l.machine = dead.machine
        RETURNING l.machine, l.epoch
        """

    /// $1 machines, $2 numbers, $3 payloads, $4 epochs, $5 removal bounds, $6 node, $7 and $8
    /// the machines and numbers of forwarded events recorded, $9 and $10 the machines written
    /// and whether each has work pending, $11 to $18 summaries, $19 to $21 the machines, numbers
    /// and replies of forwarded events answered, $22 the instance if it writes summaries late (or
    /// empty): writes each entry whose lease $6 still holds
    /// with that epoch, holding the lease row (`FOR SHARE`) so that no takeover commits in
    /// between, removes the older entries asked for, marks the forwarded events of the machines
    /// written as recorded by $6 (no node delivers them again), removes those answered, keeping
    /// each reply until its sender takes it and notifying the sender (with the reply, if it fits),
    /// and notes on the lease whether the machine has work pending (a takeover restores those at
    /// once), and names the instance among the summary writers again if a catch-up that took it
    /// for dead forgot it (a pause, not a death), or locks its row until the commit (so that a
    /// catch-up forgetting it waits, and then reads these entries); returns the machines written.
    static let append = """
        WITH w AS (
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::bytea[], $4::bigint[], $5::bigint[])
                AS w(machine, seq, payload, epoch, below)),
        fenced AS (
            SELECT w.* FROM w JOIN actorfsm_leases l
                ON l.machine = w.machine AND l.node = $6 AND l.epoch = w.epoch
            ORDER BY w.machine
            FOR SHARE OF l),
        written AS (
            INSERT INTO actorfsm_journal (machine, seq, payload)
            SELECT machine, seq, payload FROM fenced
            ON CONFLICT (machine, seq) DO UPDATE SET payload = EXCLUDED.payload
            RETURNING machine),
        removed AS (
            DELETE FROM actorfsm_journal j USING fenced
            WHERE fenced.below > 0 AND j.machine = fenced.machine AND j.seq < fenced.below),
        consumed AS (
            UPDATE actorfsm_inbox i SET consumed_by = $6 FROM unnest($7::text[], $8::bigint[]) AS c(machine, id)
            WHERE i.id = c.id AND i.machine = c.machine AND c.machine IN (SELECT machine FROM fenced)),
        answered AS (
            DELETE FROM actorfsm_inbox i USING unnest($19::text[], $20::bigint[], $21::text[]) AS a(machine, id, reply)
            WHERE i.id = a.id AND i.machine = a.machine AND a.machine IN (SELECT machine FROM fenced)
            RETURNING i.token, i.reply_to, a.reply),
        kept AS (
            INSERT INTO actorfsm_replies (token, payload) SELECT token, reply FROM answered WHERE reply_to <> ''
            ON CONFLICT (token) DO NOTHING),
        notified AS (
            SELECT pg_notify(reply_to, token || ':' || CASE WHEN octet_length(reply) < \(longestReplyNotification)
                THEN reply ELSE '' END) FROM answered WHERE reply_to <> ''),
        pending AS (
            UPDATE actorfsm_leases l SET pending_work = p.pending FROM unnest($9::text[], $10::boolean[]) AS p(machine, pending)
            WHERE l.machine = p.machine AND l.pending_work <> p.pending AND p.machine IN (SELECT machine FROM fenced)),
        registered AS (
            INSERT INTO actorfsm_summary_writers (node, instance) SELECT $6, $22 WHERE $22 <> ''
            ON CONFLICT (node, instance) DO UPDATE SET node = EXCLUDED.node WHERE false),
        summarized AS (
            \(insertSummaries(from: 11))
            WHERE s.machine IN (SELECT machine FROM fenced)
            \(replacingOlderSummaries))
        SELECT DISTINCT machine FROM written WHERE (SELECT count(*) FROM notified) >= 0
        """

    /// How long a reply a notification carries may be (PostgreSQL takes payloads of up to 8000
    /// bytes), with room for the token; a longer one the sender takes from the table.
    static var longestReplyNotification: Int { 7_900 }

    /// Inserts the summaries given as eight arrays from parameter `first` on (machines, entry
    /// numbers, states, statuses, fingerprints, versions, times, next timers or 0), as `s`.
    static func insertSummaries(from first: Int) -> String {
        let types = ["text", "bigint", "text", "text", "text", "bigint", "bigint", "bigint"]
        let arrays = types.enumerated().map { "$\(first + $0.offset)::\($0.element)[]" }.joined(separator: ", ")
        return """
            INSERT INTO actorfsm_machines (machine, seq, state, status, fingerprint, schema_version, last_transition,
                                           waiting_until, change)
            SELECT s.machine, s.seq, s.state, s.status, s.fingerprint, s.version, s.at, NULLIF(s.until, 0),
                   nextval('actorfsm_changes')
            FROM unnest(\(arrays)) AS s(machine, seq, state, status, fingerprint, version, at, until)
            """
    }

    /// $1 machines, $2 their newest entries' numbers, $3 node, $4 the epochs it claimed them
    /// with: marks those still at that entry, running or waiting, passivated, if $3 still holds
    /// their leases with those epochs. The lease rows are locked in machine order until the
    /// commit, as `append` locks them, so that a takeover waits for the mark or fences it.
    static let markPassivated = """
        WITH held AS (
            SELECT p.machine, p.seq FROM unnest($1::text[], $2::bigint[], $4::bigint[]) AS p(machine, seq, epoch)
            JOIN actorfsm_leases l ON l.machine = p.machine AND l.node = $3 AND l.epoch = p.epoch
            ORDER BY l.machine FOR SHARE OF l)
        UPDATE actorfsm_machines m SET status = 'passivated', change = nextval('actorfsm_changes')
        FROM held WHERE m.machine = held.machine AND m.seq = held.seq AND m.status IN ('running', 'waiting')
        """

    /// $1 fingerprint, $2 user version, $3 description: keeps a schema unless one has its fingerprint.
    static let recordSchema = """
        INSERT INTO actorfsm_schemas (fingerprint, schema_version, description) VALUES ($1, $2, $3)
        ON CONFLICT (fingerprint) DO NOTHING
        """

    /// $1 machines, $2 count: the newest $2 entries of each, newest first.
    static let latest = """
        SELECT j.machine, j.seq, j.payload FROM unnest($1::text[]) AS m(machine)
        CROSS JOIN LATERAL (
            SELECT machine, seq, payload FROM actorfsm_journal
            WHERE machine = m.machine ORDER BY seq DESC LIMIT $2) AS j
        ORDER BY j.machine, j.seq DESC
        """

    /// $1 machines: every entry of each, oldest first.
    static let all = """
        SELECT machine, seq, payload FROM actorfsm_journal WHERE machine = ANY($1::text[]) ORDER BY machine, seq
        """

    static let machines = "SELECT DISTINCT machine FROM actorfsm_journal ORDER BY machine"
}
