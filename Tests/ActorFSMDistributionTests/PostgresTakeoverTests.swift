import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport
import TestFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite(needsPostgres, .timeLimit(.minutes(3))) struct PostgresTakeoverTests {
    static let waiting = 10_000
    static let parked = 1_000

    /// A process holding 10,000 reminders with a timer, and 1,000 without, dies by SIGKILL.
    /// Two survivors share out the ones with a timer by themselves, and each timer fires once,
    /// in one of them; the others stay where they were until a send takes one.
    @Test func aKilledProcesssTimersFireOnceEachInTheProcessesThatTakeItsMachinesOver() async throws {
        try await withPostgres(killedHolder)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func killedHolder(on server: TemporaryPostgres) async throws {
        let worker = try await startWorker(url: server.url)
        // The survivors' calendar runs two minutes ahead: every reminder is overdue there.
        let stores = try ["left", "right"].map { try PostgresStore(url: server.url, node: $0, leaseDuration: .seconds(1)) }
        let survivors = try stores.map { store in
            try Supervisor(schema: try reminderSchema(),
                           durability: Durability(store: store, wallClock: ShiftedWallClock(seconds: 120)))
        }
        let (expired, found) = AsyncStream<String>.makeStream()
        let listening = survivors.map { survivor in
            let reports = survivor.reports()
            return Task {
                for await report in reports where report.record?.origin.timeout != nil {
                    found.yield(report.record!.machineID)
                }
            }
        }
        worker.kill()
        #expect(worker.wait() & 0x7F == SIGKILL)

        var fired: [String: Int] = [:]
        var expiries = expired.makeAsyncIterator()
        while fired.count < Self.waiting, let id = await expiries.next() { fired[id, default: 0] += 1 }
        #expect(fired.count == Self.waiting)
        // One process took each parked reminder, untouched: a send from a survivor claims it.
        let record = try await survivors[0].send(to: "p7", .poke)
        #expect(record.source == .parked && record.sequenceNumber == 2)
        for survivor in survivors { await survivor.shutdown() }
        for task in listening { await task.value }
        found.finish()
        while let id = await expiries.next() { fired[id, default: 0] += 1 }
        #expect(fired.values.allSatisfy { $0 == 1 }, "timers that fired twice: \(fired.filter { $0.value > 1 }.keys.sorted())")

        // In the database: one expiry after each creation, and the parked ones left to the dead node.
        let count = { (sql: String) in try await stores[0].integer(sql) }
        #expect(try await count("SELECT count(*) FROM actorfsm_journal WHERE machine LIKE 'w%'") == Int64(2 * Self.waiting))
        #expect(try await count("SELECT count(DISTINCT machine) FROM actorfsm_journal WHERE machine LIKE 'w%' AND seq = 1")
                == Int64(Self.waiting))
        #expect(try await count("SELECT count(*) FROM actorfsm_leases WHERE node = 'doomed'") == Int64(Self.parked - 1))
        for store in stores { store.close() }
    }

    /// Starts the worker that holds the reminders, and waits until it does.
    private func startWorker(url: String) async throws -> ChildProcess {
        let program = String(ChildProcess.currentExecutable.reversed().drop { $0 != "/" }.reversed()) + "takeover-worker"
        let (lines, output) = AsyncStream<String?>.makeStream()
        let worker = try ChildProcess(arguments: [program, url, "doomed", "\(Self.waiting)", "\(Self.parked)"]) {
            output.yield($0)
        }
        for await line in lines {
            if line == "ready" { return worker }
            guard let line else { break }
            print("takeover-worker:", line)
        }
        throw WorkerEnded()
    }
}

/// The takeover worker ended before it was ready (its output says why).
struct WorkerEnded: Error {}

/// The system's calendar, shifted: a process whose durable timers are all overdue.
struct ShiftedWallClock: WallClock {
    let shift: Int64

    init(seconds: Int64) { shift = seconds * 1_000_000_000 }

    func nanosecondsSince1970() -> Int64 { SystemWallClock().nanosecondsSince1970() + shift }
}
