import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--worker I`: one process of a `--processes N` run. It runs the order machines whose lease it
/// holds (it makes orders I, I + N, I + 2N… and takes over those of a process that dies), and
/// sends the driver's events to any order: the store forwards an event for an order another
/// process holds to that process.
///
/// Commands, a line each on standard input: `send ORDER EVENT`, `list`, `quit`. Answers on
/// standard output: `ready NODE`, `ack ORDER SEQUENCE-NUMBER MICROSECONDS REMOTE` (REMOTE 1 if
/// another process processed it), `failed ORDER KIND`, `final ORDER STATE` for every order
/// that completes here, `machines ORDER,ORDER,…` (the orders running here), `escalated ORDER
/// ERROR` if its supervisor gave up, `unmoved ORDER ERROR` if it could not post a restarted
/// order its next step.
enum ClusterWorker {
    static func run(url: String, index: Int, processes: Int, settings: Settings, ledger: String) async throws {
        let store = try PostgresStore(url: url, node: "worker-\(index)-\(getpid())", leaseDuration: clusterLease)
        let services = Services(settings: settings, ledger: PaymentLedger(path: ledger))
        let orders = try Supervisor(schema: try orderSchema(services), durability: Durability(store: store, compactionInterval: 0),
                                    configuration: orderConfiguration(settings))
        let reports = orders.reports()
        let watcher = Task { await watch(reports, orders: orders, services: services) }
        for id in stride(from: index, to: settings.orders, by: processes) {
            try await orders.activate(id: id, data: OrderWorkflow.Data())
        }
        ChildProcess.writeLine("ready \(store.node)")
        for await line in ChildProcess.standardInputLines() {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "send":
                guard words.count == 3, let id = Int(words[1]), let event = OrderEvent(rawValue: words[2]) else { continue }
                Task { await send(event, to: id, through: orders) }
            case "list":
                let running = (0..<settings.orders).filter { orders.machine(id: $0) != nil }
                ChildProcess.writeLine("machines " + running.map(String.init).joined(separator: ","))
            case "quit":
                watcher.cancel()
                await orders.shutdown()
                store.close()
                return
            default:
                continue
            }
        }
    }

    private static func send(_ event: OrderEvent, to id: Int, through orders: Supervisor<OrderWorkflow>) async {
        let remote = orders.machine(id: id) == nil
        let started = ContinuousClock.now
        do {
            let record = try await orders.send(to: id, event)
            let elapsed = ContinuousClock.now - started
            let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
            ChildProcess.writeLine("ack \(id) \(record.sequenceNumber) \(microseconds) \(remote ? 1 : 0)")
        } catch {
            ChildProcess.writeLine("failed \(id) \(error.kind)")
        }
    }

    /// Reports the orders that complete here, and moves on those a failure restarted.
    private static func watch(
        _ reports: Subscription<SupervisorReport<OrderWorkflow>>, orders: Supervisor<OrderWorkflow>, services: Services
    ) async {
        for await report in reports {
            switch report {
            case .transition(let record) where record.outcome.isTransitioned && record.target.isFinal:
                ChildProcess.writeLine("final \(record.machineID) \(record.target.rawValue)")
            case .escalated(let id, let error):
                ChildProcess.writeLine("escalated \(id) \(error)")
            case .restarted(let id, _):
                guard let state = await orders.machine(id: id)?.state,
                      let next = nextStep(for: id, in: state, services: services) else { continue }
                do { try await orders.post(to: id, next) } catch { ChildProcess.writeLine("unmoved \(id) \(error)") }
            default:
                continue
            }
        }
    }

}

/// How long a worker holds its orders without renewing: a killed worker's orders are taken
/// over this long after its last renewal.
let clusterLease = Duration.seconds(2)

/// The supervision every run uses: an order whose action fails stops, and is restarted. Each
/// order may fail up to 10 times a minute (a high `--failure-rate`, or a process that took over
/// a dead one's orders): one that fails more escalates.
func orderConfiguration(_ settings: Settings) -> SupervisorConfiguration<OrderState> {
    SupervisorConfiguration<OrderState>(
        machine: MachineConfiguration(inboxCapacity: 16, failurePolicy: .stop),
        restartStrategy: .restart,
        intensity: RestartIntensity(maxRestarts: 10, within: .seconds(60)))
}
