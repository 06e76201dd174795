import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Foundation
import Testing
import TestSupport

/// A new version of a schema checked against what the store holds before anything restores.
@Suite(.timeLimit(.minutes(3))) struct CompatibilityTests {
    @Test(arguments: ["memory", "sqlite"])
    func aStateTheNewSchemaDropsIsRefusedBeforeAnythingRestoresThenTakenUpWithAMigration(store kind: String) async throws {
        let folder = try TemporaryFolder()
        let store: any MachineStore = kind == "sqlite" ? try SQLiteStore(path: folder.file("doors.sqlite")) : InMemoryStore()
        try await NextRelease.firstRelease(into: store)

        let refused = try NextRelease.supervisor(on: store)
        let report = try await refused.compatibility()
        #expect(report.problems.count == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.state == "locked" && problem.machines == 3 && problem.schemaVersion == 1)
        #expect(problem.firstIDs.sorted() == ["d1", "d2", "d3"], "the cancelled d5 is not counted")
        #expect(problem.reason.contains("SchemaMigration"))
        do {
            try await refused.restoreAll()
            Issue.record("a schema that cannot read three machines' state restored the store")
        } catch {
            #expect(error.kind == .incompatible)
            #expect(error.description.contains("3 machines in locked"))
        }
        #expect(refused.machine(id: "d4") == nil, "nothing was restored")
        // Without the check, what can be read is restored, and the others are the failures (the
        // cancelled d5 too: its entry is read before its cancel is).
        let unchecked = try await refused.restoreAll(checkingCompatibility: false)
        #expect(unchecked.restored == 1 && unchecked.failures.count == 4)
        await refused.shutdown()

        let accepted = try NextRelease.supervisor(on: store, migration: NextRelease.migration)
        #expect(try await accepted.compatibility().isCompatible)
        #expect(try await accepted.restoreAll().restored == 4)
        #expect(await accepted.machine(id: "d1")?.state == .sealed)
        await accepted.shutdown()
        (store as? SQLiteStore)?.close()
    }

    /// A migration that maps a state to nothing, or throws, is named as the reason; the
    /// schema that wrote the machines is compatible with itself.
    @Test func aMigrationThatMapsNothingOrThrowsIsTheReason() async throws {
        let store = InMemoryStore()
        try await NextRelease.firstRelease(into: store)
        let same = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        #expect(try await same.compatibility().isCompatible)
        await same.shutdown()

        struct Unreadable: Error {}
        let nothing = SchemaMigration<NextRelease.Door>(state: { _ in nil })
        let mapsNothing = try NextRelease.supervisor(on: store, migration: nothing)
        #expect(try await mapsNothing.compatibility().problems.first?.reason.contains("maps it to nothing") == true)
        await mapsNothing.shutdown()
        let failing = SchemaMigration<NextRelease.Door>(state: { _ in throw Unreadable() })
        let throwing = try NextRelease.supervisor(on: store, migration: failing)
        #expect(try await throwing.compatibility().problems.first?.reason.contains("Unreadable") == true)
        await throwing.shutdown()
    }

    /// `actorfsm check` reads a new version's description from the file `json()` wrote and
    /// answers from the store's descriptions and summaries: exit 1 with each state it cannot
    /// take up, 0 once the states a migration maps are named with `--mapped`.
    @Test func theCommandChecksADescriptionFileAgainstTheStore() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("doors.sqlite")
        let store = try SQLiteStore(path: path)
        try await NextRelease.firstRelease(into: store)
        let next = try StoredSchema(schema: try NextRelease.schema(), durability: Durability<NextRelease.Door>(store: store, schemaVersion: 2))
        let file = folder.file("doors-v2.json")
        try Data(next.json().utf8).write(to: URL(fileURLWithPath: file))
        store.close()

        let refused = ToolOutput()
        #expect(await refused.run(["check", "--schema-description", file, "--store", path]) == 1)
        #expect(refused.text.withLock { $0 }.contains("3 machines in locked"))
        #expect(refused.errors.withLock { $0 }.contains("cannot take up the machines in 1 stored states"))
        let mapped = ToolOutput()
        #expect(await mapped.run(["check", "--schema-description", file, "--mapped", "locked", "--store", path]) == 0)
        #expect(mapped.text.withLock { $0 }.contains("takes up every machine"))
        let same = try StoredSchema(schema: try doorSchema(), durability: doorDurability(InMemoryStore()))
        try Data(same.json().utf8).write(to: URL(fileURLWithPath: file))
        #expect(await ToolOutput().run(["check", "--schema-description", file, "--store", path]) == 0)

        let unreadable = ToolOutput()
        #expect(await unreadable.run(["check", "--schema-description", folder.file("missing.json"), "--store", path]) == 1)
        #expect(unreadable.errors.withLock { $0 }.contains("cannot read the schema description"))
        let fileless = ToolOutput()
        #expect(await fileless.run(["check", "--store", path]) == 2)
        #expect(fileless.errors.withLock { $0 }.contains("check needs --schema-description FILE"))
    }

    /// A door scheduled to be kicked in an hour, and a release whose event type has no `kick`:
    /// refused before anything restores, naming the event; a release that keeps the case in its
    /// type, and only stops handling it, takes the store up.
    @Test(arguments: ["memory", "sqlite"])
    func anEventAMachineHoldsThatTheNewTypeDropsIsRefused(store kind: String) async throws {
        let folder = try TemporaryFolder()
        let store: any MachineStore = kind == "sqlite" ? try SQLiteStore(path: folder.file("doors.sqlite")) : InMemoryStore()
        try await Unkickable.firstRelease(into: store)

        let refused = try Supervisor(schema: try Unkickable.schema(), durability: Durability(store: store, schemaVersion: 2))
        let report = try await refused.compatibility()
        #expect(report.problems.count == 1, "\(report)")
        let problem = try #require(report.problems.first)
        #expect(problem.event == "\"kick\"" && problem.state.isEmpty && problem.machines == 1 && problem.firstIDs == ["d1"])
        #expect(problem.description.contains("1 machines holding the event \"kick\""))
        await #expect(throws: DurabilityError.self) { try await refused.restoreAll() }
        #expect(refused.machine(id: "d2") == nil, "nothing was restored")
        await refused.shutdown()

        let kept = try Supervisor(schema: try Unkickable.keepingTheCase(), durability: Durability(store: store, schemaVersion: 2))
        #expect(try await kept.compatibility().isCompatible)
        #expect(try await kept.restoreAll().restored == 2)
        await kept.shutdown()
        (store as? SQLiteStore)?.close()
    }
}
