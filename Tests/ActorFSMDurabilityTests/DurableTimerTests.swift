import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// A door restored from a store, on the clock that the test advances, with its records
/// subscribed to before it is restored: a timer it fires at once is among them.
struct RestoredDoor {
    let doors: Supervisor<Door>
    let machine: Machine<Door>
    var reports: Subscription<SupervisorReport<Door>>.Iterator

    init(_ store: any MachineStore, clock: ManualClock, schema: Schema<Door>) async throws {
        doors = try Supervisor(schema: schema, durability: doorDurability(store, clock: clock),
                               configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
        reports = doors.reports().makeAsyncIterator()
        machine = try await doors.activate(id: "door", data: Door.Data())
    }

    /// The next record the door publishes.
    mutating func nextRecord() async -> TransitionRecord<Door>? {
        while let report = await reports.next() {
            if let record = report.record { return record }
        }
        return nil
    }

    /// Sends `.remind`, which the door ignores, and says whether its record is the next one:
    /// then nothing fired before it.
    mutating func nothingFired() async throws -> Bool {
        _ = try await machine.send(.remind)
        return await nextRecord()?.event == .remind
    }
}

@Suite(.timeLimit(.minutes(3))) struct DurableTimerTests {
    @Test func aTimeoutPastDueAtRecoveryFiresOnceAtOnce() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let schema = try doorSchema()
        let door = try await RestoredDoor(store, clock: clock, schema: schema)
        try await door.machine.send(.lock)
        // The process dies; it comes back two minutes later, past the 60-second deadline.
        let restarted = store.crash()
        clock.advance(by: .seconds(120))
        var again = try await RestoredDoor(restarted, clock: clock, schema: schema)
        let fired = await again.nextRecord()
        #expect(fired?.origin == .timeout(after: .seconds(60)))
        #expect(fired?.target == .jammed)
        // Restored again (once the timeout's entry is durable: a send waits for it), it does
        // not fire a second time.
        #expect(try await again.nothingFired())
        let third = try await RestoredDoor(restarted.crash(), clock: clock, schema: schema)
        #expect(await third.machine.state == .jammed)
        var checked = third
        #expect(try await checked.nothingFired())
    }

    @Test(arguments: [Duration.seconds(60), .seconds(60 * 60 * 24 * 90)])
    func aFutureTimeoutKeepsItsDeadline(timeout: Duration) async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed, final: [.jammed]) {
            define(.closed) { when(.lock) | then(.locked) }
            define(.locked) { after(timeout) | then(.jammed) }
        }
        let door = try await RestoredDoor(store, clock: clock, schema: schema)
        try await door.machine.send(.lock)
        clock.advance(by: timeout / 2)
        var again = try await RestoredDoor(store.crash(), clock: clock, schema: schema)
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: timeout / 2 - .seconds(1))
        #expect(try await again.nothingFired())
        #expect(await again.machine.state == .locked)
        clock.advance(by: .seconds(1))
        #expect(await again.nextRecord()?.target == .jammed)
    }

    @Test func aDelayedPostSurvivesACrashAndACancelledOneDoesNot() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed, final: [.jammed]) {
            define(.closed) {
                when(.lock) | then(.locked) | { context in try context.schedule(.remind, after: .seconds(30)) }
                when(.open) | then(.open) | { context in try context.schedule(.kick, after: .seconds(30)).cancel() }
            }
            define(.locked) { when(.remind) | then(.jammed) }
            define(.open) { when(.kick) | then(.jammed) }
        }
        let door = try await RestoredDoor(store, clock: clock, schema: schema)
        try await door.machine.send(.lock)
        // The process dies before the delay runs out (its own scheduled event would fire too).
        let crashed = store.crash()
        clock.advance(by: .seconds(45))
        var again = try await RestoredDoor(crashed, clock: clock, schema: schema)
        let delivered = await again.nextRecord()
        #expect(delivered?.origin == .scheduled)
        #expect(delivered?.target == .jammed)

        let other = InMemoryStore()
        let cancelling = try await RestoredDoor(other, clock: clock, schema: schema)
        try await cancelling.machine.send(.open)
        let otherCrashed = other.crash()
        clock.advance(by: .seconds(45))
        var restored = try await RestoredDoor(otherCrashed, clock: clock, schema: schema)
        #expect(try await restored.nothingFired())
        #expect(await restored.machine.state == .open)
    }

    @Test func aDelayedPostMadeOutsideAnActionIsWrittenToo() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed, final: [.jammed]) {
            define(.closed) { when(.lock) | then(.locked) }
            define(.locked) { when(.remind) | then(.jammed) }
        }
        let door = try await RestoredDoor(store, clock: clock, schema: schema)
        try await door.machine.send(.lock)
        try door.machine.schedule(.remind, after: .seconds(10))
        // The amended entry is written by a write of its own; wait for it through a later send.
        try await door.machine.send(.kick)
        let crashed = store.crash()
        clock.advance(by: .seconds(20))
        var again = try await RestoredDoor(crashed, clock: clock, schema: schema)
        #expect(await again.nextRecord()?.target == .jammed)
    }
}
