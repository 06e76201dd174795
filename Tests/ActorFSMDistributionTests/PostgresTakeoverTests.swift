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

@Suite(needsPostgres, .timeLimit(.minutes(6))) struct PostgresTakeoverTests {
    static let waiting = 10_000
    static let parked = 1_000
    /// Of the reminders with a timer, the first ones ("w0"…) are paused.
    static let paused = 20

    /// A process holding 10,000 reminders with a timer (20 of them paused), and 1,000 without,
    /// dies by SIGKILL. Two survivors share out the ones with a timer by themselves, and each
    /// timer fires once, in one of them, but the paused ones': those come back paused, until a
    /// resume. The others stay where they were until a send takes one.
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
                // A paused reminder's timeout, queued, is stopped unprocessed by the shutdown.
                for await report in reports where report.record?.origin.timeout != nil && report.record?.outcome.isTransitioned == true {
                    found.yield(report.record!.machineID)
                }
            }
        }
        worker.kill()
        #expect(worker.wait() & 0x7F == SIGKILL)

        var fired: [String: Int] = [:]
        var expiries = expired.makeAsyncIterator()
        let running = Self.waiting - Self.paused
        while fired.count < running, let id = await expiries.next() { fired[id, default: 0] += 1 }
        #expect(fired.count == running)
        #expect(fired["w0"] == nil, "a paused reminder's timer fired")
        try await resumeFirstPaused(in: survivors)
        while fired["w0"] == nil, let id = await expiries.next() { fired[id, default: 0] += 1 }
        // One process took each parked reminder, untouched: a send from a survivor claims it.
        let record = try await survivors[0].send(to: "p7", .poke)
        #expect(record.source == .parked && record.sequenceNumber == 2)
        for survivor in survivors { await survivor.shutdown() }
        for task in listening { await task.value }
        found.finish()
        while let id = await expiries.next() { fired[id, default: 0] += 1 }
        #expect(fired.values.allSatisfy { $0 == 1 }, "timers that fired twice: \(fired.filter { $0.value > 1 }.keys.sorted())")
        #expect(fired.count == running + 1, "paused reminders' timers fired")

        // In the database: one expiry after each creation, and the parked ones left to the dead node.
        let count = { (sql: String) in try await stores[0].integer(sql) }
        // Each reminder's creation, then its expiry or its pause; the resumed one's resume and
        // expiry; each other paused one's timeout, recorded as stopped by the shutdown.
        #expect(try await count("SELECT count(*) FROM actorfsm_journal WHERE machine LIKE 'w%'")
                == Int64(2 * Self.waiting + 2 + Self.paused - 1))
        #expect(try await count("SELECT count(DISTINCT machine) FROM actorfsm_journal WHERE machine LIKE 'w%' AND seq = 1")
                == Int64(Self.waiting))
        #expect(try await count("SELECT count(*) FROM actorfsm_leases WHERE node = 'doomed'") == Int64(Self.parked - 1))
        // Each store writes the summaries it has waiting when it is asked; then they list the
        // reminders still paused.
        for store in stores { _ = try await store.stateCounts() }
        let paused = try await stores[0].machines(MachineQuery(status: .paused, limit: 1_000)).machines.map(\.id)
        #expect(paused.sorted() == (1..<Self.paused).map { "w\($0)" }.sorted())
        for store in stores { store.close() }
    }

    /// Resumes "w0" from the survivor that holds it, or from the first if neither does yet.
    private func resumeFirstPaused(in survivors: [Supervisor<Reminder>]) async throws {
        for survivor in survivors {
            let heldElsewhere: Bool
            do {
                try await survivor.resume("w0", reason: "the takeover test goes on")
                return
            } catch {
                heldElsewhere = (error.underlying as? DurabilityError)?.kind == .heldElsewhere
            }
            if !heldElsewhere { throw MachineError<Reminder>(.notDurable, machineID: "w0") }
        }
        Issue.record("no survivor could resume w0")
    }

    /// Starts the worker that holds the reminders, and waits until it does.
    private func startWorker(url: String) async throws -> ChildProcess {
        try await TakeoverWorker.start([url, "doomed", "\(Self.waiting)", "\(Self.parked)", "\(Self.paused)"]).process
    }
}

/// The `takeover-worker` executable, run as a child process.
struct TakeoverWorker {
    /// The running worker.
    let process: ChildProcess
    /// The lines it prints after "ready"; `nil` once its output ends.
    var lines: AsyncStream<String?>.Iterator

    /// Starts the worker with `arguments` and waits until it prints "ready".
    static func start(_ arguments: [String]) async throws -> TakeoverWorker {
        let program = String(ChildProcess.currentExecutable.reversed().drop { $0 != "/" }.reversed()) + "takeover-worker"
        let (stream, output) = AsyncStream<String?>.makeStream()
        let process = try ChildProcess(arguments: [program] + arguments) { output.yield($0) }
        var lines = stream.makeAsyncIterator()
        while let line = await lines.next() {
            if line == "ready" { return TakeoverWorker(process: process, lines: lines) }
            guard let line else { break }
            print("takeover-worker:", line)
        }
        throw WorkerEnded()
    }

    /// Waits until the worker prints `expected`; `false` if its output ends first.
    mutating func untilPrinted(_ expected: String) async -> Bool {
        while let line = await lines.next() {
            guard let line else { return false }
            if line == expected { return true }
            print("takeover-worker:", line)
        }
        return false
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
