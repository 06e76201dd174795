import ActorFSM
import ActorFSMDistribution
import ActorFSMDurability
import ActorFSMTesting
import Distributed
import Foundation
import Testing
import TestSupport

/// A turnstile whose states and events cross process boundaries.
enum RemoteGate: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case locked, unlocked, alarming }
    enum Event: String, Codable, Hashable, Sendable { case coin, pass, reset }
    typealias ID = String
}

struct JammedMechanism: Error, CustomStringConvertible {
    var description: String { "the mechanism is jammed" }
}

/// Weak enforcement lets a pass through a locked gate; strong sounds the alarm, and a reset of
/// the alarm fails.
func remoteGateSchema() throws -> Schema<RemoteGate> {
    try Schema<RemoteGate>(initial: .locked) {
        define(.locked) {
            when(.coin) | then(.unlocked)
            matching(Enforcement.weak) | when(.pass) | then(.locked)
            matching(Enforcement.strong) | when(.pass) | then(.alarming)
        }
        define(.unlocked) { when(.pass) | then(.locked) }
        define(.alarming) { when(.reset) | then(.locked) | { () throws in throw JammedMechanism() } }
    }
}

typealias LocalSystem = LocalTestingDistributedActorSystem

@Suite struct DistributedActorTests {
    @Test func aResolvedMachineTakesEventsWithTheirPredicates() async throws {
        let system = LocalSystem()
        let hosted = DistributedMachine(serving: Machine(schema: try remoteGateSchema(), id: "gate-7"), actorSystem: system)
        let gate = try DistributedMachine<RemoteGate, LocalSystem>.resolve(id: hosted.id, using: system)

        #expect(try await gate.send(.pass, predicates: PredicateContext(Enforcement.weak)).target == .locked)
        #expect(try await gate.send(.coin).target == .unlocked)
        try await gate.post(.pass)
        #expect(try await gate.send(.pass, predicates: PredicateContext(Enforcement.strong)).target == .alarming)
        #expect(try await gate.currentState() == .alarming)
        #expect(try await gate.machineID() == "gate-7")
    }

    @Test func predicatesDecodedInAnotherProcessMatchTheSchemasCases() async throws {
        let encoded = try JSONEncoder().encode(PredicateContext(Enforcement.strong))
        let decoded = try JSONDecoder().decode(PredicateContext.self, from: encoded)
        #expect(decoded.description == "[Enforcement.strong]")

        let system = LocalSystem()
        let hosted = DistributedMachine(serving: Machine(schema: try remoteGateSchema(), id: "g"), actorSystem: system)
        let record = try await hosted.send(.pass, predicates: decoded)
        #expect(record.target == .alarming)
        #expect(record.predicates.description == "[Enforcement.strong]")
        // Unresolved, the decoded values match nothing: the machine would report the event unhandled.
        let direct = try remoteGateSchema().resolve(.pass, in: .locked, predicates: decoded)
        guard case .unhandled = direct else { Issue.record("resolved \(direct) without mapping"); return }
    }

    @Test func aRecordCrossesAsJSONAndReadsTheSame() async throws {
        let machine = Machine(schema: try remoteGateSchema(), id: "g")
        let record = try await machine.send(.pass, predicates: PredicateContext(Enforcement.weak))
        let decoded = try JSONDecoder().decode(TransitionRecord<RemoteGate>.self, from: JSONEncoder().encode(record))
        #expect(decoded.description == record.description)
        #expect(decoded.sequenceNumber == 1)
        #expect(decoded.origin == .send)
        #expect(decoded.transitionLocation == record.transitionLocation)
        #expect(decoded.latency == record.latency)
        #expect(decoded.outcome.isTransitioned)

        let unhandled = try await machine.send(.reset)
        let back = try JSONDecoder().decode(TransitionRecord<RemoteGate>.self, from: JSONEncoder().encode(unhandled))
        #expect(back.description == unhandled.description)
        #expect("\(back.outcome)".hasPrefix("unhandled: "))
    }

    @Test func aFailedActionsErrorArrivesWithItsTypeAndMessage() async throws {
        let system = LocalSystem()
        let hosted = DistributedMachine(serving: Machine(schema: try remoteGateSchema(), id: "g"), actorSystem: system)
        try await hosted.send(.pass, predicates: PredicateContext(Enforcement.strong))
        let thrown = await #expect(throws: MachineError<RemoteGate>.self) { try await hosted.send(.reset) }
        let error = try #require(thrown)
        #expect(error.kind == .actionFailed)

        let decoded = try JSONDecoder().decode(MachineError<RemoteGate>.self, from: JSONEncoder().encode(error))
        #expect(decoded.kind == .actionFailed)
        #expect(decoded.machineID == "g")
        #expect(decoded.description == error.description)
        let failure = try #require(decoded.underlying as? RemoteFailure)
        #expect(failure.message == "the mechanism is jammed")
        #expect(failure.type.hasSuffix("JammedMechanism"))
    }

    @Test func aSupervisorServesItsMachinesAndRefusesUnknownIDs() async throws {
        let system = LocalSystem()
        let supervisor = Supervisor(schema: try remoteGateSchema())
        for id in ["a", "b"] { try supervisor.spawn(id: id) }
        let hosted = DistributedSupervisor(serving: supervisor, actorSystem: system)
        let gates = try DistributedSupervisor<RemoteGate, LocalSystem>.resolve(id: hosted.id, using: system)

        #expect(try await gates.send(to: "a", .coin).target == .unlocked)
        try await gates.post(to: "b", .pass, predicates: PredicateContext(Enforcement.strong))
        #expect(try await gates.send(to: "b", .coin).source == .alarming)
        #expect(try await gates.state(of: "a") == .unlocked)
        #expect(try await gates.state(of: "nobody") == nil)
        let error = await #expect(throws: MachineError<RemoteGate>.self) { try await gates.send(to: "nobody", .coin) }
        #expect(error?.kind == .unknownMachine)
        await supervisor.shutdown()
    }

    @Test func aDurableSupervisorRestoresAMachineOnItsFirstRemoteEvent() async throws {
        let store = InMemoryStore()
        let durability = Durability<Door>(store: store)
        let first = try await Machine(schema: try doorSchema(), id: "front", data: Door.Data(), durability: durability)
        try await first.send(.open)
        await first.shutdown()

        let system = LocalSystem()
        let doors = try Supervisor(schema: try doorSchema(), durability: Durability<Door>(store: store.crash()))
        let hosted = DistributedSupervisor(serving: doors, actorSystem: system)
        let record = try await hosted.send(to: "front", .close)
        #expect(record.source == .open)
        #expect(record.sequenceNumber == 2)
        await doors.shutdown()
    }
}
