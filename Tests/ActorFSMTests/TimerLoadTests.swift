import ActorFSM
import ActorFSMTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct TimerLoadTests {
    /// The process's thread count, from `/proc/self/status`.
    static func threadCount() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Threads:") })
        return try #require(Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)))
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
