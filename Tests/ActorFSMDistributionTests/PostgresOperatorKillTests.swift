import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import PostgresTestSupport
import Testing
import TestFixtures
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An operator's request reaches the process that holds the machine, which is SIGKILLed in the
/// middle of carrying it out.
@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresOperatorKillTests {
    /// The holder dies during a signalled event's action: the requester learns that the request
    /// was abandoned once the holder's node expires (not at its own deadline), the process that
    /// takes the machine over finishes the event and records the signal, and later requests go
    /// to that process.
    @Test func aHolderKilledMidSignalLeavesTheRequestAbandonedAndTheSignalRecorded() async throws {
        try await withPostgres(killMidSignal)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func killMidSignal(on server: TemporaryPostgres) async throws {
        var worker = try await TakeoverWorker.start([server.url, "doomed", "ringing"])
        let requester = try PostgresStore(url: server.url, node: "requester")
        let number = try await requester.submit(OperatorRequest(machine: "r0", schema: "Reminder", verb: .signal,
                                                                reason: "ring it by hand", time: 1_000, event: .named("ring", payload: nil)))
        #expect(await worker.untilPrinted("ringing"))
        #expect(try await requester.progress(ofRequest: number) == .taken)
        worker.process.kill()
        #expect(worker.process.wait() & 0x7F == SIGKILL)
        #expect(try await requester.outcome(ofRequest: number, until: .now + .seconds(60)) == .abandoned)
        let interrupted = try await requester.history(of: "r0")
        #expect(interrupted.map(\.kind) == [.created, .intent] && interrupted[1].operation?.verb == "signal")

        let store = try PostgresStore(url: server.url, node: "survivor", leaseDuration: .seconds(1), summaryDelay: .zero)
        var durability = Durability<Reminder>(store: store)
        durability.operatorRequestInterval = .milliseconds(20)
        let survivor = try Supervisor(schema: try reminderSchema(), durability: durability)
        // A send claims the machine; its restore first finishes the signalled ring.
        let poke = try await survivor.send(to: "r0", .poke)
        #expect(poke.source == .rung && poke.sequenceNumber == 2)
        let history = try await store.history(of: "r0")
        #expect(history.map(\.kind) == [.created, .completed, .completed])
        #expect(history[1].operation?.verb == "signal" && history[1].operation?.reason == "ring it by hand")

        let pause = try await requester.submit(OperatorRequest(machine: "r0", schema: "Reminder", verb: .pause,
                                                               reason: "after the takeover", time: 2_000))
        #expect(try await requester.outcome(ofRequest: pause, until: .now + .seconds(60)) == .answered(succeeded: true, message: "done"))
        #expect(await survivor.machine(id: "r0")?.isPaused == true)
        await survivor.shutdown()
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        store.close()
        requester.close()
    }
}
