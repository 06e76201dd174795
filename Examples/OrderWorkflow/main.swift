// order-workflow: 10,000 orders, each a machine under a supervisor that starts a payment and
// then a shipment as child machines, calling simulated services (seeded, so a run is
// reproducible). With --store, the machines are durable:
// kill the process (or let --crash-after kill it), run the same command again, and it resumes
// and finishes every order, charging no card twice. With --postgres and --processes, the orders
// run across several processes sharing a PostgreSQL database ("temporary": a throwaway server),
// and --kill-one kills one of them mid-way. Usage:
//   swift run order-workflow [--orders N] [--seed S] [--failure-rate R]
//                            [--store PATH [--crash-after N] [--verify | --verify-so-far] [--history ORDER]
//                                          [--interrupt-after N [--interrupt-by stop|shutdown|escalate]]]
//                            [--postgres URL|temporary --processes N [--kill-one]]
import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var settings = Settings()
var storePath: String?
var crashAfter: Int?
/// With --store: after this many transitions, stop the supervisor at once (`stop`), shut it
/// down (`shutdown`), or make every service call fail until it escalates (`escalate`).
var interruptAfter: Int?
var interruptBy = "stop"
var verifying = false
var verifyingSoFar = false
var historyOf: Int?
var postgresURL: String?
var processes: Int?
var killsOne = false
var workerIndex: Int?
var ledgerPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    if flag == "--verify" || flag == "--verify-so-far" {
        verifying = true
        verifyingSoFar = flag == "--verify-so-far"
        continue
    }
    if flag == "--kill-one" {
        killsOne = true
        continue
    }
    let value = arguments.popFirst()
    switch (flag, value) {
    case ("--orders", let value?) where Int(value).map({ $0 > 0 }) == true: settings.orders = Int(value)!
    case ("--seed", let value?) where UInt64(value) != nil: settings.seed = UInt64(value)!
    case ("--failure-rate", let value?) where Double(value).map({ (0..<1).contains($0) }) == true:
        settings.failureRate = Double(value)!
    case ("--store", let value?): storePath = value
    case ("--crash-after", let value?) where Int(value).map({ $0 > 0 }) == true: crashAfter = Int(value)!
    case ("--interrupt-after", let value?) where Int(value).map({ $0 > 0 }) == true: interruptAfter = Int(value)!
    case ("--interrupt-by", let value?) where ["stop", "shutdown", "escalate"].contains(value): interruptBy = value
    case ("--history", let value?) where Int(value) != nil: historyOf = Int(value)!
    case ("--postgres", let value?): postgresURL = value
    case ("--processes", let value?) where Int(value).map({ (1...16).contains($0) }) == true: processes = Int(value)!
    case ("--worker", let value?) where Int(value) != nil: workerIndex = Int(value)!
    case ("--ledger", let value?): ledgerPath = value
    default:
        print("""
            usage: order-workflow [--orders N] [--seed S] [--failure-rate R in 0..<1]
                                  [--store PATH [--crash-after N] [--verify | --verify-so-far] [--history ORDER]
                                                [--interrupt-after N [--interrupt-by stop|shutdown|escalate]]]
                                  [--postgres URL|temporary --processes N in 1...16 [--kill-one]]
            """)
        exit(2)
    }
}
if storePath == nil && (crashAfter != nil || interruptAfter != nil || verifying || historyOf != nil) {
    print("--crash-after, --interrupt-after, --verify and --history need --store")
    exit(2)
}
if (postgresURL == nil) != (processes == nil) || (killsOne && processes.map { $0 < 2 } ?? true) {
    print("--postgres and --processes go together, and --kill-one needs at least 2 processes")
    exit(2)
}
if let workerIndex, let postgresURL, let processes, let ledgerPath {
    try await ClusterWorker.run(url: postgresURL, index: workerIndex, processes: processes, settings: settings, ledger: ledgerPath)
    exit(0)
}
if let postgresURL, let processes {
    var server: TemporaryPostgres?
    if postgresURL == "temporary" {
        server = try TemporaryPostgres.start()
        print("Started a throwaway PostgreSQL server in \(server!.folder)")
        fflush(nil)
    }
    // Interrupted (Ctrl-C, SIGTERM), the run still removes its throwaway server.
    let interruptions = server.map(stopOnInterruption) ?? []
    let passed = try await ClusterDriver(url: server?.url ?? postgresURL, processes: processes, settings: settings,
                                         killsOne: killsOne).run()
    interruptions.forEach { $0.cancel() }
    if !isInterrupted.load(ordering: .acquiring) { server?.stop() }
    exitUnlessInterrupted(passed ? 0 : 1)
}

let ledger = storePath.map { PaymentLedger(path: $0 + ".payments") }
let services = Services(settings: settings, ledger: ledger)

let workflows: Workflows
var alreadyFinal: [Int: OrderState] = [:]
if let storePath, let ledger {
    let store: SQLiteStore
    do {
        store = try SQLiteStore(path: storePath)
    } catch {
        print("order-workflow: \(error)")
        exit(1)
    }
    // One file holds the three kinds of machine: their ids do not overlap.
    workflows = try Workflows(services: services) { _ in store }
    if let historyOf {
        try await OrderHistory.print(historyOf, store: store, workflows: workflows)
        exit(0)
    }
    if verifying {
        exit(await Verification(orders: store, payments: store, workflows: workflows, ledger: ledger, acks: storePath + ".acks",
                                count: settings.orders, requiresCompletion: !verifyingSoFar).run() ? 0 : 1)
    }
    print("Store open: \(storePath)")
} else {
    workflows = try Workflows(services: services)
}
let orders = workflows.orders

let reports = workflows.reports()
// Transitions are counted from the start, restoring included: restored orders link their
// children again, and both go on at once.
let interruption = Interruption(crashAfter: crashAfter, interruptAfter: interruptAfter, by: interruptBy)
interruption.watch(workflows)
let clock = ContinuousClock()
let start = clock.now
let driver: Task<Void, any Error>
if let storePath {
    alreadyFinal = try await DurableStart.resume(orders, count: settings.orders)
    driver = DurableStart.submit(orders, ids: (0..<settings.orders).filter { alreadyFinal[$0] == nil },
                                 services: services, acks: AckLog(path: storePath + ".acks"))
    if !alreadyFinal.isEmpty { print("Resumed: \(alreadyFinal.count) orders were already complete") }
} else {
    for id in 0..<settings.orders { try orders.spawn(id: id, data: OrderWorkflow.Data()) }
    // A few customers change their mind before paying: the order goes from placed to cancelled.
    for id in 0..<settings.orders { try orders.tryPost(to: id, firstStep(for: id, services: services)) }
    driver = Task {}
}

let progress = Progress(total: settings.orders)
var finalStates = alreadyFinal
var processed = 0
var failures = 0
var restarts = 0
// A run that finds every order complete hears no report: it ends at once.
if finalStates.count < settings.orders {
    listening: for await report in reports {
        switch report {
        case .transition(let failure, let machine, let order):
            processed += 1
            if let failure {
                failures += 1
                if getenv("ORDER_WORKFLOW_TRACE") != nil { print("\(machine): \(failure)"); fflush(nil) }
            }
            if let (id, state) = order, state.isFinal {
                finalStates[id] = state
                progress.update(finalStates.count, elapsed: clock.now - start)
                if finalStates.count == settings.orders { break listening }
            }
        case .restarted:
            // The machine goes on from its last transition by itself: its state's task, its
            // timeout or its child takes the next step.
            restarts += 1
        case .escalated(let machine, let error):
            print("\nThe supervisor of \(machine) escalated: \(error)")
            // Every machine stops at once: what the store holds is checked with --verify-so-far.
            await workflows.stop()
            break listening
        case .other:
            break
        }
    }
}
if interruption.hasInterrupted {
    // The run was cut short on purpose: what the store holds is checked with --verify-so-far.
    _ = try? await driver.value
    await workflows.shutdown()
    print("Interrupted by \(interruptBy) after \(processed) transitions")
    exit(0)
}
try await driver.value
await workflows.shutdown()
let elapsed = clock.now - start
progress.finish()

let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("Orders: \(settings.orders) in \(String(format3(seconds))) s")
for state in [OrderState.delivered, .cancelled, .paymentFailed, .paymentExpired] {
    print("  \(state): \(finalStates.values.filter { $0 == state }.count)")
}
print("Events processed: \(processed) (\(Int(Double(processed) / max(seconds, 1e-9))) per second)")
// One seed decides every order's outcome; the event count can differ by a few between runs,
// since timeouts wait on the real clock and race the simulated services' latency.
print("Action failures: \(failures), restarts: \(restarts)")
if let ledger {
    let approved = await ledger.approvedCharges
    print("Cards charged: \(approved.count) orders, charged twice: \(approved.values.filter { $0 > 1 }.count), "
          + "charges asked again and answered from the ledger: \(await ledger.repeatedKeys)")
}
