// The statements that carry events between the processes sharing a database: the inbox of
// forwarded events, and the replies to their senders.

extension PostgresSchema {
    /// $1 machines, $2 payloads, $3 reply channels ('' for none), $4 tokens, $5 the sender's
    /// channel, $6 tokens of replies the sender has taken: queues forwarded events, in order,
    /// and wakes the live nodes holding their machines, or the sender for a machine no live
    /// node holds (it claims the machine), and removes the replies taken. The count of
    /// notifications, which the statement returns, is what has them sent.
    static let forward = """
        WITH taken AS (
            DELETE FROM actorfsm_replies WHERE token = ANY($6::bigint[])),
        queued AS (
            INSERT INTO actorfsm_inbox (machine, payload, reply_to, token)
            SELECT m, p, r, t FROM unnest($1::text[], $2::bytea[], $3::text[], $4::bigint[])
                WITH ORDINALITY AS u(m, p, r, t, n) ORDER BY n
            RETURNING machine),
        woken AS (
            SELECT pg_notify(coalesce((SELECT 'actorfsm_' || md5(n.node) FROM actorfsm_leases l
                JOIN actorfsm_nodes n ON n.node = l.node AND n.expires_at > now()
                WHERE l.machine = queued.machine), $5), 'm') FROM queued)
        SELECT count(*) FROM woken
        """

    /// $1 tokens of senders waiting: for each whose reply is there (its notification lost), the
    /// reply (left in the table: a sender that takes it removes it later, and one whose
    /// notification said to take it from the table still finds it); for each whose event was recorded by a node that died since (removing it), or is
    /// gone with no reply, `lost`. The others are left out: their events wait, or are in progress.
    static let pendingReplies = """
        WITH t AS (SELECT unnest($1::bigint[]) AS token),
        orphaned AS (
            DELETE FROM actorfsm_inbox i USING t WHERE i.token = t.token AND i.consumed_by <> ''
            AND NOT EXISTS (SELECT 1 FROM actorfsm_nodes n WHERE n.node = i.consumed_by AND n.expires_at > now())
            RETURNING i.token)
        SELECT t.token, coalesce(r.payload, ''), r.token IS NULL AS lost FROM t
        LEFT JOIN actorfsm_replies r ON r.token = t.token
        WHERE r.token IS NOT NULL OR t.token IN (SELECT token FROM orphaned)
        OR NOT EXISTS (SELECT 1 FROM actorfsm_inbox i WHERE i.token = t.token)
        """

    /// $1 tokens: removes the replies their senders have taken.
    static let removeReplies = "DELETE FROM actorfsm_replies WHERE token = ANY($1::bigint[])"

    /// $1 numbers, $2 node: removes those of the forwarded events that $2 recorded (their
    /// replies, which the entries' failed writes were to carry, will not come).
    static let dropRecorded = "DELETE FROM actorfsm_inbox WHERE id = ANY($1::bigint[]) AND consumed_by = $2"

    /// Removes replies nobody took within ten minutes, and events recorded by nodes that died
    /// (their successors complete them from the journal; a sender still waiting learns its
    /// record is lost).
    static let purge = """
        WITH posts AS (
            DELETE FROM actorfsm_inbox i WHERE i.consumed_by <> ''
            AND NOT EXISTS (SELECT 1 FROM actorfsm_nodes n WHERE n.node = i.consumed_by AND n.expires_at > now()))
        DELETE FROM actorfsm_replies WHERE created_at < now() - interval '10 minutes'
        """

    /// $1 node, $2 numbers to skip, $3 limit: the oldest forwarded events not yet recorded, for
    /// machines $1 holds or no live node holds, but those numbered in $2 (in progress); with
    /// whether $1 holds the machine. Each row's lease is looked up by its key (the `OFFSET 0`
    /// keeps the planner from hashing the whole lease table, one row per machine, for a few
    /// queued events).
    static let inbox = """
        SELECT i.id, i.machine, i.payload, i.reply_to, i.token, coalesce(l.node = $1, false) FROM actorfsm_inbox i
        LEFT JOIN LATERAL (SELECT node FROM actorfsm_leases WHERE machine = i.machine OFFSET 0) AS l ON true
        WHERE i.consumed_by = '' AND i.id <> ALL($2::bigint[]) AND (l.node IS NULL OR l.node = $1 OR NOT EXISTS (
            SELECT 1 FROM actorfsm_nodes n WHERE n.node = l.node AND n.expires_at > now()))
        ORDER BY i.id LIMIT $3
        """

    /// $1 number: whether the forwarded event is still there, not yet recorded (1 or 0).
    static let waiting = "SELECT count(*) FROM actorfsm_inbox WHERE id = $1 AND consumed_by = ''"

    /// $1 numbers, $2 node, then for each number $3 its token, $4 its reply, $5 its reply
    /// channel ('' for a post) and $6 its notification: removes the forwarded events that $2
    /// recorded, or that no other node holds the machine of (a refusal), and for those only
    /// keeps the replies and sends the notifications.
    static let finish = """
        WITH done AS (
            DELETE FROM actorfsm_inbox i WHERE i.id = ANY($1::bigint[]) AND (i.consumed_by = $2 OR (i.consumed_by = ''
            AND NOT EXISTS (SELECT 1 FROM actorfsm_leases l WHERE l.machine = i.machine AND l.node NOT IN ('', $2))))
            RETURNING i.id),
        r AS (
            SELECT * FROM unnest($1::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[])
                AS r(id, token, reply, channel, payload)
            WHERE r.channel <> '' AND r.id IN (SELECT id FROM done)),
        kept AS (
            INSERT INTO actorfsm_replies (token, payload) SELECT token, reply FROM r ON CONFLICT (token) DO NOTHING)
        SELECT pg_notify(r.channel, r.payload) FROM r
        """

    /// $1 token: takes a kept reply.
    static let takeReply = "DELETE FROM actorfsm_replies WHERE token = $1 RETURNING payload"
}
