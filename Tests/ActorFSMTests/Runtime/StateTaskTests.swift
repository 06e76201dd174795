import ActorFSM
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct StateTaskTests {
    /// `pending --reopen--> loading`, which runs `task` and `second`; `loading` goes to `showing`
    /// on `.loaded`, to `failed` on `.loadFailed` and to `cancelled` on `.cancel`.
    static func loading(
        onEntry: Actions<CheckoutFlow> = Actions(), _ task: StateTask<CheckoutFlow>,
        _ second: StateTask<CheckoutFlow> = silent
    ) throws -> Schema<CheckoutFlow> {
        try Schema<CheckoutFlow>(initial: .pending, final: [.failed, .showing]) {
            define(.pending) {
                when(.reopen) | then(.loading)
                when(.ping) | then()
            }
            define(.loading, onEntry: onEntry, running: task, second) {
                when(.loaded) | then(.showing)
                when(.loadFailed) | then(.failed)
                when(.cancel) | then(.cancelled)
                when(.ping) | then()
            }
            define(.cancelled) { when(.ping) | then() }
        }
    }

    /// A task that ends at once and posts nothing: its error maps to no event.
    static let silent: StateTask<CheckoutFlow> = StateTask {
        try await Task.sleep(for: .zero)
        throw Boom()
    } onError: { _ in
        nil
    }

    @Test func aTaskStartsAfterTheEntryActionsAndItsResultComesBackAsAnEvent() async throws {
        let log = Log()
        let schema = try Self.loading(onEntry: [log.action("entry")], StateTask { context in
            log.record("task in \(context.state) of machine \(context.id)")
            return .loaded
        } onError: { _ in .loadFailed })
        #expect(schema.taskCount(of: .loading) == 2 && schema.taskCount(of: .pending) == 0)
        var timed = await TimedMachine(schema)
        try await timed.machine.send(.reopen)
        #expect(await timed.next()?.target == .loading)
        let record = try #require(await timed.next())
        #expect(record.event == .loaded && record.origin == .stateTask && record.target == .showing)
        #expect(log.lines == ["entry", "task in loading of machine 1"])
    }

    @Test func anErrorOfTheTaskComesBackAsTheEventItMapsTo() async throws {
        let schema = try Self.loading(StateTask({ () async throws -> CheckoutEvent in throw Boom() }, onError: { error in
            error is Boom ? .loadFailed : nil
        }))
        var timed = await TimedMachine(schema)
        try await timed.machine.send(.reopen)
        _ = await timed.next()
        let record = try #require(await timed.next())
        #expect(record.event == .loadFailed && record.origin == .stateTask && record.target == .failed)
    }

    @Test func leavingTheStateCancelsTheTaskAndIgnoresItsLateResult() async throws {
        let clock = ManualClock()
        let cancelled = Gate()
        cancelled.open()
        // A cooperative operation that notices the cancellation but still returns a result.
        let schema = try Self.loading(StateTask {
            do { try await clock.sleep(for: .seconds(3_600)) } catch { await cancelled.wait() }
            return .loaded
        })
        let instrument = RecordingInstrument()
        let machine = Machine(schema: schema, id: 1, configuration: MachineConfiguration(clock: clock, instrument: instrument))
        var records = await machine.records().makeAsyncIterator()
        try await machine.send(.reopen)
        await clock.waitUntilSleeping(count: 1)
        try await machine.send(.cancel)
        #expect(clock.sleeperCount == 0, "the cancellation reached the operation's wait at once")
        await cancelled.untilArrivals(1)
        await machine.untilDroppedTimerEvents(1)
        #expect(instrument.lines.contains("dropped stateTask"), "the instrument hears of the drop")
        _ = try await machine.send(.ping)
        let seen = [await records.next(), await records.next(), await records.next()].map { $0?.event }
        #expect(seen == [.reopen, .cancel, .ping], "the late .loaded was never processed")
        #expect(await machine.state == .cancelled)
    }

    @Test func theCancellationErrorOfALeftStateIsNotReported() async throws {
        let clock = ManualClock()
        let log = Log()
        let schema = try Self.loading(
            StateTask({ try await clock.sleep(for: .seconds(3_600)); return .loaded }, onError: { error in
                log.record("onError \(error)")
                return .loadFailed
            }),
            // A second task whose late result marks the moment both have been cancelled.
            StateTask { _ = try? await clock.sleep(for: .seconds(3_600)); return .loaded })
        let machine = Machine(schema: schema, id: 1, configuration: MachineConfiguration(clock: clock))
        try await machine.send(.reopen)
        await clock.waitUntilSleeping(count: 2)
        try await machine.send(.cancel)
        await machine.untilDroppedTimerEvents(1)
        _ = try await machine.send(.ping)
        #expect(log.lines.isEmpty)
    }

    @Test func theInitialStatesTasksRunToo() async throws {
        let schema = try Self.loading(StateTask { .loaded })
        let clock = ManualClock()
        let machine = Machine(schema: schema, id: 1, startingIn: .loading, configuration: MachineConfiguration(clock: clock))
        var records = await machine.records().makeAsyncIterator()
        let record = try #require(await records.next())
        #expect(record.event == .loaded && record.origin == .stateTask && record.source == .loading)
    }

    @Test func aStoppedMachineCancelsItsTasks() async throws {
        let clock = ManualClock()
        let schema = try Self.loading(StateTask { _ = try? await clock.sleep(for: .seconds(3_600)); return .loaded })
        let machine = Machine(schema: schema, id: 1, configuration: MachineConfiguration(clock: clock))
        try await machine.send(.reopen)
        await clock.waitUntilSleeping(count: 1)
        await machine.stop()
        #expect(clock.sleeperCount == 0)
        await machine.untilDroppedTimerEvents(1)
        #expect(await machine.state == .loading)
    }

    @Test func aTaskReadsTheDataAsTheTransitionIntoItsStateLeftIt() async throws {
        let schema = try Schema<Charging>(initial: .placed, final: [.charged, .failed]) {
            define(.placed, running: StateTask { context in context.data.calls >= 2 ? .submit : .cancel }) {
                when(.submit) | then(.charged)
                when(.cancel) | then(.failed)
            }
        }
        let counted = Machine(schema: schema, id: 1, data: Charging.Data(calls: 2))
        let fresh = Machine(schema: schema, id: 2, data: Charging.Data())
        let states = (await counted.stateChanges(), await fresh.stateChanges())
        #expect(try await first(2, of: states.0) == [.placed, .charged])
        #expect(try await first(2, of: states.1) == [.placed, .failed])
    }
}
