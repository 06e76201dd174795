import ActorFSM
import Testing
import TestSupport

/// A job that chains its steps with events posted to be processed next.
enum Job: MachineDefinition {
    enum State: Hashable, Sendable { case idle, held, started, checked, done }
    enum Event: Hashable, Sendable { case hold, start, check, finish, poke }
    typealias ID = Int
}

@Suite(.timeLimit(.minutes(3))) struct NextEventTests {
    func schema(gate: Gate) throws -> Schema<Job> {
        try Schema<Job>(initial: .idle) {
            define(.idle) {
                when(.hold) | then(.held) | { await gate.wait() }
                when(.start) | then(.started)
                when(.poke) | then()
            }
            define(.held) {
                when(.start) | then(.started)
                when(.poke) | then()
            }
            define(.started, onEntry: Actions { context in
                try context.postNext(.check)
                try context.postNext(.finish)
            }) {
                when(.check) | then(.checked)
                when(.poke) | then()
            }
            define(.checked) {
                when(.finish) | then(.done)
                when(.poke) | then()
            }
            define(.done) { when(.poke) | then() }
        }
    }

    /// The events of the first `count` records, in order.
    func events(_ count: Int, of machine: Machine<Job>, after start: () async throws -> Void) async throws -> [String] {
        let records = await machine.records()
        try await start()
        return try await first(count, of: records).map { "\($0.eventDescription)/\($0.origin)" }
    }

    @Test func eventsPostedNextRunBeforeEventsQueuedBehindAnInlineSend() async throws {
        let gate = Gate()
        let machine = Machine(schema: try schema(gate: gate), id: 1)
        let seen = try await events(5, of: machine) {
            let holding = Task { try await machine.send(.hold) }
            await gate.untilArrivals(1)
            try machine.tryPost(.start)
            try machine.tryPost(.poke)
            await machine.untilQueued(2)
            gate.open()
            _ = try await holding.value
        }
        #expect(seen == ["hold/send", "start/post", "check/next", "finish/next", "poke/post"])
        #expect(await machine.state == .done)
    }

    @Test func eventsPostedNextGoAheadOfTheRestOfTheDrainsBatch() async throws {
        let gate = Gate()
        let machine = Machine(schema: try schema(gate: gate), id: 2, configuration: .init(inboxCapacity: 64))
        let seen = try await events(6, of: machine) {
            let holding = Task { try await machine.send(.hold) }
            await gate.untilArrivals(1)
            try machine.tryPost(.poke)
            try machine.tryPost(.start)
            try machine.tryPost(.poke)
            await machine.untilQueued(3)
            gate.open()
            _ = try await holding.value
        }
        #expect(seen == ["hold/send", "poke/post", "start/post", "check/next", "finish/next", "poke/post"])
    }

    @Test func aSendOnAnIdleMachineRunsTheChainBeforeEventsPostedDuringIt() async throws {
        let entered = Gate()
        let schema = try Schema<Job>(initial: .idle) {
            define(.idle) { when(.start) | then(.started) }
            define(.started, onEntry: Actions { (context: TransitionContext<Job>) async throws in
                try context.postNext(.check)
                try context.postNext(.finish)
                await entered.wait()
            }) {
                when(.check) | then(.checked)
            }
            define(.checked) { when(.finish) | then(.done) }
            define(.done) { when(.poke) | then() }
        }
        let machine = Machine(schema: schema, id: 3)
        let records = await machine.records()
        let starting = Task { try await machine.send(.start) }
        await entered.untilArrivals(1)      // the inline send's entry action is suspended
        try machine.tryPost(.poke)
        await machine.untilQueued(1)
        entered.open()
        #expect(try await starting.value.target == .started)
        let seen = try await first(4, of: records).map(\.eventDescription)
        #expect(seen == ["start", "check", "finish", "poke"])
        #expect(await machine.state == .done)
    }
}
