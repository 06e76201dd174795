import ActorFSM
import ActorFSMDistribution
@_spi(Stores) import ActorFSMDurability

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `MachineStore` in a PostgreSQL database, which several processes share: each machine is
/// written by one process at a time, the one holding its **lease**.
///
/// ```swift
/// let store = try PostgresStore(url: "postgresql://orders@db.internal/orders")
/// let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
/// ```
///
/// **Leases.** Each process is a *node*, alive while it renews its row in the database every
/// third of ``leaseDuration`` (at least once a second), in one statement for all its machines.
/// Before a machine is read
/// back (restored, activated, sent its first event), the store claims its lease: free leases,
/// leases of this node and leases of a node whose time is up are taken, each with a new
/// **epoch**; a lease another live node holds is not, and the machine fails to restore with
/// `DurabilityError.Kind.heldElsewhere`. Times are the database's clock, so the nodes' clocks
/// need not agree.
///
/// **Fencing.** Every write carries the epoch the node claimed, and the database writes it only
/// while the node still holds the lease with that epoch, locking the lease row until the commit
/// so that no takeover lands in between. A process that lost a lease (paused longer than the
/// lease duration, cut off, and taken over) has its late writes rejected with a `StoreError`
/// whose `isFenced` is `true`: they never interleave with its successor's.
///
/// **Sending from any process.** A durable supervisor over the store sends an event for a
/// machine another live node holds through the table `actorfsm_inbox`, wakes that node with
/// `NOTIFY`, and waits for its record the same way (see `ForwardingStore`). The holder marks
/// the event recorded in the commit that journals it, so it is processed once, even if the
/// holder dies first: the node that takes the machine over processes it.
///
/// **Takeover.** At each renewal, a node that serves a supervisor also takes over the machines
/// of nodes whose time is up (`FOR UPDATE SKIP LOCKED`, so that two nodes share them out) and
/// restores them: their timers fire there, once, and the events queued for them are processed.
///
/// **Summaries.** Each machine's summary (state, status, times), which `actorfsm`, the web
/// inspector and `StoreInspection` queries read, is written at most `summaryDelay` after its
/// entry's commit, the newest per machine, in one statement for all of them: a machine that
/// moves many times within the delay costs one row version. Queries through the store write
/// its waiting summaries first; other processes and a `PostgresReader` see them up to the delay
/// late, never ahead of the journal, and never older than a row another process wrote for a
/// newer entry. If a process dies with summaries waiting, a store opened later, and any store or
/// `PostgresReader` before it answers a query, first rewrites every summary behind its
/// machine's journal.
///
/// **Threads.** Once `init` has connected and set up the tables, every libpq call runs on a
/// thread of the store's own, never on Swift's cooperative pool (one more thread listens for
/// notifications on a second connection); so does the renewal of the node's life. Writes
/// queued while a commit is in progress commit together in one statement (group commit).
///
/// **Several supervisors.** Each durable supervisor serves its own store: a process that runs
/// supervisors of several schemas on one database (orders, and their payments as child machines)
/// opens one store for each, with a `namespace` of its own. Each namespace keeps its own
/// journals, leases and nodes, so a takeover restores each machine with its own schema.
///
/// ```swift
/// let paymentStore = try PostgresStore(url: "postgresql://orders@db.internal/orders", namespace: "payments")
/// let payments = try Supervisor(schema: paymentSchema, durability: Durability(store: paymentStore))
/// ```
///
/// **New machines.** Make them with `Supervisor/activate(id:data:)` or a durable
/// `Machine` initializer, which claim the lease; a machine made by `spawn(id:data:)` claims
/// none, and its writes are rejected as fenced.
public final class PostgresStore: ForwardingStore, RoutingStore {
    /// The codec machines encode their values with.
    public let codec: any DurableCodec
    /// This process's name in the lease table.
    public let node: String
    /// How long a node holds its leases without renewing them: after it dies, its machines are
    /// taken over once this much time has passed since its last renewal.
    public let leaseDuration: Duration
    /// How long a send forwarded to another process waits for its reply before it fails; the
    /// event stays queued, and is processed once.
    public let replyTimeout: Duration
    /// Where the store connects, without a password.
    public let target: String
    /// The schema of the database that holds the store's tables, if one was given.
    public let namespace: String?
    let thread: StoreThread<StoreOperation<PostgresDatabase>>
    /// Carries events between processes; `nil` once closed (it and the thread refer to each other).
    let forwarding: Locked<PostgresForwarding?>
    let listener: PostgresListener
    /// Whether the store's thread renews the node's life (tests turn it off, to play a pause).
    private let renewing: Locked<Bool>
    /// Claims, and reads of the newest entries, made at the same time: one statement each.
    private let claims: CoalescedCalls<[String], [String]>
    private let reads: CoalescedCalls<(machines: [String], count: Int), [String: [JournalEntry]]>
    /// Makes the summaries that dead processes left waiting before a query reads them.
    let catchUp: SummaryCatchUp

    /// Connects to the database at `url` (a `postgresql://` URL or a libpq connection string),
    /// creates the store's tables if need be, and registers this process as `node`. Unless `url`
    /// says otherwise, connecting gives up after 10 s and a silent peer is noticed within about
    /// 30 s (TCP keepalives and `tcp_user_timeout`).
    ///
    /// - Parameters:
    ///   - url: the database, as a libpq connection string or URL.
    ///   - node: this process's name among the processes sharing the database (the default:
    ///     the host name, the process id and a random number). A store opened under the name of
    ///     a live process is refused; a process that finds its name taken when it renews its
    ///     life (after a pause longer than the lease) writes, claims, forwards and delivers
    ///     nothing more.
    ///   - leaseDuration: how long a silent node keeps its machines before others take them over.
    ///   - replyTimeout: how long a send to a machine another process holds waits for its record
    ///     (checked at each renewal, so give it more than a second).
    ///   - codec: how machines encode their states, events and data; JSON by default.
    ///   - namespace: the schema of the database that holds the store's tables (made if need
    ///     be), so that the machines of several supervisors share one database, each
    ///     supervisor with a store of its own (see "Several supervisors" above); `nil` for the
    ///     connection's search path, `public` by default.
    ///   - summaryDelay: how long a machine's summary may wait after its entry's commit (see
    ///     "Summaries" above); zero writes it in that commit, at the cost of a row version per
    ///     transition.
    /// - Throws: `StoreError` if the database cannot be reached or set up, `namespace` is not a
    ///   lowercase identifier, or another live process has the node's name.
    public convenience init(
        url: String, node: String? = nil, leaseDuration: Duration = .seconds(10), replyTimeout: Duration = .seconds(300),
        codec: any DurableCodec = JSONCodec(), namespace: String? = nil, summaryDelay: Duration = .milliseconds(500)
    ) throws(StoreError) {
        try self.init(url: url, node: node, leaseDuration: leaseDuration, replyTimeout: replyTimeout, codec: codec,
                      namespace: namespace, summaries: summaryDelay)
    }

    /// Connects to the database at `url` as a store without summaries: the journal alone, whose
    /// cost benchmarks set beside the store's. Inspection queries on it read no summary of its.
    @_spi(Benchmarks) public convenience init(journalAloneAt url: String) throws(StoreError) {
        try self.init(url: url, node: nil, leaseDuration: .seconds(10), replyTimeout: .seconds(300), codec: JSONCodec(),
                      namespace: nil, summaries: nil)
    }

    private init(
        url: String, node: String?, leaseDuration: Duration, replyTimeout: Duration, codec: any DurableCodec,
        namespace: String?, summaries summaryDelay: Duration?
    ) throws(StoreError) {
        try Self.check(namespace: namespace)
        try Self.check(leaseDuration: leaseDuration, replyTimeout: replyTimeout)
        let node = node ?? Self.defaultNode()
        guard !node.isEmpty else { throw StoreError("a node needs a name: give a non-empty one, or none for the default") }
        self.codec = codec
        self.node = node
        self.namespace = namespace
        self.leaseDuration = leaseDuration
        self.replyTimeout = replyTimeout
        let database = Confined(try PostgresDatabase(url: url, node: node, instance: Self.instance(), leaseDuration: leaseDuration,
                                                   namespace: namespace, summaryDelay: summaryDelay))
        let target = database.value.connection.target
        let channel = database.value.channel
        self.target = target
        let forwarding = Locked<PostgresForwarding?>(nil)
        self.forwarding = forwarding
        listener = try PostgresListener(
            url: url, channel: channel, receive: { payloads in forwarding.withLock { $0 }?.receive(payloads) },
            reconnected: { forwarding.withLock { $0 }?.scheduleFetch() })
        let renewing = Locked(true)
        self.renewing = renewing
        let tick = Self.tick(of: database, renewing: renewing, forwarding: forwarding, leaseDuration: leaseDuration,
                             summaryDelay: summaryDelay)
        catchUp = SummaryCatchUp(url: url, namespace: namespace)
        let thread = StoreThread<StoreOperation<PostgresDatabase>>(name: "postgres \(node)", tick: tick) { batch in
            StoreThread.perform(batch, on: database.value) { writes in database.value.commit(writes) }
        }
        self.thread = thread
        let closed = { @Sendable in StoreError("the store at \(target) is closed") }
        claims = CoalescedCalls(thread: thread, closed: closed) { database, calls throws(StoreError) in
            let claimed = Set(try database.claim(calls.flatMap { $0 }))
            return calls.map { machines in machines.filter(claimed.contains) }
        }
        reads = CoalescedCalls(thread: thread, closed: closed) { database, calls throws(StoreError) in
            var found: [Int: [String: [JournalEntry]]] = [:]
            for count in Set(calls.map(\.count)) {
                found[count] = try database.connection.entries(of: calls.filter { $0.count == count }.flatMap(\.machines), newest: count)
            }
            return calls.map { call in
                var entries: [String: [JournalEntry]] = [:]
                for machine in call.machines { entries[machine] = found[call.count]?[machine] ?? [] }
                return entries
            }
        }
        forwarding.withLock {
            $0 = PostgresForwarding(thread: thread, channel: channel, replyTimeout: replyTimeout, target: target)
        }
    }

    /// What the store's thread does between batches. The node's life is renewed there, so that
    /// a busy cooperative pool cannot make it lose its leases; the same tick takes over dead
    /// nodes' machines, and writes this process's waiting summaries once they have waited
    /// `summaryDelay`. Each is done at the last tick before it is due.
    private static func tick(
        of database: Confined<PostgresDatabase>, renewing: Locked<Bool>, forwarding: Locked<PostgresForwarding?>,
        leaseDuration: Duration, summaryDelay: Duration?
    ) -> (interval: Duration, body: @Sendable () -> Void) {
        let renewal = Cadence(every: min(leaseDuration / 3, .seconds(1)))
        let summaries = summaryDelay.flatMap { $0 > .zero ? Cadence(every: $0) : nil }
        let interval = min(renewal.interval, summaries?.interval ?? renewal.interval)
        return (interval, {
            let database = database.value
            if renewal.isDue(within: interval) {
                if renewing.withLock({ $0 }) { try? database.renew() }
                forwarding.withLock { $0 }?.tick(database)
            }
            if summaries?.isDue(within: interval) == true {
                try? database.summaries.flush(on: database.connection, node: database.node)
            }
        })
    }

    deinit { close() }

    /// Commits what is queued, ends this node's life in the database (other processes take its
    /// machines over at once) and disconnects. Senders still waiting for a reply fail.
    public func close() {
        forwarding.withLock { forwarding in
            forwarding?.close()
            forwarding = nil
        }
        listener.close()
        thread.close(after: .run { database in
            database.summaries.close(on: database.connection, node: database.node, instance: database.instance)
            try? database.expire()
            database.connection.close()
        })
    }

    /// Queues `write`; see `MachineStore/append(_:completion:)`. It is written only while this
    /// node holds the machine's lease with the epoch it claimed.
    public func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        thread.append(write, completion: completion, closed: StoreError("the store at \(target) is closed"))
    }

    /// Takes the leases of `machines` that no other live node holds; see `MachineStore/claim(_:)`.
    /// Claims made at the same time share one statement.
    public func claim(_ machines: [String]) async throws(StoreError) -> [String] {
        try await claims.call(machines)
    }

    /// Gives up the leases of `machines`, claimed but not restored; see `MachineStore/release(_:)`.
    public func release(_ machines: [String]) async {
        _ = try? await run { database throws(StoreError) in try database.release(machines) }
    }

    /// The newest `count` entries of `machine`, newest first. Reads made at the same time share
    /// one query; each sees the writes completed before it was made.
    public func latestEntries(of machine: String, count: Int) async throws(StoreError) -> [JournalEntry] {
        try await reads.call(([machine], count))[machine] ?? []
    }

    /// The newest `count` entries of each of `machines`, newest first, in one query.
    public func latestEntries(of machines: [String], count: Int) async throws(StoreError) -> [String: [JournalEntry]] {
        try await reads.call((machines, count))
    }

    /// Every entry of `machine`, oldest first.
    public func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try await run { database throws(StoreError) in try database.connection.entries(of: [machine], newest: nil)[machine] ?? [] }
    }

    /// Queues `event` for the process holding its machine, and waits for its reply; see
    /// `ForwardingStore/forward(_:)`. A sender gives up once the holder died after recording
    /// the event (its successor completes it; the record is lost), or after ``replyTimeout``.
    /// While the holder lives, or the event waits for a successor, it waits.
    public func forward(_ event: ForwardedEvent) async throws(StoreError) -> [UInt8] {
        guard let forwarding = forwarding.withLock({ $0 }) else { throw StoreError("the store at \(target) is closed") }
        return try await forwarding.forward(event)
    }

    /// Delivers the events forwarded to this process's machines to `host`; see
    /// `ForwardingStore/serve(_:)`.
    public func serve(_ host: any ForwardingHost) {
        forwarding.withLock { $0 }?.serve(host)
    }

    /// The ids of every machine with an entry.
    public func machineIDs() async throws(StoreError) -> [String] {
        try await run { database throws(StoreError) in try database.connection.machineIDs() }
    }

    /// Runs `body` on the store's thread, after the writes queued before it.
    func run<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresDatabase) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await thread.run(closed: StoreError("the store at \(target) is closed"), body)
    }

    /// Stops renewing this node's life and delivering forwarded events, as a paused process does.
    package func pause() {
        renewing.withLock { $0 = false }
        forwarding.withLock { $0 }?.pause()
    }
}
