import ActorFSM
import ActorFSMTesting
import Foundation
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(4))) struct TimerLoadTests {
    /// The process's thread count, from `/proc/self/task`, but the threads of the stores that
    /// tests running beside this one open (named `actorfsm-…`).
    static func threadCount() throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return !name.hasPrefix("actorfsm-")
        }.count
    }

    @Test func tenThousandPendingTimeoutsHoldNoThreadAndNeverPoll() async throws {
        let count = 10_000
        let clock = ManualClock()
        let supervisor = Supervisor<CheckoutFlow>(
            schema: TimeoutTests.payment,
            configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
        let records = supervisor.reports()
        let threadsBefore = try Self.threadCount()
        for id in 0..<count { try supervisor.spawn(id: id) }
        await clock.waitUntilSleeping(count: count)

        // Each timeout is one task suspended on the clock: it called `sleep` once and holds no
        // thread while it waits. A polling timer would call `sleep` again and again.
        #expect(clock.sleepCallCount == count)
        #expect(try Self.threadCount() - threadsBefore < 16)

        clock.advance(by: .seconds(30))
        var timedOut = 0
        for await event in records {
            guard let record = event.record else { continue }
            #expect(record.origin == .timeout(after: .seconds(30)) && record.target == .cancelled)
            timedOut += 1
            if timedOut == count { break }
        }
        #expect(timedOut == count)
        #expect(clock.sleeperCount == 0)
        await supervisor.shutdown()
    }
}
