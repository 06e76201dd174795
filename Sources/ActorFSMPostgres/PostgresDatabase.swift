import ActorFSM
import ActorFSMDistribution
import ActorFSMDurability

/// The store's side of the database: its connection, the tables, and the leases this process
/// holds. Used only on the store's thread (and by `PostgresStore.init` before it starts).
final class PostgresDatabase {
    let connection: PostgresConnection
    let node: String
    /// This store's instance among those that ever had the node's name: its host, process id
    /// and a random number.
    let instance: String
    /// Why this process no longer writes under its node's name: another process took the name
    /// once this one's life ran out (a pause). Then it holds no lease, and claims none.
    private var displaced: StoreError?
    private let leaseSeconds: Double
    /// The epoch (fencing token) of each machine this process holds a lease on.
    private var epochs: [String: Int64] = [:]
    /// Machines a failed commit had writes in: their later writes, already queued, are refused
    /// until a restore claims the machine again. Committed after the database comes back, they
    /// could leave an entry of the machine's without the one before it.
    private var interrupted: Set<String> = []
    /// Fingerprints of the schemas recorded or to record, and those to record.
    private var recordedSchemas: Set<String> = []
    private var pendingSchemas: [StoredSchema] = []
    /// Whether summaries were filled from the journal at this connection: a schema recorded
    /// later names their states, so they are filled again then.
    private var refillOnRecord = false
    /// The summaries of committed entries that wait to be written.
    let summaries: PostgresSummaries

    /// The channel this process listens on, for forwarded events and replies.
    let channel: String

    init(
        url: String, node: String, instance: String, leaseDuration: Duration, namespace: String?, summaryDelay: Duration?
    ) throws(StoreError) {
        connection = try PostgresConnection(url: url, searchPath: namespace)
        self.node = node
        self.instance = instance
        summaries = PostgresSummaries(delay: summaryDelay)
        leaseSeconds = Double(leaseDuration.components.seconds) + Double(leaseDuration.components.attoseconds) * 1e-18
        try connection.execute(PostgresSchema.creation(in: namespace))
        try connection.execute(PostgresSchema.requestsCreation)
        channel = try connection.query(PostgresSchema.channel, [.text(node)]).text(0, 0)
        try renew()
        if let displaced {
            connection.close()
            throw displaced
        }
        refillOnRecord = try connection.fillSummariesIfEmpty()
        // If this fails (another process doing the same), the store's first query does it.
        try? connection.catchUpSummaries()
    }

    // MARK: - Leases

    /// Marks this process alive until the lease duration from now, in the database's clock;
    /// unless another live process has the node's name, in which case this one takes no lease
    /// any more (see ``displaced``).
    func renew() throws(StoreError) {
        guard displaced == nil else { return }
        let rows = try connection.query(PostgresSchema.renew, [.text(node), .text("\(leaseSeconds) seconds"), .text(instance)])
        guard rows.count == 0 else {
            // Written again at each renewal: a store that found this process dead during a
            // pause made its summaries again and forgot it.
            if summaries.wait { try connection.query(PostgresSchema.registerSummaryWriter, [.text(node), .text(instance)]) }
            return
        }
        let holder = try connection.query(PostgresSchema.nodeHolder, [.text(node)])
        let other = holder.count > 0 ? "\(holder.text(0, 0)), whose life runs for \(holder.text(0, 1)) more" : "another process"
        displaced = StoreError("the node name \(node) is taken by a live process (\(other)): every process sharing "
                               + "a database needs a name of its own; give another, or none for a unique default. "
                               + "If that process has died, the name is free once its life has run out", isFenced: true)
        epochs = [:]
    }

    /// Takes the lease of each of `machines` that is free, held by this process, or held by a
    /// process whose time is up, with a new epoch; returns the machines taken, in order.
    func claim(_ machines: [String]) throws(StoreError) -> [String] {
        guard !machines.isEmpty else { return [] }
        if let displaced { throw displaced }
        let rows = try connection.query(PostgresSchema.claim, [.texts(machines), .text(node)])
        var claimed = Set<String>()
        for row in 0..<rows.count {
            claimed.insert(rows.text(row, 0))
            epochs[rows.text(row, 0)] = rows.integer(row, 1)
            interrupted.remove(rows.text(row, 0))
        }
        for machine in machines where !claimed.contains(machine) { epochs[machine] = nil }
        return machines.filter { claimed.contains($0) }
    }

    /// Gives up the leases of `machines` (claimed, then found not to be worth restoring).
    func release(_ machines: [String]) throws(StoreError) {
        guard !machines.isEmpty else { return }
        for machine in machines { epochs[machine] = nil }
        try connection.query(PostgresSchema.releaseSome, [.texts(machines), .text(node)])
    }

    /// Ends this process's life in the database: other processes take its machines over at once.
    func expire() throws(StoreError) {
        epochs = [:]
        try connection.query(PostgresSchema.expire, [.text(node), .text(instance)])
    }

    /// Marks `machines` passivated in their summaries, of those this process holds the lease
    /// of: a process whose lease was taken over (fenced) marks nothing.
    func markPassivated(_ machines: [(id: String, sequenceNumber: UInt64)]) throws(StoreError) {
        // A summary still waiting would otherwise overwrite the mark, and one a dead process
        // left waiting would keep the row at an older entry than the one marked.
        try summaries.flush(on: connection, node: node)
        try connection.catchUpSummaries(of: machines.map(\.id))
        let held = machines.compactMap { machine in epochs[machine.id].map { (machine, $0) } }.sorted { $0.0.id < $1.0.id }
        guard !held.isEmpty else { return }
        try connection.query(PostgresSchema.markPassivated, [
            .texts(held.map(\.0.id)), .integers(held.map { Int64(bitPattern: $0.0.sequenceNumber) }), .text(node),
            .integers(held.map(\.1)),
        ])
    }

    /// Takes over up to `limit` leases of processes whose time is up, of machines with work
    /// pending (none that another process is taking at the same moment); returns the machines
    /// taken. They are written only once restored (which claims them again): until then, a copy
    /// of one still in memory here from before a pause is fenced.
    func adoptOrphans(limit: Int) throws(StoreError) -> [String] {
        guard displaced == nil else { return [] }
        let rows = try connection.query(PostgresSchema.adopt, [.text(node), .integer(Int64(limit))])
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    // MARK: - Forwarded events

    /// Queues `events` for the holders of their machines, in one statement, and wakes those
    /// processes (this one, for a machine no live process holds); each reply, if its event
    /// wants one, comes to its channel with its token.
    ///
    /// - Parameter taken: the tokens of replies this process's senders have taken, to remove.
    func forward(_ events: [(event: ForwardedEvent, replyTo: String, token: Int64)], taken: [Int64]) throws(StoreError) {
        // Replies come to the channel of the node's name, which another process has now.
        if let displaced { throw displaced }
        try connection.query(PostgresSchema.forward, [
            .texts(events.map(\.event.machine)), .byteArrays(events.map(\.event.payload)),
            .texts(events.map(\.replyTo)), .integers(events.map(\.token)), .text(channel), .integers(taken),
        ])
    }

    /// Removes the replies with `tokens`, which their senders have taken.
    func removeReplies(_ tokens: [Int64]) throws(StoreError) {
        guard !tokens.isEmpty else { return }
        try connection.query(PostgresSchema.removeReplies, [.integers(tokens)])
    }

    /// Removes those of the forwarded events `numbers` that this process recorded: the writes
    /// that were to answer their senders failed, so the senders learn that the records are lost.
    func dropRecorded(_ numbers: [Int64]) throws(StoreError) {
        guard !numbers.isEmpty else { return }
        try connection.query(PostgresSchema.dropRecorded, [.integers(numbers), .text(node)])
    }

    /// What became of the events of senders still waiting (by token): the replies whose
    /// notification was lost, and the events lost with the node that recorded them. The events
    /// that wait, or are in progress, are left out.
    func pendingReplies(_ tokens: [Int64]) throws(StoreError) -> [(token: Int64, reply: [UInt8]?)] {
        guard !tokens.isEmpty else { return [] }
        let rows = try connection.query(PostgresSchema.pendingReplies, [.integers(tokens)])
        return (0..<rows.count).map { row in
            (rows.integer(row, 0), rows.bytes(row, 2) == [1] ? nil : rows.bytes(row, 1))
        }
    }

    /// Removes replies nobody took, and posts recorded by nodes that died.
    func purge() throws(StoreError) {
        try connection.query(PostgresSchema.purge)
    }

    /// Whether the forwarded event `number` is still queued, not recorded by any node.
    func isWaiting(_ number: Int64) throws(StoreError) -> Bool {
        try connection.query(PostgresSchema.waiting, [.integer(number)]).integer(0, 0) > 0
    }

    /// The oldest `limit` forwarded events for machines this process holds or nobody holds, but
    /// those in `skipping`.
    func inbox(skipping: [Int64], limit: Int) throws(StoreError) -> [InboxRow] {
        // The events queued under the node's name are the live process's now.
        guard displaced == nil else { return [] }
        let rows = try connection.query(PostgresSchema.inbox, [.text(node), .integers(skipping), .integer(Int64(limit))])
        return (0..<rows.count).map { row in
            InboxRow(event: ForwardedEvent(machine: rows.text(row, 1), payload: rows.bytes(row, 2),
                                           wantsReply: !rows.text(row, 3).isEmpty, number: rows.integer(row, 0)),
                     replyTo: rows.text(row, 3), token: rows.integer(row, 4), isHeld: rows.bytes(row, 5) == [1])
        }
    }

    /// Removes the forwarded events of `delivered` that this process recorded (or refused, as
    /// the machine's holder or for a machine nobody holds), keeps each reply, and notifies each
    /// sender, in one statement. A notification carries the reply if it fits; the sender takes
    /// a longer one from the table.
    func finish(_ delivered: [(row: InboxRow, reply: [UInt8])]) throws(StoreError) {
        // Left in the table, the events go to the live process that has the node's name.
        if let displaced { throw displaced }
        var notifications: [String] = []
        var replies: [String] = []
        for (row, reply) in delivered {
            let text = row.event.wantsReply ? String(decoding: reply, as: UTF8.self) : ""
            replies.append(text)
            notifications.append("\(row.token):" + (text.utf8.count < PostgresSchema.longestReplyNotification ? text : ""))
        }
        try connection.query(PostgresSchema.finish, [
            .integers(delivered.map(\.row.event.number)), .text(node), .integers(delivered.map(\.row.token)),
            .texts(replies), .texts(delivered.map(\.row.replyTo)), .texts(notifications),
        ])
    }

    /// Takes the reply kept for `token`, if there is one.
    func takeReply(_ token: Int64) throws(StoreError) -> [UInt8]? {
        let rows = try connection.query(PostgresSchema.takeReply, [.integer(token)])
        return rows.count == 0 ? nil : rows.bytes(0, 0)
    }

    // MARK: - Journal

    /// Applies `writes` in one statement (one commit), each only if this process still holds the
    /// machine's lease with the epoch it claimed; the error of each write, `nil` if it is durable.
    func commit(_ writes: [JournalWrite]) -> [StoreError?] {
        var results = [StoreError?](repeating: nil, count: writes.count)
        var batch = Batch()
        for (index, write) in writes.enumerated() {
            if interrupted.contains(write.entry.machine) {
                results[index] = StoreError("an earlier write of machine \(write.entry.machine) failed: "
                                            + "it writes again only once restored from the database")
                continue
            }
            guard let epoch = epochs[write.entry.machine] else {
                results[index] = displaced ?? StoreError("this process holds no lease on machine \(write.entry.machine): "
                                            + "its journal is written only by the process that claimed it", isFenced: true)
                continue
            }
            batch.add(write, epoch: epoch, index: index)
        }
        guard !batch.isEmpty else { return results }
        let written: Set<String>
        do {
            try recordPendingSchemas()
            let summaryRows = batch.summaryRows
            let rows = try connection.query(PostgresSchema.append, batch.parameters(node: node)
                + batch.consumedParameters + batch.pendingWorkParameters
                + PostgresSummaries.parameters(summaries.areWrittenWithEntries ? summaryRows : [])
                + batch.answeredParameters + [.text(summaries.wait ? instance : "")])
            written = Set((0..<rows.count).map { rows.text($0, 0) })
            if summaries.wait { summaries.keep(summaryRows, writtenFor: written) }
        } catch {
            for index in batch.indices { results[index] = error }
            interrupted.formUnion(batch.machineOfIndex)
            // The commit may have landed before the connection failed.
            if summaries.wait { summaries.suspect(batch.machineOfIndex) }
            return results
        }
        for (index, machine) in zip(batch.indices, batch.machineOfIndex) where !written.contains(machine) {
            epochs[machine] = nil
            results[index] = StoreError("the lease of machine \(machine) was taken over by another process: "
                                        + "this process's late write was rejected", isFenced: true)
        }
        return results
    }

    /// Keeps `schema`'s description now, or with the next commit if the database fails.
    func record(_ schema: StoredSchema) {
        guard recordedSchemas.insert(schema.fingerprint).inserted else { return }
        pendingSchemas.append(schema)
        try? recordPendingSchemas()
        if refillOnRecord && pendingSchemas.isEmpty { try? connection.fillSummaries(PostgresSchema.refillSummaries) }
    }

    private func recordPendingSchemas() throws(StoreError) {
        while let schema = pendingSchemas.first {
            _ = try connection.query(PostgresSchema.recordSchema,
                                     [.text(schema.fingerprint), .integer(Int64(schema.schemaVersion)), .text(schema.json())])
            pendingSchemas.removeFirst()
        }
    }
}

/// A forwarded event read from the inbox table, with where its reply goes.
struct InboxRow: Sendable {
    let event: ForwardedEvent
    /// The sender's channel; empty for a post.
    let replyTo: String
    let token: Int64
    /// Whether this process held the machine when it read the event (else nobody did).
    let isHeld: Bool
}
