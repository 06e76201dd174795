import ActorFSM
import ActorFSMDistribution
@_spi(Stores) import ActorFSMDurability

/// The side of a ``PostgresStore`` that carries events between processes: the senders waiting
/// for replies, and the forwarded events this process is delivering to its machines.
///
/// Database work runs on the store's thread; the listener's thread hands notifications in;
/// deliveries run as tasks, one at a time per machine, in the order the events were queued.
final class PostgresForwarding: Sendable {
    typealias Thread = StoreThread<StoreOperation<PostgresDatabase>>

    struct Waiter {
        let machine: String
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Result<[UInt8], StoreError>, Never>
        /// Whether the event is in the database.
        var isQueued = false
    }

    /// A forwarded event to queue in the database, and what to do once it is (`nil`) or could
    /// not be (the error).
    struct Outgoing {
        let event: ForwardedEvent
        let replyTo: String
        let token: Int64
        let queued: @Sendable (StoreError?) -> Void
    }

    /// A delivered event to remove from the database, with its reply to send, and what to do after.
    struct Finished {
        let row: InboxRow
        let reply: [UInt8]
        let done: @Sendable () -> Void
        /// How many flushes failed to write it (one a tick).
        var failures = 0
    }

    struct State {
        var host: (any ForwardingHost)?
        /// What the next flush writes: events to queue, delivered events to remove.
        var outgoing: [Outgoing] = []
        var finished: [Finished] = []
        /// Delivered events whose removal failed: tried again at the next ticks.
        var unfinished: [Finished] = []
        /// Events this process recorded whose answering write failed, to remove, with when that
        /// was first tried: a removal the database refuses is tried again until the senders'
        /// reply timeout has passed.
        var unanswered: [(number: Int64, since: ContinuousClock.Instant)] = []
        var isFlushQueued = false
        /// Senders waiting for a reply, by token.
        var waiters: [Int64: Waiter] = [:]
        /// The tokens of replies that came by notification: their rows are removed with the next
        /// flush of outgoing events, or the next tick.
        var taken: [Int64] = []
        /// The forwarded events being delivered, by number: a fetch skips them.
        var delivering: Set<Int64> = []
        /// The events waiting for delivery, by machine; a machine is here while a task delivers
        /// its events.
        var queues: [String: [InboxRow]] = [:]
        var isFetchQueued = false
        var isClosed = false
        /// When replies nobody took were last removed.
        var purgedAt = ContinuousClock.now
    }

    let state = Locked(State())
    let thread: Thread
    /// The channel replies to this process's senders come to.
    let channel: String
    /// How long a sender waits for a reply before giving up.
    let replyTimeout: Duration
    let target: String

    /// How many forwarded events one fetch reads.
    static var fetchLimit: Int { 1_000 }

    init(thread: Thread, channel: String, replyTimeout: Duration, target: String) {
        self.thread = thread
        self.channel = channel
        self.replyTimeout = replyTimeout
        self.target = target
    }

    // MARK: - Sending

    /// Queues `event` durably for its machine's holder, and waits for the reply if it wants one.
    func forward(_ event: ForwardedEvent) async throws(StoreError) -> [UInt8] {
        let token = Int64.random(in: 1...Int64.max)
        guard event.wantsReply else {
            let queued = await withCheckedContinuation { (continuation: CheckedContinuation<StoreError?, Never>) in
                enqueue(Outgoing(event: event, replyTo: "", token: token) { continuation.resume(returning: $0) })
            }
            if let queued { throw queued }
            return []
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8], StoreError>, Never>) in
                let registered = state.withLock { state -> Bool in
                    guard !state.isClosed else { return false }
                    state.waiters[token] = Waiter(machine: event.machine, deadline: .now + replyTimeout,
                                                  continuation: continuation)
                    return true
                }
                guard registered else {
                    continuation.resume(returning: .failure(closedError))
                    return
                }
                if Task.isCancelled { answer(token, .failure(cancelled(event))) }
                enqueue(Outgoing(event: event, replyTo: channel, token: token) { [self] failure in
                    if let failure {
                        answer(token, .failure(failure))
                    } else {
                        state.withLock { $0.waiters[token]?.isQueued = true }
                    }
                })
            }
        } onCancel: {
            answer(token, .failure(cancelled(event)))
        }
        let reply = try result.get()
        guard reply.isEmpty else { return reply }
        // Too long for a notification: the holder kept it in a table.
        guard let kept = try await run({ database throws(StoreError) in try database.takeReply(token) }) else {
            throw StoreError("the reply for machine \(event.machine) was lost")
        }
        return kept
    }

    func cancelled(_ event: ForwardedEvent) -> StoreError {
        StoreError("cancelled while waiting for the reply of the process holding machine \(event.machine); "
                   + "the event stays queued, and is processed")
    }

    /// Resumes the sender waiting with `token`, if one is; `taking` its reply from a
    /// notification, it also notes the reply's row for removal.
    func answer(_ token: Int64, _ result: Result<[UInt8], StoreError>, taking: Bool = false) {
        let waiter = state.withLock { state -> Waiter? in
            let waiter = state.waiters.removeValue(forKey: token)
            if waiter != nil && taking { state.taken.append(token) }
            return waiter
        }
        waiter?.continuation.resume(returning: result)
    }

    /// Handles the notifications sent to this process: replies (`token:reply`) and news of
    /// forwarded events (`m`). Called from the listener's thread.
    func receive(_ payloads: [String]) {
        for payload in payloads {
            guard payload != "m", let colon = payload.firstIndex(of: ":"), let token = Int64(payload[..<colon]) else {
                scheduleFetch()
                continue
            }
            let reply = Array(payload[payload.index(after: colon)...].utf8)
            // An empty reply did not fit: the sender takes it from the table.
            answer(token, .success(reply), taking: !reply.isEmpty)
        }
    }

    // MARK: - Serving

    /// Delivers the events forwarded to this process's machines to `host` from now on.
    func serve(_ host: any ForwardingHost) {
        state.withLock { $0.host = host }
        scheduleFetch()
    }

    /// Reads the forwarded events waiting for this process, on the store's thread, unless a
    /// read is queued already.
    func scheduleFetch() {
        // Asked outside this lock: the host answers under locks of its own.
        guard state.withLock({ $0.host })?.isServing == true else { return }
        let schedule = state.withLock { state -> Bool in
            guard !state.isFetchQueued, !state.isClosed else { return false }
            state.isFetchQueued = true
            return true
        }
        if schedule { thread.submit(.run { [self] database in fetch(database) }) }
    }

    /// On the store's thread: renews nothing, but takes over the machines of dead processes
    /// that have work pending, reads the forwarded events waiting, and gives up on senders
    /// waiting too long.
    func tick(_ database: PostgresDatabase) {
        expireWaiters()
        checkPendingReplies(database)
        let purging = state.withLock { state -> Bool in
            guard ContinuousClock.now - state.purgedAt >= .seconds(60) else { return false }
            state.purgedAt = .now
            return true
        }
        if purging { try? database.purge() }
        let unfinished = state.withLock { state in
            defer { state.unfinished = [] }
            return state.unfinished
        }
        for item in unfinished { enqueue(item) }
        let taken = state.withLock { state in
            defer { state.taken = [] }
            return state.taken
        }
        try? database.removeReplies(taken)
        dropUnanswered(database)
        guard let host = state.withLock({ $0.host }), host.isServing else { return }
        adoptOrphans(database, host: host)
        fetch(database)
    }

    /// How many machines of dead processes one statement takes over.
    static var adoptionChunk: Int { 2_000 }

    /// On the store's thread: takes over a chunk of the machines of dead processes that have
    /// work pending, has `host` restore them, and queues the next chunk behind the work queued
    /// meanwhile, so that this process's own sends are not held up. The other machines of dead
    /// processes are taken by the first process that uses them.
    func adoptOrphans(_ database: PostgresDatabase, host: any ForwardingHost) {
        guard let adopted = try? database.adoptOrphans(limit: Self.adoptionChunk), !adopted.isEmpty else { return }
        Task { await host.adopt(adopted) }
        guard adopted.count == Self.adoptionChunk else { return }
        thread.submit(.run { [self] database in
            guard let host = state.withLock({ $0.host }), host.isServing else { return }
            adoptOrphans(database, host: host)
        })
    }

    /// Stops delivering forwarded events (tests play a paused process with it).
    func pause() {
        state.withLock { $0.host = nil }
    }

    /// Stops delivering, and fails the senders still waiting.
    func close() {
        let waiters = state.withLock { state in
            state.isClosed = true
            state.host = nil
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(closedError)) }
    }

    func run<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresDatabase) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await thread.run(closed: closedError, body)
    }
}
