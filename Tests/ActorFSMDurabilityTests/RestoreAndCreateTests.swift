import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// Reading machines back without making any, making them only when new, restoring all of them
/// past a damaged one, and what passivation reports.
@Suite(.timeLimit(.minutes(3))) struct RestoreAndCreateTests {
    @Test func restoreAllRestoresEveryMachineItCanAndNamesTheOthers() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store, clock: clock))
        for id in ["a", "b", "c"] {
            try await doors.activate(id: id, data: Door.Data())
            try await doors.send(to: id, .lock)
        }
        await doors.shutdown()
        let restarted = store.crash()
        restarted.damage(machine: "a", sequenceNumber: 1)

        let again = try Supervisor(schema: try doorSchema(), durability: doorDurability(restarted, clock: clock),
                                   configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
        let reports = again.reports()
        let summary = try await again.restoreAll()
        #expect(summary.restored == 2)
        #expect(summary.failures.map(\.machine) == ["a"] && summary.failures.first?.kind == .corruptEntry)
        #expect(summary.description.contains("restored 2 machines; 1 could not be"))
        // The healthy ones run, timers and all.
        clock.advance(by: .seconds(60))
        var jammed: Set<String> = []
        for await report in reports where report.record?.target == .jammed {
            jammed.insert(report.record!.machineID)
            if jammed.count == 2 { break }
        }
        #expect(jammed == ["b", "c"])
        await again.shutdown()
    }

    @Test func restoreReadsAStoredMachineBackAndNeverMakesOne() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "kept", data: Door.Data(openings: 4))
        await doors.shutdown()

        let reader = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        #expect(try await reader.restore(id: "kept").data == Door.Data(openings: 4))
        let missing = await #expect(throws: MachineError<Door>.self) { try await reader.restore(id: "never-made") }
        #expect(missing?.kind == .unknownMachine)
        #expect(try await store.machineIDs() == ["kept"])
        await reader.shutdown()
    }

    @Test func createMakesOnlyNewMachines() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.create(id: "new", data: Door.Data(openings: 1))
        let running = await #expect(throws: MachineError<Door>.self) { try await doors.create(id: "new", data: Door.Data()) }
        #expect(running?.kind == .duplicateMachine)
        await doors.shutdown()

        let later = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let stored = await #expect(throws: MachineError<Door>.self) { try await later.create(id: "new", data: Door.Data()) }
        #expect(stored?.kind == .duplicateMachine)
        #expect(await later.machine(id: "new")?.data == Door.Data(openings: 1), "the stored one, untouched")
        await later.shutdown()
    }

    @Test func passivationHasAReportOfItsOwn() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let reports = doors.reports()
        try await doors.activate(id: "idle", data: Door.Data())
        #expect(await doors.passivate(id: "idle"))
        await doors.shutdown()
        var seen: [String] = []
        for await report in reports {
            switch report {
            case .passivated(let id): seen.append("passivated \(id)")
            case .terminated(let id, let how): seen.append("terminated \(id) \(how)")
            default: break
            }
        }
        #expect(seen == ["passivated idle"])
    }

    /// A price the default JSON codec cannot encode.
    enum Priced: MachineDefinition {
        enum State: String, Codable, Hashable, Sendable { case open }
        enum Event: String, Codable, Hashable, Sendable { case touch }
        typealias ID = String
        struct Data: Codable, Sendable { var price: Double }
    }

    @Test func aCreationEntryThatCannotBeEncodedFailsTheCallAndNothingElse() async throws {
        let schema = try Schema<Priced>(initial: .open) { define(.open) { when(.touch) | then(.open) } }
        let store = InMemoryStore()
        let priced = try Supervisor(schema: schema, durability: Durability(store: store))
        let error = await #expect(throws: MachineError<Priced>.self) {
            try await priced.activate(id: "nan", data: Priced.Data(price: .nan))
        }
        #expect(error?.kind == .notDurable)
        #expect(priced.machine(id: "nan") == nil)
        try await priced.activate(id: "fine", data: Priced.Data(price: 1))
        #expect(try await priced.send(to: "fine", .touch).sequenceNumber == 1)
        await priced.shutdown()
    }
}
