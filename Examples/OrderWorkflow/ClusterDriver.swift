import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--postgres URL --processes N`: runs the orders across N worker processes that share one
/// PostgreSQL database. The driver submits every order through a worker chosen at random (so
/// most events go to an order another worker holds, and are forwarded to it), optionally kills
/// one worker with SIGKILL a third of the way in, waits until every order is complete, and
/// checks what the database holds.
struct ClusterDriver {
    let url: String
    let processes: Int
    let settings: Settings
    let killsOne: Bool

    /// Runs it; `true` if every check held.
    func run() async throws -> Bool {
        let folder = try temporaryFolder()
        let store = try PostgresStore(url: url, node: "driver-\(getpid())", namespace: "orders")
        let paymentStore = try PostgresStore(url: url, node: "driver-\(getpid())-payments", namespace: "payments")
        defer { paymentStore.close() }
        defer { store.close() }
        guard try await store.integer("SELECT count(*) FROM actorfsm_journal") == 0 else {
            print("order-workflow: the database already holds machines; give --processes an empty one")
            return false
        }
        let (lines, output) = AsyncStream<(Int, String?)>.makeStream()
        let workers = try (0..<processes).map { index in
            try ChildProcess(arguments: [
                ChildProcess.currentExecutable, "--worker", "\(index)", "--processes", "\(processes)", "--postgres", url,
                "--orders", "\(settings.orders)", "--seed", "\(settings.seed)", "--failure-rate", "\(settings.failureRate)",
                "--ledger", folder + "/payments",
            ]) { line in output.yield((index, line)) }
        }
        workerProcesses.withLock { $0 = workers }
        print("Workers: \(processes) processes sharing \(store.target), leases of \(clusterLease)")
        let watchdog = Task {
            try await Task.sleep(for: .seconds(300))
            output.yield((-1, "timeout"))
        }
        // What the killed worker said of its orders' last entries does not count (it may have
        // said it before the commit, or died after the commit before saying it), and an order
        // whose action failed may have lost the event its restart posted (with the killed
        // worker, or a post that failed): once a second, once every send is answered, the
        // driver looks for the orders not complete in the database.
        let checker = Task {
            while true {
                try await Task.sleep(for: .seconds(1))
                output.yield((-1, "check"))
            }
        }
        defer {
            watchdog.cancel()
            checker.cancel()
        }
        let durability = Durability<OrderWorkflow>(store: store, compactionInterval: 0)
        let workflows = try Workflows(services: Services(settings: settings))
        let schema = workflows.orders.schema
        var run = ClusterRun(settings: settings, workers: workers, killsOne: killsOne, acks: AckLog(path: folder + "/acks"))
        let clock = ContinuousClock()
        let start = clock.now
        for await (worker, line) in lines {
            if worker < 0 && line == "timeout" {
                print("order-workflow: not finished after 5 minutes; \(settings.orders - run.finals.count) orders incomplete")
                for order in (0..<settings.orders).filter({ run.finals[$0] == nil }).prefix(5) {
                    let history = (try? await durability.history(of: order, schema: schema)) ?? []
                    print("  order \(order): " + history.map { entry in
                        "#\(entry.sequenceNumber) \(entry.event.map { "\($0)" } ?? "timeout") \(entry.kind)"
                    }.joined(separator: ", "))
                }
                for worker in workers { worker.kill() }
                return false
            }
            if let takeover = line.flatMap(ClusterRun.takeoverTime), worker < 0 {
                run.takeover = takeover
                if run.isReadyToCheck { break }
                continue
            }
            if worker < 0 && line == "check" {
                guard run.isSubmitted else { continue }
                for order in 0..<settings.orders where run.finals[order] == nil {
                    let history = try await durability.history(of: order, schema: schema)
                    guard let last = history.last, let state = last.state else { continue }
                    if state.isFinal {
                        run.finals[order] = state.rawValue
                    } else if last.kind == StoredTransition<OrderWorkflow>.Kind.completed("failed")
                                || last.kind == StoredTransition<OrderWorkflow>.Kind.completed("stopped") {
                        run.moveOn(order, in: state, after: last.sequenceNumber)
                    }
                }
                run.listIfComplete()
                continue
            }
            let wasKilled = run.killed
            guard run.handle(worker, line) else { break }
            if run.killed != nil && wasKilled == nil, let node = run.killedNode {
                Task { output.yield((-1, "takeover \(await Self.takeover(of: node, in: store, since: clock.now))")) }
            }
            if run.isReadyToCheck { break }
        }
        let elapsed = clock.now - start
        guard run.problems.isEmpty else {
            for worker in workers { worker.wait() }
            for problem in run.problems.prefix(20) { print("  ✗ \(problem)") }
            return false
        }
        run.printSummary(elapsed: elapsed)
        // Checked before the workers quit: a worker that quits ends its life in the database,
        // and another takes its leases over.
        let holding = try await run.checkHolders(in: store)
        run.quit()
        for worker in workers { worker.wait() }
        let ledger = PaymentLedger(path: folder + "/payments")
        let verified = await Verification(orders: store, payments: paymentStore, workflows: workflows, ledger: ledger,
                                          acks: folder + "/acks", count: settings.orders, requiresCompletion: true).run()
        return holding && verified
    }

    /// Polls the lease table until no lease is left with `node`; the seconds that took.
    private static func takeover(of node: String, in store: PostgresStore, since start: ContinuousClock.Instant) async -> String {
        // Orders with nothing to do (complete, or waiting for an event) stay with the dead node
        // until something is sent to them.
        let pending = "SELECT count(*) FROM actorfsm_leases WHERE node = '\(node)' AND pending_work"
        while (try? await store.integer(pending)) != 0 {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let elapsed = ContinuousClock.now - start
        return format3(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func temporaryFolder() throws -> String {
        var template = Array("/tmp/order-workflow-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw FolderFailure(errorNumber: errno) }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why the driver could not make its temporary folder.
private struct FolderFailure: Error, CustomStringConvertible {
    let errorNumber: Int32
    var description: String { "could not make a temporary folder: error \(errorNumber)" }
}
