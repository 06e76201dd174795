import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct DurableMachineTests {
    @Test func stateDataAndSequenceNumbersSurviveACrash() async throws {
        let store = InMemoryStore()
        let schema = try doorSchema()
        let door = try await Machine(schema: schema, id: "front", data: Door.Data(), durability: doorDurability(store))
        try await door.send(.open)
        try await door.send(.close)
        try await door.send(.open)
        try await door.send(.kick)   // unhandled, but numbered and written
        let restarted = store.crash()
        let again = try await Machine(schema: schema, id: "front", data: Door.Data(), durability: doorDurability(restarted))
        #expect(await again.state == .open)
        #expect(await again.data == Door.Data(openings: 2))
        let record = try await again.send(.close)
        #expect(record.sequenceNumber == 5)
        let numbers = try await restarted.entries(of: "front").map(\.sequenceNumber)
        #expect(numbers == [0, 1, 2, 3, 4, 5])
    }

    @Test func aMachineTheStoreDoesNotHoldStartsAfreshAndIsStoredAtOnce() async throws {
        let store = InMemoryStore()
        let door = try await Machine(schema: try doorSchema(), id: "new", data: Door.Data(openings: 7),
                                     durability: doorDurability(store))
        #expect(await door.state == .closed)
        #expect(await door.data.openings == 7)
        // Its creation is durable once the initializer returns: a crash now keeps it.
        let again = try await Machine(schema: try doorSchema(), id: "new", data: Door.Data(),
                                      durability: doorDurability(store.crash()))
        #expect(await again.data.openings == 7)
        let history = try await doorDurability(store).history(of: "new", schema: try doorSchema())
        #expect(history.map(\.kind) == [.created])
        #expect(history.first?.sequenceNumber == 0 && history.first?.state == .closed && history.first?.event == nil)
    }

    @Test func aMachineWhoseCreationCannotBeWrittenIsNotMade() async throws {
        let store = InMemoryStore()
        _ = store.crash()
        let error = await #expect(throws: MachineError<Door>.self) {
            try await Machine(schema: try doorSchema(), id: "new", data: Door.Data(), durability: doorDurability(store))
        }?.underlying as? DurabilityError
        #expect(error?.kind == .storeFailed)
        #expect(error.map { "\($0)" }?.contains("could not be written") == true)
    }

    @Test func orderedAlternativesChooseByTheDataARestoreBringsBack() async throws {
        // Opened twice at most; a third opening is refused by locking the door.
        let schema = try Schema<Door>(initial: .closed, final: []) {
            define(.closed) {
                when(.open) {
                    firstOf {
                        condition { (door: Door.Data) in door.openings < 2 } | then(.open) | update { $0.openings += 1 }
                        otherwise() | then(.locked)
                    }
                }
            }
            define(.open) { when(.close) | then(.closed) }
            define(.locked) { when(.unlock) | then(.closed) }
        }
        let store = InMemoryStore()
        let door = try await Machine(schema: schema, id: "front", data: Door.Data(), durability: doorDurability(store))
        for event in [Door.Event.open, .close, .open, .close] { try await door.send(event) }
        let again = try await Machine(schema: schema, id: "front", data: Door.Data(), durability: doorDurability(store.crash()))
        #expect(await again.data.openings == 2)
        let record = try await again.send(.open)
        #expect(record.target == .locked && record.sequenceNumber == 5)
        let taken = schema.resolve(.open, in: .closed, data: Door.Data(openings: 2)).firingTransition
        #expect(record.transitionLocation == taken?.location && taken?.alternative == 1)
    }
}
