import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// Door "a" whose `.open` action a crash interrupted: `crashed` is the store as the crash left
/// it, with the event's intent as its newest entry.
struct MidActionCrash {
    /// The store after the crash.
    let crashed: InMemoryStore
    private let gate: Gate
    private let doors: Supervisor<Door>
    private let opening: Task<Void, any Error>

    /// Activates door "a" on a fresh store, starts `act` on it, and crashes the store while the
    /// action waits.
    static func during(_ act: @escaping @Sendable (Supervisor<Door>) async throws -> Void) async throws -> MidActionCrash {
        let gate = Gate()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try DurablePauseTests.slowDoorSchema(gate), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        let opening = Task { try await act(doors) }
        await gate.untilArrivals(1)
        return MidActionCrash(crashed: store.crash(), gate: gate, doors: doors, opening: opening)
    }

    /// Restores the crashed store with a door that opens at once, checks that the restore runs
    /// the interrupted event as entry 1 and that the summaries agree, and returns the history.
    func restoreOpening() async throws -> [HistoryEntry] {
        let open = Gate()
        open.open()
        let restarted = try Supervisor(schema: try DurablePauseTests.slowDoorSchema(open), durability: doorDurability(crashed))
        var reports = restarted.reports().makeAsyncIterator()
        #expect(try await restarted.restoreAll().restored == 1)
        #expect(await firstRecordOf(.open, in: &reports)?.sequenceNumber == 1)
        let history = try await crashed.history(of: "a")
        #expect(history.map(\.kind) == [.created, .completed])
        #expect(await SummaryAudit.disagreements(in: crashed).isEmpty)
        await restarted.shutdown()
        return history
    }

    /// The same interrupted run after the crashed store crashed again.
    func crashedAgain() -> MidActionCrash {
        MidActionCrash(crashed: crashed.crash(), gate: gate, doors: doors, opening: opening)
    }

    /// Lets the interrupted first run end, and shuts its supervisor down.
    func finish() async {
        gate.open()
        _ = await opening.result
        await doors.shutdown()
    }
}
