/// The statements that write the machines' summaries outside the append: waiting ones, those
/// made from the journal, and the processes that write them late.
extension PostgresSchema {
    /// What writes a summary over an older one: a row of a newer entry stays.
    static let replacingOlderSummaries = """
        ON CONFLICT (machine) DO UPDATE SET seq = EXCLUDED.seq, state = EXCLUDED.state, status = EXCLUDED.status,
            fingerprint = EXCLUDED.fingerprint, schema_version = EXCLUDED.schema_version,
            last_transition = EXCLUDED.last_transition, waiting_until = EXCLUDED.waiting_until, change = EXCLUDED.change
        WHERE EXCLUDED.seq >= actorfsm_machines.seq
        """

    /// $1 to $8 as the append's $11 to $18 but in the order of their commits, $9 the epochs
    /// their entries were written under, $10 node: writes each summary whose lease $10 still
    /// holds with that epoch, holding the lease row (`FOR SHARE`, in machine order) until the
    /// commit as the append does, over that of an older entry or of the same one, numbering
    /// the changes in the order given and writing the rows in machine order (as every statement
    /// that writes summaries does); returns the machines whose leases it held.
    static let writeWaitingSummaries = """
        WITH s AS (
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[],
                                 $8::bigint[], $9::bigint[]) WITH ORDINALITY
                AS s(machine, seq, state, status, fingerprint, version, at, until, epoch, place)),
        fenced AS (
            SELECT s.* FROM s JOIN actorfsm_leases l ON l.machine = s.machine AND l.node = $10 AND l.epoch = s.epoch
            ORDER BY s.machine
            FOR SHARE OF l),
        summarized AS (
            INSERT INTO actorfsm_machines (machine, seq, state, status, fingerprint, schema_version, last_transition,
                                           waiting_until, change)
            SELECT machine, seq, state, status, fingerprint, version, at, NULLIF(until, 0), change
            FROM (SELECT *, nextval('actorfsm_changes') AS change FROM (SELECT * FROM fenced ORDER BY place) AS o) AS n
            ORDER BY machine
            \(replacingOlderSummaries))
        SELECT machine FROM fenced
        """

    /// $1 to $8 as the append's $11 to $18: summaries made from the journal, written over those
    /// of older entries only (a passivation mark of the same entry stays).
    static let writeNewerSummaries = """
        \(insertSummaries(from: 1))
        ON CONFLICT (machine) DO UPDATE SET seq = EXCLUDED.seq, state = EXCLUDED.state, status = EXCLUDED.status,
            fingerprint = EXCLUDED.fingerprint, schema_version = EXCLUDED.schema_version,
            last_transition = EXCLUDED.last_transition, waiting_until = EXCLUDED.waiting_until, change = EXCLUDED.change
        WHERE EXCLUDED.seq > actorfsm_machines.seq OR actorfsm_machines.status = 'purged'
        """

    /// $1 node, $2 instance: this process writes summaries after their entries' commits.
    static let registerSummaryWriter = """
        INSERT INTO actorfsm_summary_writers (node, instance) VALUES ($1, $2) ON CONFLICT DO NOTHING
        """

    /// The processes that wrote summaries after their entries' commits and have no life left.
    static let deadSummaryWriters = """
        SELECT w.node, w.instance FROM actorfsm_summary_writers w
        WHERE NOT EXISTS (SELECT 1 FROM actorfsm_nodes n WHERE n.node = w.node AND n.instance = w.instance
                                                           AND n.expires_at > now())
        """

    /// $1 node, $2 instance: this process, closing, has no summary left to write.
    static let forgetSummaryWriter = "DELETE FROM actorfsm_summary_writers WHERE node = $1 AND instance = $2"

    /// $1 nodes, $2 instances: dead processes whose waiting summaries are made again, unless
    /// one has come back to life meanwhile (a pause, not a death).
    static let forgetDeadSummaryWriters = """
        DELETE FROM actorfsm_summary_writers w USING unnest($1::text[], $2::text[]) AS f(node, instance)
        WHERE w.node = f.node AND w.instance = f.instance
        AND NOT EXISTS (SELECT 1 FROM actorfsm_nodes n WHERE n.node = w.node AND n.instance = w.instance
                                                          AND n.expires_at > now())
        """

    /// The machines whose summary is older than their newest journal entry (or missing), or a
    /// purge kept while the id has a journal again: a new machine's.
    static let laggingSummaries = """
        SELECT j.machine FROM (SELECT machine, max(seq) AS newest FROM actorfsm_journal GROUP BY machine) AS j
        LEFT JOIN actorfsm_machines m ON m.machine = j.machine
        WHERE m.seq IS NULL OR m.seq < j.newest OR m.status = 'purged'
        """

    /// $1 machines: those of them whose summary is older than their newest journal entry (or missing).
    static let laggingSummariesOf = """
        SELECT j.machine FROM (SELECT machine, max(seq) AS newest FROM actorfsm_journal
                               WHERE machine = ANY($1::text[]) GROUP BY machine) AS j
        LEFT JOIN actorfsm_machines m ON m.machine = j.machine
        WHERE m.seq IS NULL OR m.seq < j.newest OR m.status = 'purged'
        """

    /// $1 to $8 as the append's $11 to $18: summaries of machines that have none.
    static let fillSummaries = """
        \(insertSummaries(from: 1))
        ON CONFLICT (machine) DO NOTHING
        """

    /// $1 to $8 as the append's $11 to $18: summaries that replace those of the same entry.
    static let refillSummaries = """
        \(insertSummaries(from: 1))
        ON CONFLICT (machine) DO UPDATE SET state = EXCLUDED.state, status = EXCLUDED.status,
            waiting_until = EXCLUDED.waiting_until, change = EXCLUDED.change
        WHERE EXCLUDED.seq = actorfsm_machines.seq
        """

    /// Lets one process at a time make dead processes' summaries again: the others wait.
    static let lockCatchUp = "SELECT pg_advisory_lock(4617245463532)"

    /// Lets the next process make them.
    static let unlockCatchUp = "SELECT pg_advisory_unlock(4617245463532)"
}
