import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import PostgresTestSupport
import Testing
import TestSupport

/// A new version of a schema checked against a PostgreSQL store before anything restores.
@Suite(needsPostgres, .timeLimit(.minutes(3))) struct PostgresCompatibilityTests {
    @Test func aStateTheNewSchemaDropsIsRefusedThenTakenUpWithAMigration() async throws {
        try await withPostgres(checkTheNextRelease)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func checkTheNextRelease(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first", summaryDelay: .zero)
        try await NextRelease.firstRelease(into: first)
        first.close()

        let store = try PostgresStore(url: server.url, node: "next", summaryDelay: .zero)
        let refused = try NextRelease.supervisor(on: store)
        let problem = try #require(try await refused.compatibility().problems.first)
        #expect(problem.state == "locked" && problem.machines == 3 && problem.firstIDs.sorted() == ["d1", "d2", "d3"])
        let refusal = await #expect(throws: DurabilityError.self) { try await refused.restoreAll() }
        #expect(refusal?.kind == .incompatible)
        #expect(refused.machine(id: "d4") == nil)
        await refused.shutdown()

        let accepted = try NextRelease.supervisor(on: store, migration: NextRelease.migration)
        #expect(try await accepted.compatibility().isCompatible)
        _ = try await accepted.restoreAll()
        // Each is running now: restored by that call, or first by the supervisor's own takeover of
        // the machines with a timer that a closed process left.
        let expected: [(String, NextRelease.Door.State)] = [("d1", .sealed), ("d2", .sealed), ("d3", .sealed), ("d4", .closed)]
        for (id, state) in expected {
            let machine = try await accepted.restore(id: id)
            #expect(await machine.state == state, "\(id)")
        }
        await accepted.shutdown()
        store.close()
    }

    @Test func anEventAMachineHoldsThatTheNewTypeDropsIsRefused() async throws {
        try await withPostgres(checkTheUnkickableRelease)
    }

    /// The body of the test above: a door scheduled to be kicked, and a release without `kick`.
    private func checkTheUnkickableRelease(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first", summaryDelay: .zero)
        try await Unkickable.firstRelease(into: first)
        first.close()

        let store = try PostgresStore(url: server.url, node: "next", summaryDelay: .zero)
        let refused = try Supervisor(schema: try Unkickable.schema(), durability: Durability(store: store, schemaVersion: 2))
        let problems = try await refused.compatibility().problems
        #expect(problems.map(\.event) == ["\"kick\""] && problems.first?.firstIDs == ["d1"], "\(problems)")
        let refusal = await #expect(throws: DurabilityError.self) { try await refused.restoreAll() }
        #expect(refusal?.kind == .incompatible)
        await refused.shutdown()

        let kept = try Supervisor(schema: try Unkickable.keepingTheCase(), durability: Durability(store: store, schemaVersion: 2))
        #expect(try await kept.compatibility().isCompatible)
        await kept.shutdown()
        store.close()
    }

    /// The histories a PostgreSQL store holds replay through the next release: none diverges
    /// with the migration, and without it the locked doors' entries cannot be read.
    @Test func historiesReadFromPostgresReplayThroughTheNextRelease() async throws {
        try await withPostgres(replayTheFirstRelease)
    }

    /// The body of the test above.
    private func replayTheFirstRelease(on server: TemporaryPostgres) async throws {
        let store = try PostgresStore(url: server.url, node: "first", summaryDelay: .zero)
        try await NextRelease.firstRelease(into: store)
        let histories = try await StoredHistory.read(from: store)
        #expect(histories.count == 5)
        let mapped = try Replay(histories, through: try NextRelease.schema(), migration: NextRelease.migration, schemaVersion: 2)
        #expect(mapped.divergences.isEmpty, "\(mapped.divergences)")
        #expect(mapped.replayedEvents == 4, "four locks")
        let unmapped = try Replay(histories, through: try NextRelease.schema(), schemaVersion: 2)
        #expect(Set(unmapped.divergences.map(\.machine)) == ["d1", "d2", "d3", "d5"])
        store.close()
    }
}
