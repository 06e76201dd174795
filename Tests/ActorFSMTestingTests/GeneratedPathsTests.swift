import ActorFSM
import ActorFSMTesting
import ExampleSchemas
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct GeneratedPathsTests {
    typealias Turnstile = TurnstileExample

    @Test func theTurnstilesPathsFireEveryTransitionShortestFirst() async throws {
        let schema = try Turnstile.schema()
        let paths = GeneratedPaths(schema)
        #expect(paths.unreachable.isEmpty)
        #expect(paths.paths.map(\.steps.count) == paths.paths.map(\.steps.count).sorted())
        // No path is the start of another: each ends with a transition of its own.
        for path in paths.paths {
            #expect(!paths.paths.contains { $0.index != path.index && $0.transitions.count > path.steps.count
                && zip($0.steps, path.steps).allSatisfy { $0.transition.description == $1.transition.description } })
        }
        let checked = Mutex(0)
        let coverage = try await paths.run { path, clock in
            Machine(schema: schema, id: "\(path.index)", configuration: MachineConfiguration(clock: clock))
        } checking: { machine, record in
            checked.withLock { $0 += 1 }
            #expect(record.outcome.isTransitioned)
            #expect(await machine.state == record.target)
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
        #expect(coverage.covered.count == schema.transitions.count)
        #expect(checked.withLock { $0 } == coverage.stepsRun)
        #expect(coverage.pathsRun == paths.paths.count)
    }

    @Test func aRowNothingReachesIsADeadRow() async throws {
        let schema = try Schema<Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.open) }
            define(.open) { when(.close) | then(.closed) }
            // Nothing leads to `.locked`.
            define(.locked) { when(.unlock) | then(.closed) }
        }
        let paths = GeneratedPaths(schema)
        #expect(paths.unreachable.map(\.description) == ["locked --unlock--> closed (\(paths.unreachable.first!.transition.location)): no sequence of events reaches its state"])
        let coverage = try await paths.run { path, clock in Machine(schema: schema, id: path.index) }
        #expect(coverage.covered.count == 2)
        #expect(coverage.deadRows.map { $0.transition.event as? Door.Event } == [.unlock])
    }

    @Test func predicatesTimeoutsAndSuperStatesAreGenerated() async throws {
        let schema = try Schema<Door>(initial: .closed) {
            let alarmed = SuperState<Door> { when(.alarm) | then(.locked) }
            define(.closed, adopts: alarmed) {
                matching(Force.gentle) | when(.open) | then(.open)
                matching(Force.brutal) | when(.open) | then(.locked)
            }
            define(.open, adopts: alarmed) {
                when(.close) | then(.closed)
                after(.seconds(30)) | then(.closed)
            }
            define(.locked) {
                after(.seconds(5)) | then(.locked) | {}
                after(.seconds(60)) | then(.closed)
            }
        }
        let paths = GeneratedPaths(schema)
        #expect(paths.unreachable.isEmpty)
        // A step names the context it sends, and none for an event or timeout that needs none.
        let steps = Set(paths.paths.flatMap(\.steps).map(\.description))
        #expect(steps.contains("closed --open [Force.brutal]--> locked"), "\(steps)")
        #expect(steps.contains("open --close--> closed"), "\(steps)")
        let coverage = try await paths.run { path, clock in
            Machine(schema: schema, id: path.index, configuration: MachineConfiguration(clock: clock))
        }
        // The 60-second timeout of `.locked` is reached: its 5-second one fires first and stays.
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
        #expect(coverage.covered.count == schema.transitions.count)
    }

    @Test func aConditionThatDecidesOtherwiseIsNamed() async throws {
        let schema = try Schema<Counter>(initial: .idle) {
            define(.idle) {
                when(.tick) {
                    firstOf {
                        condition { (count: Int) in count < 3 } | then(.idle) | update { $0 += 1 }
                        otherwise() | then(.full)
                    }
                }
            }
            define(.full) { when(.reset) | then(.idle) }
        }
        let paths = GeneratedPaths(schema)
        #expect(paths.paths.flatMap(\.steps).contains { !$0.decidingRows.isEmpty })
        // A count of 0: the first alternative holds, so the other and what follows it never fire.
        let coverage = try await paths.run { path, _ in Machine(schema: schema, id: path.index, data: 0) }
        #expect(coverage.covered.count == 1)
        let reasons = coverage.uncovered.map(\.reason.description)
        #expect(reasons.count == 2)
        #expect(reasons.allSatisfy { $0.hasPrefix("a condition decided otherwise at idle --tick if condition, alternative 1--> idle") }, "\(reasons)")
        // A count of 3: the otherwise row fires, and what follows it.
        let full = try await paths.run { path, _ in Machine(schema: schema, id: path.index, data: 3) }
        #expect(full.covered.count == 2)
    }

    @Test func aPayloadEventNeedsASample() async throws {
        let schema = try Schema<Vending>(initial: .waiting) {
            define(.waiting) { when(.coin) | then(.paid) }
            define(.paid) { when(.choose) | then(.waiting) }
        }
        let without = GeneratedPaths(schema, samples: [.choose])
        #expect(without.unreachable.map(\.reason.description) == ["its event is matched by case: give a sample of it", "no sequence of events reaches its state"])
        let with = GeneratedPaths(schema, samples: [.coin(cents: 50), .choose])
        #expect(with.unreachable.isEmpty)
        let coverage = try await with.run { path, _ in Machine(schema: schema, id: path.index) }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
    }

    @Test func aStepAStateTaskTakesFirstCounts() async throws {
        let schema = try Schema<Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.open) }
            define(.open, running: StateTask { .close }) { when(.close) | then(.closed) }
        }
        let coverage = try await GeneratedPaths(schema).run { path, _ in Machine(schema: schema, id: path.index) }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
    }

    /// Under `executeAlways`, a transition back into a state arms its timeouts again: a longer
    /// timeout behind a shorter one that stays is never due, and the run says so instead of waiting.
    @Test func aShorterTimeoutThatReentersTheStateIsNamed() async throws {
        let schema = try Schema<Door>(initial: .closed, entryExitPolicy: .executeAlways) {
            define(.closed) { when(.alarm) | then(.locked) }
            define(.locked) {
                after(.seconds(5)) | then(.locked) | {}
                after(.seconds(60)) | then(.closed)
            }
        }
        let coverage = try await GeneratedPaths(schema).run { path, clock in
            Machine(schema: schema, id: path.index, configuration: MachineConfiguration(clock: clock))
        }
        #expect(coverage.covered.count == 2, "\(coverage)")
        #expect(coverage.uncovered.map(\.transition.target) == [.closed])
        #expect(coverage.uncovered.first?.reason.description.contains("armed the state's timeouts again") == true, "\(coverage)")
    }

    @Test func aRowThatPostponesIsNamedAndNotRun() async throws {
        let schema = try Schema<Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.open) ; when(.close) | postpone() }
            define(.open) { when(.close) | then(.closed) }
        }
        let paths = GeneratedPaths(schema)
        #expect(paths.unreachable.map(\.reason.description) == ["it postpones its event, which no record shows"])
        let coverage = try await paths.run { path, _ in Machine(schema: schema, id: path.index) }
        #expect(coverage.covered.count == 2 && coverage.deadRows.isEmpty, "\(coverage)")
    }

    /// The initial state's task moves the machine before the run subscribes to its records: the
    /// first step, the only way there, counts as taken.
    @Test func aMachineThatMovesBeforeTheRunBeginsCountsItsFirstStep() async throws {
        let schema = try Schema<Door>(initial: .closed) {
            define(.closed, running: StateTask { .open }) { when(.open) | then(.open) }
            define(.open) { when(.close) | then(.locked) }
            define(.locked) { when(.unlock) | then(.closed) }
        }
        let coverage = try await GeneratedPaths(schema).run { path, _ in
            let machine = Machine(schema: schema, id: path.index)
            var states = await machine.stateChanges().makeAsyncIterator()
            while let state = await states.next(), state != .open {}
            return machine
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
    }

    @Test func anInvariantThatThrowsNamesThePathAndStep() async throws {
        struct Broken: Error {}
        let schema = try Turnstile.schema()
        do {
            _ = try await GeneratedPaths(schema).run { path, _ in Machine(schema: schema, id: "\(path.index)") } checking: { _, record in
                if record.target == .alarming { throw Broken() }
            }
            Issue.record("the invariant threw, and the run went on")
        } catch let failure as PathFailure {
            #expect(failure.error is Broken)
            #expect(failure.description.contains("--> alarming"), "\(failure)")
            #expect(failure.step >= 1)
        }
    }
}

enum Door: MachineDefinition {
    enum State: Hashable, Sendable { case closed, open, locked }
    enum Event: Hashable, Sendable { case open, close, alarm, unlock }
    typealias ID = Int
}

enum Force: MatchingPredicate { case gentle, brutal }

enum Counter: MachineDefinition {
    enum State: Hashable, Sendable { case idle, full }
    enum Event: Hashable, Sendable { case tick, reset }
    typealias ID = Int
    typealias Data = Int
}

enum Vending: MachineDefinition {
    enum State: Hashable, Sendable { case waiting, paid }
    enum Event: CaseKeyed, Hashable {
        case coin(cents: Int), choose
        enum CaseKey: Hashable, Sendable { case coin, choose }
        var caseKey: CaseKey {
            switch self {
            case .coin: .coin
            case .choose: .choose
            }
        }
    }
    typealias ID = Int
}
