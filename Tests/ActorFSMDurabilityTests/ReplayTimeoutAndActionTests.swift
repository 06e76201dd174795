import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing

/// A kettle whose heating times out: replays compare its timeouts, and run its actions in a
/// dry run when asked.
@Suite(.timeLimit(.minutes(3))) struct ReplayTimeoutAndActionTests {
    enum Kettle: MachineDefinition {
        enum State: String, Codable, Hashable, Sendable { case idle, heating, boiled, cold }
        enum Event: String, Codable, Hashable, Sendable { case heat, done }
        struct Data: Codable, Sendable { var heats = 0 }
    }

    struct ElementBroken: Error, CustomStringConvertible {
        var description: String { "the heating element is broken" }
    }

    /// The kettle; a release whose element fails throws from every heat, and the one whose
    /// timeout leads to `cooled` moves a kettle that waited too long elsewhere.
    static func kettle(elementFails: Bool = false, cooled: Kettle.State = .cold) throws -> Schema<Kettle> {
        let heat = { @Sendable (context: TransitionContext<Kettle>) throws in
            if elementFails { throw ElementBroken() }
            context.data.heats += 1
        }
        // Cooling switches the element off, which a broken element cannot do either.
        let cool = { @Sendable (context: TransitionContext<Kettle>) throws in
            if elementFails { throw ElementBroken() }
        }
        return try Schema<Kettle>(initial: .idle) {
            define(.idle) { when(.heat) | then(.heating) | heat }
            define(.heating) {
                when(.done) | then(.boiled)
                after(.seconds(60)) | then(cooled) | cool
            }
            define(.boiled) { when(.heat) | then(.heating) | heat }
            define(.cold) { when(.heat) | then(.heating) | heat }
        }
    }

    /// Kettle "k" heated, left until its timeout, heated again and boiled, read back from a store.
    static func histories() async throws -> [StoredHistory] {
        let store = InMemoryStore()
        let clock = ManualClock()
        let kettles = try Supervisor(schema: try kettle(), durability: Durability(store: store),
                                     configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
        let kettle = try await kettles.activate(id: "k", data: Kettle.Data())
        var records = await kettle.records().makeAsyncIterator()
        try await kettles.send(to: "k", .heat)
        _ = await records.next()
        clock.advance(by: .seconds(60))
        let timedOut = await records.next()
        #expect(timedOut?.target == .cold)
        try await kettles.send(to: "k", .heat)
        try await kettles.send(to: "k", .done)
        await kettles.shutdown()
        return try await StoredHistory.read(from: store)
    }

    @Test func aTimeoutThatNowLeadsElsewhereIsADivergence() async throws {
        let histories = try await Self.histories()
        let same = try Replay(histories, through: try Self.kettle())
        #expect(same.divergences.isEmpty, "\(same.divergences)")
        #expect(same.replayedEvents == 4, "three events and the timeout")
        let changed = try Replay(histories, through: try Self.kettle(cooled: .idle))
        #expect(changed.divergences.map(\.description) == ["machine k, entry 2: stored after 1m: heating → cold; now after 1m: heating → idle"])
    }

    @Test func anActionThatNowThrowsIsADivergenceOfADryRun() async throws {
        let histories = try await Self.histories()
        let working = try await Replay(histories, through: try Self.kettle(), runningActions: true)
        #expect(working.divergences.isEmpty, "\(working.divergences)")
        // Without running actions, the failing release resolves every entry alike.
        #expect(try Replay(histories, through: try Self.kettle(elementFails: true)).divergences.isEmpty)
        let failing = try await Replay(histories, through: try Self.kettle(elementFails: true), runningActions: true)
        #expect(failing.divergences.map(\.sequenceNumber) == [1, 2, 3], "both heats, and the timeout's cooling")
        #expect(failing.divergences.map(\.replayed).allSatisfy { $0.hasSuffix("the heating element is broken") })
        #expect(failing.divergences.first?.description
            == "machine k, entry 1: stored heat: idle → heating; now an action throws in a dry run: the heating element is broken")
    }

    enum Gate: MachineDefinition {
        enum State: String, Codable, Hashable, Sendable { case locked, alarming, open }
        enum Event: String, Codable, Hashable, Sendable { case pass, coin }
    }

    enum Enforcement: MatchingPredicate { case weak, strong }

    /// A gate whose passes depend on the enforcement; a later release opens on a strong pass.
    static func gate(strongPass: Gate.State = .alarming) throws -> Schema<Gate> {
        try Schema<Gate>(initial: .locked) {
            define(.locked) {
                matching(Enforcement.weak) | when(.pass) | then(.locked)
                matching(Enforcement.strong) | when(.pass) | then(strongPass)
                when(.coin) | then(.open)
            }
            define(.alarming) { when(.coin) | then(.locked) }
            define(.open) { when(.pass) | then(.locked) }
        }
    }

    /// A completed entry keeps no predicates: the replay finds a context that selects the row the
    /// history took, and reports an entry no context reproduces.
    @Test func anEntryWithoutItsPredicatesIsResolvedWithTheContextThatReproducesIt() async throws {
        let store = InMemoryStore()
        let gates = try Supervisor(schema: try Self.gate(), durability: Durability(store: store))
        try await gates.activate(id: "g")
        try await gates.send(to: "g", .pass, predicates: Enforcement.strong)
        try await gates.send(to: "g", .coin)
        try await gates.send(to: "g", .pass, predicates: Enforcement.weak)
        await gates.shutdown()
        let histories = try await StoredHistory.read(from: store)

        let same = try await Replay(histories, through: try Self.gate(), runningActions: true)
        #expect(same.divergences.isEmpty, "\(same.divergences)")
        #expect(same.replayedEvents == 3)
        let opening = try Replay(histories, through: try Self.gate(strongPass: .open))
        #expect(opening.divergences.map(\.sequenceNumber) == [1], "\(opening.divergences)")
        #expect(opening.divergences.first?.stored == "pass: locked → alarming")
    }
}

