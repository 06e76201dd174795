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
        // A store for each kind of machine, each in a namespace of its own in the database.
        var stores: [PostgresStore] = []
        let workflows = try Workflows(services: Services(settings: settings, ledger: PaymentLedger(path: ledger))) { kind in
            let store = try PostgresStore(url: url, node: "worker-\(index)-\(getpid())-\(kind)", leaseDuration: clusterLease,
                                          namespace: kind)
            stores.append(store)
            return store
        }
        let orders = workflows.orders
        let watcher = Task { await watch(workflows.reports()) }
        for id in stride(from: index, to: settings.orders, by: processes) {
            try await orders.activate(id: id, data: OrderWorkflow.Data())
        }
        ChildProcess.writeLine("ready \(stores.first { $0.namespace == "orders" }!.node)")
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
                await workflows.shutdown()
                for store in stores { store.close() }
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

    /// Reports the orders that complete here, and any supervisor that escalates. A machine a
    /// failure restarted goes on by itself.
    private static func watch(_ reports: AsyncStream<WorkflowReport>) async {
        for await report in reports {
            switch report {
            case .transition(_, _, let order?) where order.state.isFinal:
                ChildProcess.writeLine("final \(order.id) \(order.state.rawValue)")
            case .escalated(let machine, let error):
                ChildProcess.writeLine("escalated \(machine) \(error)")
            default:
                continue
            }
        }
    }
}

/// How long a worker holds its orders without renewing: a killed worker's orders are taken
/// over this long after its last renewal.
let clusterLease = Duration.seconds(2)
