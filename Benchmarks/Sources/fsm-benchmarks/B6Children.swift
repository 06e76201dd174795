import ActorFSM

/// A child that finishes by itself: its first state's task moves it to its final state.
enum B6Child: MachineDefinition {
    enum State: Hashable, Sendable { case working, finished }
    enum Event: Hashable, Sendable { case finish }
    typealias ID = Int
}

/// A parent that runs one child per round: `start` enters `waiting`, whose child's end is `done`.
enum B6Parent: MachineDefinition {
    enum State: Hashable, Sendable { case idle, waiting }
    enum Event: Hashable, Sendable { case start, done }
    typealias ID = Int
    typealias Data = Int
}

/// The parent's schema: each `start` enters `waiting`, whose child (named by the round) ends it.
func b6ParentSchema(_ children: Supervisor<B6Child>) throws -> Schema<B6Parent> {
    try Schema<B6Parent>(initial: .idle) {
        define(.idle) { when(.start) | then(.waiting) | update { $0 += 1 } }
        define(.waiting, running: .child(in: children, id: { $0.data }, data: { _ in () },
                                         done: { _, _ in .done }, failed: { _ in nil })) {
            when(.done) | then(.idle)
        }
    }
}

/// A parent and one child, round trip by round trip (start the child, it finishes, the parent
/// moves on), beside two plain sends, the target's yardstick, and the floor of the same hops in
/// bare Swift concurrency.
func benchmarkB6Children(_ settings: Settings) async throws -> [Measurement] {
    let clock = ContinuousClock()
    let rounds = settings.quick ? 2_000 : 20_000
    let childSchema = try Schema<B6Child>(initial: .working, final: [.finished]) {
        define(.working, running: StateTask { .finish }) { when(.finish) | then(.finished) }
    }
    return try await measureInTurn([
        Variant(name: "B6 parent and child, round trip") {
            let children = Supervisor(schema: childSchema)
            let parent = Machine(schema: try b6ParentSchema(children), id: 0, data: 0)
            var states = await parent.stateChanges().makeAsyncIterator()
            _ = await states.next()
            let start = clock.now
            for _ in 0..<rounds {
                try await parent.send(.start)
                while let state = await states.next(), state != .idle {}
            }
            let elapsed = clock.now - start
            return (elapsed, await parent.data)
        },
        Variant(name: "B6 parent and child, child sent its end") {
            let children = Supervisor(schema: try Schema<B6Child>(initial: .working, final: [.finished]) {
                define(.working) { when(.finish) | then(.finished) }
            })
            let parent = Machine(schema: try b6ParentSchema(children), id: 0, data: 0)
            var states = await parent.stateChanges().makeAsyncIterator()
            _ = await states.next()
            let start = clock.now
            for round in 1...rounds {
                try await parent.send(.start)
                try await children.machine(id: round)?.send(.finish)
                while let state = await states.next(), state != .idle {}
            }
            let elapsed = clock.now - start
            return (elapsed, await parent.data)
        },
        Variant(name: "B6 two posts, each awaited on the state stream") {
            let schema = try Schema<B6Parent>(initial: .idle) {
                define(.idle) { when(.start) | then(.waiting) | update { $0 += 1 } }
                define(.waiting) { when(.done) | then(.idle) }
            }
            let machine = Machine(schema: schema, id: 0, data: 0)
            var states = await machine.stateChanges().makeAsyncIterator()
            _ = await states.next()
            let start = clock.now
            for _ in 0..<rounds {
                try machine.tryPost(.start)
                _ = await states.next()
                try machine.tryPost(.done)
                _ = await states.next()
            }
            return (clock.now - start, await machine.data)
        },
        Variant(name: "B6 child floor: a new actor and a task per round, bare Swift") {
            await childFloorRounds(rounds, clock: clock)
        },
        Variant(name: "B6 two sends") {
            let schema = try Schema<B6Parent>(initial: .idle) {
                define(.idle) { when(.start) | then(.waiting) | update { $0 += 1 } }
                define(.waiting) { when(.done) | then(.idle) }
            }
            let machine = Machine(schema: schema, id: 0, data: 0)
            let start = clock.now
            for _ in 0..<rounds {
                try await machine.send(.start)
                try await machine.send(.done)
            }
            return (clock.now - start, await machine.data)
        },
    ], unit: "µs/round", repetitions: settings.repetitions, units: Double(rounds) * 1_000)
}
