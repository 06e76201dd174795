import ActorFSM
import ActorFSMTesting
import Testing
import TestSupport

/// A till whose machine keeps a running total and the order in which it took coins.
enum Till: MachineDefinition {
    enum State: Hashable, Sendable { case open, closed }
    enum Event: Hashable, Sendable { case coin, refund, close }
    typealias ID = Int
    struct Data: Sendable, Equatable {
        var total = 0
        var takings: [Int] = []
    }
}

// Three minutes: these tests make thousands of hops between tasks, and under the thread
// sanitizer each hop waits behind the load tests' queued jobs on the same two threads.
@Suite(.timeLimit(.minutes(6))) struct MachineDataTests {
    @Test func actionsChangeTheDataAndTheMachineKeepsIt() async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { context in context.data.total += 5 }
                when(.close) | then(.closed) | { context in context.updateData { $0.takings.append($0.total) } }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data(total: 10))
        #expect(await till.data == Till.Data(total: 10))
        try await till.send(.coin)
        try await till.send(.coin)
        #expect(await till.data.total == 20)
        try await till.send(.close)
        #expect(await till.data == Till.Data(total: 20, takings: [20]))
        #expect(till.initialData == Till.Data(total: 10))
    }

    @Test(arguments: [true, false])
    func aFailedActionPutsTheDataBack(throwing: Bool) async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { context in context.data.total += 1 }
                when(.refund) | then() | { context in
                    context.data.total = 0
                    if throwing { throw Boom() }
                }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        try await till.send(.coin)
        if throwing {
            await #expect(throws: MachineError<Till>.self) { try await till.send(.refund) }
            #expect(await till.data.total == 1)
        } else {
            try await till.send(.refund)
            #expect(await till.data.total == 0)
        }
        try await till.send(.coin)
        #expect(await till.data.total == (throwing ? 2 : 1))
    }

    @Test func anEntryActionThatFailsPutsBackTheWholeTransitionsData() async throws {
        let schema = try Schema<Till>(initial: .open, final: []) {
            define(.open) { when(.close) | then(.closed) | { context in context.data.total = 99 } }
            define(.closed, onEntry: Actions { context in context.data.takings = [1]; throw Boom() }) {
                when(.coin) | then(.closed)
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        await #expect(throws: MachineError<Till>.self) { try await till.send(.close) }
        #expect(await till.state == .closed)
        #expect(await till.data == Till.Data())
    }

    @Test func suspendingActionsUnderConcurrentSendersLoseNoUpdate() async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { (context: TransitionContext<Till>) async in
                    let seen = context.data
                    await Task.yield()
                    context.data = Till.Data(total: seen.total + 1, takings: seen.takings + [seen.total])
                }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 { group.addTask { _ = try? await till.send(.coin) } }
        }
        let data = await till.data
        #expect(data.total == 1_000)
        #expect(data.takings == Array(0..<1_000))
    }

    @Test func theMachinesDataIsTheCommittedValueWhileAnActionIsSuspended() async throws {
        let gate = Gate()
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { (context: TransitionContext<Till>) async in
                    context.data.total = 7
                    await gate.wait()
                }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        let sending = Task { try await till.send(.coin) }
        await gate.untilArrivals(1)
        #expect(await till.data.total == 0)
        gate.open()
        _ = try await sending.value
        #expect(await till.data.total == 7)
    }

    @Test func childTasksOfAnActionUpdateTheDataAtomically() async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { (context: TransitionContext<Till>) async in
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<100 { group.addTask { context.updateData { $0.total += 1 } } }
                    }
                }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        try await till.send(.coin)
        #expect(await till.data.total == 100)
    }

    @Test func aSupervisorRestartStartsAgainFromTheSpawnedData() async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { context in context.data.total += 1 }
                when(.refund) | then() | { throw Boom() }
            }
        }
        let supervisor = Supervisor(schema: schema)
        let reports = supervisor.reports()
        let original = try supervisor.spawn(id: 4, data: Till.Data(total: 100))
        try await supervisor.send(to: 4, .coin)
        #expect(await original.data.total == 101)
        await #expect(throws: MachineError<Till>.self) { try await supervisor.send(to: 4, .refund) }
        let seen = try await first(3, of: reports)
        guard case .restarted(4, _) = seen[2] else {
            Issue.record("expected a restart, got \(seen[2])")
            return
        }
        let replacement = try #require(supervisor.machine(id: 4))
        #expect(replacement !== original)
        #expect(await replacement.data.total == 100)
        await supervisor.shutdown()
    }

    @Test func aTaskThatOutlivesItsActionWritesNothingLater() async throws {
        let gate = Gate()
        let late = Later<Task<Void, Never>>()
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.refund) | then() | { context in
                    late.set(Task { await gate.wait(); context.data.total = -1 })
                }
                when(.coin) | then() | { context in context.data.total += 1 }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        try await till.send(.refund)
        gate.open()
        let task = try #require(late.get)
        await task.value
        try await till.send(.coin)
        #expect(await till.data.total == 1)
    }

    @Test func conditionsReadTheDataTheLastTransitionLeft() async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                let count: Actions<Till> = Actions { (context: TransitionContext<Till>) in context.data.total += 1 }
                condition { (till: Till.Data) in till.total < 2 } | when(.coin) | then() | count
                condition({ (till: Till.Data) in till.total >= 2 }) {
                    when(.close) | then(.closed)
                }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        #expect(try await till.send(.close).outcomeName == "conditionFalse")
        let early = schema.resolve(.close, in: .open, data: Till.Data())
        #expect(early.isConditionFalse)
        try await till.send(.coin)
        try await till.send(.coin)
        #expect(try await till.send(.coin).outcomeName == "conditionFalse")
        #expect(await till.data.total == 2)
        #expect(schema.resolve(.close, in: .open, data: Till.Data(total: 2)).target == .closed)
        #expect(try await till.send(.close).target == .closed)
    }

    @Test func updateStepsChangeTheDataInOrderAndRollBackWithTheTransition() async throws {
        let record = Actions<Till> { context in context.data.takings.append(context.data.total) }
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | update { $0.total += 2 } & record
                when(.refund) | then() | update { $0.total = 0 } & { throw Boom() }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        try await till.send(.coin)
        await #expect(throws: MachineError<Till>.self) { try await till.send(.refund) }
        #expect(await till.data == Till.Data(total: 2, takings: [2]))
    }

    @Test func anUpdateReadsTheEventAndATimeoutCannotRunIt() async throws {
        enum Meter: MachineDefinition {
            enum State: Hashable, Sendable { case running }
            enum Event: CaseKeyed {
                case add(Int)
                enum CaseKey: Hashable, Sendable { case add }
                var caseKey: CaseKey { .add }
            }
            typealias ID = Int
            typealias Data = Int
        }
        let schema = try Schema<Meter>(initial: .running) {
            define(.running) {
                when(.add) | then() | update { (sum: inout Int, event: Meter.Event) in
                    if case .add(let amount) = event { sum += amount }
                }
            }
        }
        let meter = Machine(schema: schema, id: 1, data: 10)
        try await meter.send(.add(5))
        try await meter.send(.add(7))
        #expect(await meter.data == 22)
        #expect(throws: SchemaError.self) {
            try Schema<Meter>(initial: .running) {
                define(.running) {
                    after(.seconds(1)) | then() | update { (sum: inout Int, _: Meter.Event) in sum += 1 }
                }
            }
        }
    }

    @Test func aSubjectIsTheSameObjectInEveryActionAndAFailureDoesNotUndoIt() async throws {
        actor Ledger {
            var entries: [String] = []
            func note(_ entry: String) { entries.append(entry) }
        }
        enum Served: MachineDefinition {
            enum State: Hashable, Sendable { case open }
            enum Event: Hashable, Sendable { case sale, voidSale }
            typealias ID = Int
            typealias Data = Ledger
        }
        let ledger = Ledger()
        let schema = try Schema<Served>(initial: .open) {
            define(.open) {
                when(.sale) | then() | { (context: TransitionContext<Served>) async in await context.data.note("sale") }
                when(.voidSale) | then() | { (context: TransitionContext<Served>) async throws in
                    await context.data.note("void")
                    throw Boom()
                }
            }
        }
        let till = Machine(schema: schema, id: 1, data: ledger)
        try await till.send(.sale)
        await #expect(throws: MachineError<Served>.self) { try await till.send(.voidSale) }
        #expect(await till.data === ledger)
        #expect(await ledger.entries == ["sale", "void"])
    }

    @Test func recordsCarryTheDataOnlyWhenASubscriberAsks() async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | update { $0.total += 1 }
                when(.refund) | then()
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        #expect(try await till.send(.coin).data == nil)
        let records = await till.records(includingData: true)
        #expect(try await till.send(.coin).data?.total == 2)
        try await till.send(.refund)
        let seen = try await first(2, of: records).map { $0.data?.total }
        #expect(seen == [2, 2])
    }

    @Test func dataChangesYieldTheDataThenEachChange() async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | update { $0.total += 5 }
                when(.refund) | then()
                when(.close) | then(.closed)
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data(total: 1))
        let changes = await till.dataChanges()
        try await till.send(.coin)
        try await till.send(.refund)     // no change: nothing published
        try await till.send(.coin)
        try await till.send(.close)
        await till.shutdown()
        var totals: [Int] = []
        for await data in changes { totals.append(data.total) }
        #expect(totals == [1, 6, 11])
    }

    @Test func stopCancellingAnAsyncActionPutsTheDataBack() async throws {
        let gate = Gate()
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { context in context.data.total += 1 }
                when(.refund) | then() | { (context: TransitionContext<Till>) async throws in
                    context.data.total = -100
                    await gate.wait()
                    try Task.checkCancellation()
                }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data())
        try await till.send(.coin)
        let refunding = Task { try await till.send(.refund) }
        await gate.untilArrivals(1)
        await till.stop()
        gate.open()
        await #expect(throws: MachineError<Till>.self) { try await refunding.value }
        #expect(await till.data.total == 1)
    }

    @Test(arguments: [FailurePolicy<Till.State>.stop, .enter(.closed)])
    func everyFailurePolicyPutsTheDataBack(policy: FailurePolicy<Till.State>) async throws {
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                when(.coin) | then() | { context in context.data.total += 1 }
                when(.refund) | then() | { context in context.data.total = 0; throw Boom() }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data(), configuration: .init(failurePolicy: policy))
        try await till.send(.coin)
        await #expect(throws: MachineError<Till>.self) { try await till.send(.refund) }
        #expect(await till.data.total == 1)
    }

    @Test func aTimeoutsActionsChangeTheDataToo() async throws {
        let clock = ManualClock()
        let schema = try Schema<Till>(initial: .open, final: [.closed]) {
            define(.open) {
                after(.seconds(30)) | then(.closed) | update { $0.takings.append(-1) }
                when(.coin) | then() | update { $0.total += 1 }
            }
        }
        let till = Machine(schema: schema, id: 1, data: Till.Data(), configuration: .init(clock: clock))
        let records = await till.records(includingData: true)
        try await till.send(.coin)
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(30))
        let seen = try await first(2, of: records)
        #expect(seen[1].origin == .timeout(after: .seconds(30)))
        #expect(seen[1].data == Till.Data(total: 1, takings: [-1]))
        #expect(await till.data == Till.Data(total: 1, takings: [-1]))
    }
}
