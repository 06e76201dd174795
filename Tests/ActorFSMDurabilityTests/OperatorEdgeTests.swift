import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// An operator's acts at the edges: from the machine's own action, against a failure that ends
/// the machine, on a standalone durable machine, and a cancel's crash safety.
@Suite(.timeLimit(.minutes(3))) struct OperatorEdgeTests {
    /// The supervisor, for actions that act on their own machine.
    final class Operators: Sendable {
        let doors = Locked<Supervisor<Door>?>(nil)
        let outcomes = Locked<[String]>([])
    }

    @Test func aMachinePausedFromItsOwnActionIsPausedOnceTheActionCompletes() async throws {
        let operators = Operators()
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed) {
            define(.closed) {
                when(.open) | then(.open) | { (context: TransitionContext<Door>) async in
                    let doors = operators.doors.withLock { $0 }!
                    do throws(MachineError<Door>) {
                        try await doors.pause(context.id, reason: "from its action")
                        operators.outcomes.withLock { $0.append("paused") }
                    } catch {
                        operators.outcomes.withLock { $0.append("pause: \(error.kind)") }
                    }
                    do throws(MachineError<Door>) {
                        try await doors.cancel(context.id)
                    } catch {
                        operators.outcomes.withLock { $0.append("cancel: \(error.kind)") }
                    }
                }
            }
            define(.open) { when(.close) | then(.closed) }
        }
        let doors = try Supervisor(schema: schema, durability: doorDurability(store))
        operators.doors.withLock { $0 = doors }
        try await doors.activate(id: "a", data: Door.Data())
        #expect(try await doors.send(to: "a", .open).target == .open)
        #expect(operators.outcomes.withLock { $0 } == ["paused", "cancel: reentrantSend"])
        #expect(await doors.machine(id: "a")?.isPaused == true)
        #expect(try await store.history(of: "a").map(\.kind) == [.created, .completed, .operator])
        await doors.shutdown()
    }

    @Test func aPauseWaitingForAFailureThatStopsTheMachineIsRefused() async throws {
        let gate = Gate()
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed) {
            define(.closed) {
                when(.open) | then(.open) | { () async throws in
                    await gate.wait()
                    throw Boom()
                }
            }
            define(.open) { when(.close) | then(.closed) }
        }
        let doors = try Supervisor(schema: schema, durability: doorDurability(store),
                                   configuration: SupervisorConfiguration(machine: MachineConfiguration(failurePolicy: .stop)))
        try await doors.activate(id: "a", data: Door.Data())
        let opening = Task { try await doors.send(to: "a", .open) }
        await gate.untilArrivals(1)
        let pausing = Task { try await doors.pause("a", reason: "too late") }
        let door = try #require(doors.machine(id: "a"))
        await door.untilRefusingEvents()
        gate.open()
        _ = await opening.result
        do {
            try await pausing.value
            Issue.record("a pause the machine's end overtook succeeded")
        } catch let error as MachineError<Door> {
            #expect(error.kind == .stopped)
        }
        #expect(try await store.history(of: "a").allSatisfy { $0.kind != .operator })
        await doors.shutdown()
    }

    @Test func aStandaloneDurableMachineIsNotRestoredOnceCancelled() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        await doors.shutdown()
        try await store.cancel(machine: "a", reason: "gone")
        let schema = try doorSchema()
        do throws(MachineError<Door>) {
            _ = try await Machine(schema: schema, id: "a", data: Door.Data(), durability: doorDurability(store))
            Issue.record("a cancelled machine was restored")
        } catch {
            #expect((error.underlying as? DurabilityError)?.kind == .cancelled)
        }
    }

    @Test func theCancellingEventIsKeptWithTheCancelsEntry() async throws {
        let gate = Gate()
        let clock = ManualClock()
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed, final: [.jammed]) {
            define(.closed) { when(.open) | then(.open) }
            define(.open) { when(.kick) | then(.jammed) | { () async in await gate.wait() } }
        }
        let doors = try Supervisor(schema: schema, durability: Durability(store: store, wallClock: clock, cancelling: .kick))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        let cancelling = Task { try await doors.cancel("a", reason: "refund") }
        await gate.untilArrivals(1)
        // The process dies during the compensation: the restore finishes it.
        let crashed = store.crash()
        let cancel = try #require(try await crashed.history(of: "a").first { $0.kind == .operator })
        #expect(cancel.pending.map { "\($0.kind) \($0.event)" } == [#"next "kick""#])
        gate.open()
        let restarted = try Supervisor(schema: schema, durability: Durability(store: crashed, wallClock: clock, cancelling: .kick))
        #expect(try await restarted.restoreAll().restored == 1)
        var reports = restarted.reports().makeAsyncIterator()
        if await restarted.machine(id: "a")?.state != .jammed {
            while let report = await reports.next(), report.record?.event != .kick {}
        }
        #expect(try await crashed.machine("a")?.summary.status == .final)
        await restarted.shutdown()
        _ = await cancelling.result
        await doors.shutdown()
    }
}
