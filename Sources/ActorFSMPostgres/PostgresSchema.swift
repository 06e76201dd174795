/// The tables a ``PostgresStore`` keeps, and the statements it runs on them.
enum PostgresSchema {
    /// Creates the tables if need be; several processes may run it at once (an advisory lock
    /// orders them).
    static let creation = """
        SET client_min_messages = warning;
        BEGIN;
        SELECT pg_advisory_xact_lock(4617245463531);
        CREATE TABLE IF NOT EXISTS actorfsm_journal (
            machine text NOT NULL, seq bigint NOT NULL, payload bytea NOT NULL,
            PRIMARY KEY (machine, seq));
        CREATE TABLE IF NOT EXISTS actorfsm_nodes (
            node text PRIMARY KEY, expires_at timestamptz NOT NULL);
        CREATE TABLE IF NOT EXISTS actorfsm_leases (
            machine text PRIMARY KEY, node text NOT NULL, epoch bigint NOT NULL);
        COMMIT;
        """

    /// $1 node, $2 interval: the node is alive until now + $2.
    static let renew = """
        INSERT INTO actorfsm_nodes (node, expires_at) VALUES ($1, now() + $2::interval)
        ON CONFLICT (node) DO UPDATE SET expires_at = EXCLUDED.expires_at
        """

    /// $1 machines, $2 node: takes each lease that is free, held by $2, or held by a node whose
    /// time is up, raising its epoch; returns the machines taken, with their epochs. Rows are
    /// locked in machine order, as `append` locks them, so that the two never deadlock.
    static let claim = """
        INSERT INTO actorfsm_leases AS l (machine, node, epoch)
        SELECT DISTINCT m, $2, 1 FROM unnest($1::text[]) AS m ORDER BY m
        ON CONFLICT (machine) DO UPDATE SET node = EXCLUDED.node, epoch = l.epoch + 1
        WHERE l.node = EXCLUDED.node OR NOT EXISTS (
            SELECT 1 FROM actorfsm_nodes n WHERE n.node = l.node AND n.expires_at > now())
        RETURNING machine, epoch
        """

    /// $1 machines, $2 node: gives up the leases of $1 that $2 holds (the epochs stay).
    static let releaseSome = """
        UPDATE actorfsm_leases SET node = '' WHERE machine = ANY($1::text[]) AND node = $2
        """

    /// $1 node: gives up every lease $1 holds (the epochs stay, so that they only grow), and
    /// removes the node's row.
    static let release = """
        WITH released AS (UPDATE actorfsm_leases SET node = '' WHERE node = $1)
        DELETE FROM actorfsm_nodes WHERE node = $1
        """

    /// $1 machines, $2 numbers, $3 payloads, $4 epochs, $5 removal bounds, $6 node: writes each
    /// entry whose lease $6 still holds with that epoch, holding the lease row (`FOR SHARE`) so
    /// that no takeover commits in between, and removes the older entries asked for; returns
    /// the machines written.
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
            WHERE fenced.below > 0 AND j.machine = fenced.machine AND j.seq < fenced.below)
        SELECT DISTINCT machine FROM written
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
