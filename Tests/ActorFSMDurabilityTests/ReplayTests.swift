import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Foundation
import Testing
import TestSupport

/// Stored histories of the first release replayed through later versions of the door.
@Suite(.timeLimit(.minutes(3))) struct ReplayTests {
    /// The next release, in which opening a closed door now jams it.
    static func jammingSchema() throws -> Schema<NextRelease.Door> {
        try Schema<NextRelease.Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.jammed) ; when(.lock) | then(.sealed) }
            define(.open) { when(.close) | then(.closed) }
            define(.sealed) { when(.unlock) | then(.closed) }
            define(.jammed) { when(.kick) | then(.closed) }
        }
    }

    /// Door "h" opened, closed and locked by the first release, read back from `store`.
    static func firstReleaseHistories(in store: any MachineStore & StoreInspection) async throws -> [StoredHistory] {
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "h", data: Door.Data())
        for event in [Door.Event.open, .close, .lock] { try await doors.send(to: "h", event) }
        await doors.shutdown()
        return try await StoredHistory.read(from: store)
    }

    @Test func theSameSchemaAndAMigrationThatKeepsTheTableReplayWithoutDivergence() async throws {
        let histories = try await Self.firstReleaseHistories(in: InMemoryStore())
        #expect(histories.map(\.machine) == ["h"] && histories[0].entries.count == 4)
        let same = try Replay(histories, through: try doorSchema())
        #expect(same.divergences.isEmpty && same.replayedEvents == 3)
        let next = try Replay(histories, through: try NextRelease.schema(), migration: NextRelease.migration, schemaVersion: 2)
        #expect(next.divergences.isEmpty, "\(next.divergences)")
        #expect(next.replayedEvents == 3)
    }

    @Test func aChangedTargetIsOneDivergenceThatNamesBothOutcomes() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.file("doors.sqlite"))
        let histories = try await Self.firstReleaseHistories(in: store)
        let replay = try Replay(histories, through: try Self.jammingSchema(), migration: NextRelease.migration, schemaVersion: 2)
        // Entry 1 (open) now jams; the door's next entries are carried from what was stored.
        #expect(replay.divergences.count == 1)
        let divergence = try #require(replay.divergences.first)
        #expect(divergence.machine == "h" && divergence.sequenceNumber == 1)
        #expect(divergence.description == "machine h, entry 1: stored open: closed → open; now open: closed → jammed")
        store.close()
    }

    @Test func anEntryTheNewVersionCannotReadNamesTheMachineAndEntry() async throws {
        let histories = try await Self.firstReleaseHistories(in: InMemoryStore())
        let unmapped = try Replay(histories, through: try NextRelease.schema(), schemaVersion: 2)
        let state = try #require(unmapped.divergences.first)
        #expect(state.sequenceNumber == 3 && state.replayed.contains("\"locked\""))
        // Data of another shape, and a migration with no data step: every entry is unreadable.
        let reshaped = try Replay(histories, through: try SchemaEvolutionTests().schemaV2(),
                                  migration: SchemaMigration(state: { _ in .sealed }), schemaVersion: 2)
        #expect(reshaped.divergences.map(\.sequenceNumber) == [0, 1, 2, 3])
        #expect(reshaped.divergences.allSatisfy { $0.replayed.contains("cannot be decoded") })
        #expect(reshaped.replayedEvents == 0)
    }

    /// `actorfsm export` writes the selected machines' histories as JSON, which decodes into
    /// the same histories and replays the same.
    @Test func exportedHistoriesReplayAsTheStoresOwn() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("doors.sqlite")
        let store = try SQLiteStore(path: path)
        let histories = try await Self.firstReleaseHistories(in: store)
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "other", data: Door.Data())
        await doors.shutdown()
        store.close()

        let export = ToolOutput()
        #expect(await export.run(["export", "--state", "locked", "--store", path]) == 0)
        let exported = try JSONDecoder().decode([StoredHistory].self, from: Data(export.text.withLock { $0 }.utf8))
        #expect(exported == histories, "only the locked door, entry for entry")
        let replay = try Replay(exported, through: try Self.jammingSchema(), migration: NextRelease.migration, schemaVersion: 2)
        #expect(replay.divergences.map(\.sequenceNumber) == [1])
        let sample = ToolOutput()
        #expect(await sample.run(["export", "--limit", "1", "--store", path]) == 0)
        #expect(try JSONDecoder().decode([StoredHistory].self, from: Data(sample.text.withLock { $0 }.utf8)).count == 1)
    }
}
