import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting

/// What the driver of a `--processes` run knows, and what it does with each line a worker prints.
struct ClusterRun {
    enum Phase { case starting, loading, listing, listed }

    let settings: Settings
    let workers: [ChildProcess]
    let killsOne: Bool
    let acks: AckLog
    private let services: Services
    private(set) var phase = Phase.starting
    /// Each worker's node name in the lease table.
    private(set) var nodes: [Int: String] = [:]
    private(set) var alive: Set<Int>
    /// Orders still to submit, and those submitted without an answer yet (with their worker).
    private var pending: [Int]
    private var inFlight: [Int: Int] = [:]
    private var retries: [Int: Int] = [:]
    /// The entry after which the driver sent each order its next step itself, and that step
    /// (sent again if the send must be retried).
    private var movedOn: [Int: UInt64] = [:]
    private var steps: [Int: OrderEvent] = [:]
    private(set) var acknowledged = 0
    /// The orders known complete, with their final state.
    var finals: [Int: String] = [:]
    /// The worker that said each order of `finals` completed (none: the database said so).
    private var finishedIn: [Int: Int] = [:]
    /// Microseconds of the sends processed in another process than the one sent through, and
    /// of those processed where they were sent.
    private var forwarded: [Int] = []
    private var local: [Int] = []
    /// The orders each worker runs at the end.
    private var running: [Int: [Int]] = [:]
    private(set) var killed: Int?
    private var killedAfter = 0
    var takeover: String?
    private(set) var problems: [String] = []
    private var random: SplitMix

    init(settings: Settings, workers: [ChildProcess], killsOne: Bool, acks: AckLog) {
        self.settings = settings
        self.workers = workers
        self.killsOne = killsOne
        self.acks = acks
        services = Services(settings: settings)
        alive = Set(workers.indices)
        random = SplitMix(seed: settings.seed)
        pending = Array(0..<settings.orders).shuffled(using: &random)
    }

    var killedNode: String? { killed.flatMap { nodes[$0] } }

    /// Whether every order was submitted and answered: only completions are awaited.
    var isSubmitted: Bool { phase == .loading && pending.isEmpty && inFlight.isEmpty }

    static func takeoverTime(_ line: String) -> String? {
        line.hasPrefix("takeover ") ? String(line.dropFirst("takeover ".count)) : nil
    }

    /// Handles one line of `worker` (`nil`: its output ended); `false` once the run is over.
    mutating func handle(_ worker: Int, _ line: String?) -> Bool {
        guard let line else {
            alive.remove(worker)
            guard worker == killed else {
                problems.append("worker \(worker) ended unexpectedly")
                for other in alive { workers[other].kill() }
                return false
            }
            return true
        }
        let words = line.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("ready", 2):
            nodes[worker] = words[1]
            if nodes.count == workers.count {
                phase = .loading
                dispatch()
            }
        case ("ack", 5):
            guard let order = Int(words[1]), let number = UInt64(words[2]), let microseconds = Int(words[3]) else { break }
            acks.record(id: order, sequenceNumber: number)
            acknowledged += 1
            if words[4] == "1" { forwarded.append(microseconds) } else { local.append(microseconds) }
            answered(order, by: worker)
            killIfDue()
        case ("failed", 3):
            guard let order = Int(words[1]) else { break }
            answered(order, by: worker)
            // A failed action is the holder's to restart; anything else is tried again.
            if words[2] != "actionFailed" && words[2] != "stopped" {
                retries[order, default: 0] += 1
                if retries[order]! < 5 { pending.append(order) } else { problems.append("order \(order): \(words[2]) 5 times") }
            }
        case ("escalated", _):
            // Its supervisor stopped every order: nothing more happens there.
            problems.append("worker \(worker): the supervisor escalated the failure of order " + words.dropFirst().joined(separator: " "))
            for other in alive { workers[other].kill() }
            return false
        case ("final", 3):
            if let order = Int(words[1]) {
                finals[order] = words[2]
                finishedIn[order] = worker
            }
        case ("machines", _):
            running[worker] = words.count > 1 ? words[1].split(separator: ",").compactMap { Int($0) } : []
            if running.count == alive.count { phase = .listed }
        default:
            print("  worker \(worker): \(line)")
        }
        dispatch()
        listIfComplete()
        return true
    }

    /// Sends `order`, still placed after a failure or a stop ended its event, its first step
    /// again, once per entry. (Every later step the workflow takes by itself.)
    mutating func moveOn(_ order: Int, in state: OrderState, after entry: UInt64) {
        guard state == .placed, movedOn[order] != entry, inFlight[order] == nil, !pending.contains(order) else { return }
        let step = firstStep(for: order, services: services)
        movedOn[order] = entry
        steps[order] = step
        pending.append(order)
        dispatch()
    }

    /// Whether every worker said which orders it runs and, after a kill, the takeover is over:
    /// until the workers quit, the leases stay where they are, and can be checked.
    var isReadyToCheck: Bool { phase == .listed && (killed == nil || takeover != nil) }

    /// Asks every live worker to shut down.
    func quit() {
        for worker in alive { workers[worker].send("quit") }
    }

    /// Once every order is complete, asks each worker which orders it runs.
    mutating func listIfComplete() {
        guard isSubmitted && finals.count == settings.orders else { return }
        phase = .listing
        for worker in alive { workers[worker].send("list") }
    }

    private mutating func answered(_ order: Int, by worker: Int) {
        if inFlight[order] == worker { inFlight[order] = nil }
    }

    /// Submits orders through workers chosen at random, at most 256 awaiting an answer.
    private mutating func dispatch() {
        guard phase == .loading else { return }
        let live = alive.sorted()
        while inFlight.count < 256, let order = pending.popLast() {
            let worker = live[Int.random(in: 0..<live.count, using: &random)]
            inFlight[order] = worker
            let step = steps[order] ?? firstStep(for: order, services: services)
            workers[worker].send("send \(order) \(step.rawValue)")
        }
    }

    /// With `--kill-one`, kills worker 0 once a third of the orders are acknowledged; its sends
    /// without an answer go again through the others (an order that processed one already
    /// finds the event unhandled).
    private mutating func killIfDue() {
        guard killsOne, killed == nil, acknowledged >= settings.orders / 3, alive.count > 1 else { return }
        workers[0].kill()
        killed = 0
        killedAfter = acknowledged
        alive.remove(0)
        for (order, worker) in inFlight where worker == 0 {
            inFlight[order] = nil
            pending.append(order)
        }
        // Its last entries may not be committed: the database says when those orders complete.
        for (order, worker) in finishedIn where worker == 0 {
            finals[order] = nil
            finishedIn[order] = nil
        }
    }

    /// Checks that no order runs in two processes, and that each runs where its lease is held.
    func checkHolders(in store: PostgresStore) async throws -> Bool {
        var owner: [Int: Int] = [:]
        var problems: [String] = []
        for (worker, orders) in running {
            for order in orders {
                if let other = owner.updateValue(worker, forKey: order) { problems.append("order \(order) runs in workers \(other) and \(worker)") }
            }
            guard let node = nodes[worker], !orders.isEmpty else { continue }
            let list = orders.map { "'\($0)'" }.joined(separator: ",")
            let held = try await store.integer("SELECT count(*) FROM actorfsm_leases WHERE node = '\(node)' AND machine IN (\(list))")
            if held != Int64(orders.count) { problems.append("worker \(worker) runs \(orders.count) orders but holds \(held) of their leases") }
        }
        // Orders with nothing pending stay with the dead node until something is sent to them.
        let pending = "SELECT count(*) FROM actorfsm_leases WHERE node = '\(killedNode ?? "")' AND pending_work"
        if killedNode != nil, try await store.integer(pending) != 0 {
            problems.append("the killed worker still holds leases of orders with work pending")
        }
        for problem in problems.prefix(20) { print("  ✗ \(problem)") }
        if problems.isEmpty {
            print("Every order runs in at most one process, the one holding its lease: "
                  + running.keys.sorted().map { "worker \($0) runs \(running[$0]!.count)" }.joined(separator: ", "))
        }
        return problems.isEmpty
    }

    func printSummary(elapsed: Duration) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("Orders: \(settings.orders) across \(workers.count) processes in \(format3(seconds)) s")
        for state in [OrderState.delivered, .cancelled, .paymentFailed, .paymentExpired] {
            print("  \(state): \(finals.values.filter { $0 == state.rawValue }.count)")
        }
        print("Sends acknowledged: \(acknowledged); processed by another process: \(forwarded.count) "
              + "(median \(Self.milliseconds(forwarded, 0.5)) ms, 99th percentile \(Self.milliseconds(forwarded, 0.99)) ms), "
              + "where sent: \(local.count) (median \(Self.milliseconds(local, 0.5)) ms)")
        if let killed, let node = nodes[killed] {
            print("Killed worker \(killed) (\(node)) with SIGKILL after \(killedAfter) acknowledged sends; "
                  + "its orders were taken over \(takeover ?? "?") s later (lease \(clusterLease))")
        }
    }

    private static func milliseconds(_ microseconds: [Int], _ quantile: Double) -> String {
        guard !microseconds.isEmpty else { return "-" }
        let sorted = microseconds.sorted()
        return format3(Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]) / 1_000)
    }
}

/// A seeded random number generator (SplitMix64), so that a run's choices repeat.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
