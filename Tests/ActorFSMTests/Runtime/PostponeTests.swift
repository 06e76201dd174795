import ActorFSM
import Testing
import TestSupport

/// A parcel that may be asked to ship before it is packed.
enum Parcel: MachineDefinition {
    enum State: Hashable, Sendable { case packing, sealing, ready, shipped }
    enum Event: CaseKeyed, CustomStringConvertible {
        case ship(Int), packed, sealed, note

        enum CaseKey: Hashable, Sendable { case ship, packed, sealed, note }
        var caseKey: CaseKey {
            switch self {
            case .ship: .ship
            case .packed: .packed
            case .sealed: .sealed
            case .note: .note
            }
        }
        var description: String {
            if case .ship(let number) = self { "ship\(number)" } else { "\(caseKey)" }
        }
    }
    typealias ID = Int
}

@Suite(.timeLimit(.minutes(3))) struct PostponeTests {
    func schema() throws -> Schema<Parcel> {
        try Schema<Parcel>(initial: .packing, final: [.shipped]) {
            define(.packing) {
                when(.ship) | postpone()
                when(.packed) | then(.sealing)
                when(.note) | then()
            }
            define(.sealing) {
                when(.ship) | postpone()
                when(.sealed) | then(.ready)
                when(.note) | then()
            }
            define(.ready) {
                when(.ship) | then(.ready)
                when(.note) | then()
            }
        }
    }

    @Test func postponedEventsAreRetriedAfterEachChangeOfStateInArrivalOrderBeforeTheQueue() async throws {
        let machine = Machine(schema: try schema(), id: 1)
        let records = await machine.records()
        try machine.tryPost(.ship(1))
        try machine.tryPost(.note)      // then(): no change of state, no retry
        try machine.tryPost(.ship(2))
        try machine.tryPost(.packed)    // to sealing: both tried again, and postponed again
        try machine.tryPost(.note)
        try machine.tryPost(.sealed)    // to ready: both tried again, before the note queued after
        try machine.tryPost(.note)
        let seen = try await first(7, of: records)
        #expect(seen.map { "\($0.eventDescription)/\($0.postponements)" }
            == ["note/0", "packed/0", "note/0", "sealed/0", "ship1/2", "ship2/2", "note/0"])
        #expect(seen.map(\.sequenceNumber) == Array(1...7))
        #expect(await machine.state == .ready)
    }

    @Test func aSentEventThatIsPostponedWaitsForItsRecord() async throws {
        let machine = Machine(schema: try schema(), id: 3)
        let shipping = Task { try await machine.send(.ship(7)) }
        await machine.untilPostponed(1)
        #expect(try await machine.send(.note).sequenceNumber == 1)
        #expect(try await machine.send(.packed).target == .sealing)
        #expect(try await machine.send(.sealed).target == .ready)
        let record = try await shipping.value
        #expect(record.sequenceNumber == 4)
        #expect(record.postponements == 2)
        #expect(record.source == .ready)
    }

    @Test func theMachineHoldsNoMorePostponedEventsThanItsCapacity() async throws {
        let machine = Machine(schema: try schema(), id: 4, configuration: .init(postponedCapacity: 2))
        try machine.tryPost(.ship(1))
        try machine.tryPost(.ship(2))
        let refused = try await machine.send(.ship(3))
        guard case .unhandled(let reason) = refused.outcome else {
            Issue.record("expected the third to be refused, got \(refused.outcome)")
            return
        }
        #expect(reason.kind == .postponedCapacityReached)
        #expect(refused.sequenceNumber == 1)
        #expect("\(refused.outcome)".contains("postponedCapacity"))
    }

    @Test func stoppingGivesPostponedEventsTheirOneRecordAndAnswersTheirSenders() async throws {
        let machine = Machine(schema: try schema(), id: 5)
        let records = await machine.records()
        let shipping = Task { try await machine.send(.ship(1)) }
        await machine.untilPostponed(1)
        try machine.tryPost(.ship(2))
        await machine.untilPostponed(2)
        await machine.shutdown()
        await #expect(throws: MachineError<Parcel>.self) { try await shipping.value }
        var outcomes: [String] = []
        for await record in records { outcomes.append("\(record.eventDescription)/\(record.outcomeName)/\(record.postponements)") }
        #expect(outcomes == ["ship1/stopped/1", "ship2/stopped/1"])
    }

    @Test func aPostponingTransitionIsShownAsSuch() throws {
        let schema = try schema()
        #expect(schema.transitions.filter(\.postpones).map { "\($0.source)" } == ["packing", "sealing"])
        #expect(schema.mermaid().contains("s0 --> s0 : ship (postponed)"))
    }

    @Test func postponeRefusesActionsAndTimeouts() {
        let withActions = diagnostics {
            try Schema<Parcel>(initial: .packing) {
                define(.packing) { when(.ship) | postpone() | { print("never") } }
            }
        }
        #expect(withActions.map(\.kind) == [.invalidPostpone])
        let onTimeout = diagnostics {
            try Schema<Parcel>(initial: .packing) {
                define(.packing) {
                    after(.seconds(1)) | postpone()
                    when(.ship) | then(.packing)
                }
            }
        }
        #expect(onTimeout.map(\.kind).contains(.invalidPostpone))
    }

    /// A dock whose sealing step runs a gated check next, for the order of retries and stops.
    enum Dock: MachineDefinition {
        enum State: Hashable, Sendable { case packing, sealing, ready }
        enum Event: Hashable, Sendable { case ship, packed, check, note, loaded, go }
        typealias ID = Int
    }

    func dock(gate: Gate) throws -> Schema<Dock> {
        try Schema<Dock>(initial: .packing) {
            define(.packing) {
                when(.ship) | postpone()
                when(.packed) | then(.sealing)
                when(.note) | then()
            }
            define(.sealing, onEntry: Actions { context in try context.postNext(.check) }) {
                when(.check) | then() | { await gate.wait() }
                when(.ship) | then(.ready)
                when(.note) | then()
            }
            define(.ready) { when(.note) | then() }
        }
    }

    @Test func aRetriedEventComesAfterTheEventsPostedNextAndBeforeTheQueue() async throws {
        let gate = Gate()
        gate.open()
        let machine = Machine(schema: try dock(gate: gate), id: 6)
        let records = await machine.records()
        try machine.tryPost(.ship)
        try machine.tryPost(.packed)
        try machine.tryPost(.note)
        let seen = try await first(4, of: records).map { "\($0.eventDescription)/\($0.origin)/\($0.postponements)" }
        #expect(seen == ["packed/post/0", "check/next/0", "ship/post/1", "note/post/0"])
    }

    @Test func stopAnswersARetriedSendAtOnceWhileAnEventPostedNextRuns() async throws {
        let gate = Gate()
        let machine = Machine(schema: try dock(gate: gate), id: 7)
        let shipping = Task { try await machine.send(.ship) }
        await machine.untilPostponed(1)
        try machine.tryPost(.packed)
        await gate.untilArrivals(1)           // the check posted next is running, the ship waits
        await machine.stop()
        await #expect(throws: MachineError<Dock>.self) { try await shipping.value }
        gate.open()
    }

    @Test func aPostponedStateTaskResultIsHandledInTheNextState() async throws {
        let schema = try Schema<Dock>(initial: .packing) {
            define(.packing, running: StateTask { .loaded }) {
                when(.loaded) | postpone()
                when(.go) | then(.ready)
            }
            define(.ready) { when(.loaded) | then(.sealing) }
            define(.sealing) { when(.note) | then() }
        }
        let machine = Machine(schema: schema, id: 8)
        let records = await machine.records()
        await machine.untilPostponed(1)
        try await machine.send(.go)
        let seen = try await first(2, of: records)
        #expect(seen.map(\.eventDescription) == ["go", "loaded"])
        #expect(seen[1].postponements == 1)
        #expect(seen[1].origin == .stateTask)
        #expect(await machine.state == .sealing)
    }
}
