import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// The door of a later release: `locked` is now `sealed`, and the data counts differently.
enum DoorV2: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case closed, open, sealed, jammed }
    typealias Event = Door.Event
    typealias ID = String
    struct Data: Codable, Sendable, Equatable {
        var opens: Int
        var label: String
    }
}

@Suite(.timeLimit(.minutes(3))) struct SchemaEvolutionTests {
    /// A store holding door "d", locked after opening once, as version 1 wrote it.
    func lockedDoorStore() async throws -> InMemoryStore {
        let store = InMemoryStore()
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(store))
        try await door.send(.open)
        try await door.send(.close)
        try await door.send(.lock)
        return store.crash()
    }

    func schemaV2() throws -> Schema<DoorV2> {
        try Schema<DoorV2>(initial: .closed, final: []) {
            define(.closed) { when(.open) | then(.open) ; when(.lock) | then(.sealed) }
            define(.open) { when(.close) | then(.closed) }
            define(.sealed) { when(.unlock) | then(.closed) }
            define(.jammed) { when(.kick) | then(.closed) }
        }
    }

    @Test func aRemovedStateWithoutAMigrationIsAnErrorNamingTheMachineAndTheState() async throws {
        let store = try await lockedDoorStore()
        let durability = Durability<DoorV2>(store: store, schemaVersion: 2)
        let error = await #expect(throws: MachineError<DoorV2>.self) {
            _ = try await Machine(schema: try schemaV2(), id: "d", data: DoorV2.Data(opens: 0, label: ""), durability: durability)
        }?.underlying as? DurabilityError
        #expect(error?.kind == .unknownState)
        #expect(error?.machine == "d" && error?.sequenceNumber == 3)
        #expect(error?.description.contains("\"locked\"") == true)
        #expect(error?.description.contains("SchemaMigration") == true)
    }

    @Test func aMigrationMapsTheStateAndUpgradesTheData() async throws {
        struct DataV1: Decodable { var openings: Int }
        let store = try await lockedDoorStore()
        let migration = SchemaMigration<DoorV2>(
            state: { stored in try stored.decode(as: String.self) == "locked" ? .sealed : nil },
            data: { stored in
                #expect(stored.schemaVersion == 1)
                return DoorV2.Data(opens: try stored.decode(as: DataV1.self).openings, label: "migrated")
            })
        let durability = Durability<DoorV2>(store: store, schemaVersion: 2, migration: migration)
        let door = try await Machine(schema: try schemaV2(), id: "d", data: DoorV2.Data(opens: 0, label: ""),
                                     durability: durability)
        #expect(await door.state == .sealed)
        #expect(await door.data == DoorV2.Data(opens: 1, label: "migrated"))
        let record = try await door.send(.unlock)
        #expect(record.target == .closed && record.sequenceNumber == 4)
        // Written by version 2, it reads back without the migration.
        let again = try await Machine(schema: try schemaV2(), id: "d", data: DoorV2.Data(opens: 0, label: ""),
                                      durability: Durability(store: store.crash(), schemaVersion: 2))
        #expect(await again.data.label == "migrated")
    }

    @Test func aDamagedEntryIsReportedNeverApplied() async throws {
        let store = try await lockedDoorStore()
        store.damage(machine: "d", sequenceNumber: 3)
        let error = await #expect(throws: MachineError<Door>.self) {
            _ = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(store))
        }?.underlying as? DurabilityError
        #expect(error?.kind == .corruptEntry && error?.sequenceNumber == 3)
    }

    @Test func anEntryCopiedUnderAnotherMachineOrNumberIsReportedAsDamaged() async throws {
        let store = try await lockedDoorStore()
        let newest = try #require(try await store.latestEntries(of: "d", count: 1).first)
        // Copied, bytes and all, under another machine, and under another number of its own.
        let copies = [JournalEntry(machine: "e", sequenceNumber: newest.sequenceNumber, payload: newest.payload),
                      JournalEntry(machine: "d", sequenceNumber: newest.sequenceNumber + 1, payload: newest.payload)]
        for copy in copies {
            await withCheckedContinuation { done in store.append(JournalWrite(entry: copy)) { _ in done.resume() } }
        }
        for id in ["e", "d"] {
            let error = await #expect(throws: MachineError<Door>.self) {
                _ = try await Machine(schema: try doorSchema(), id: id, data: Door.Data(), durability: doorDurability(store))
            }?.underlying as? DurabilityError
            #expect(error?.kind == .corruptEntry && error?.sequenceNumber == newest.sequenceNumber + (id == "d" ? 1 : 0))
        }
    }
}
