import ActorFSM
import ActorFSMTesting
import Testing
import TestSupport

/// A checkout whose payment counts its attempts in the transition's actions and its entries in
/// the target state's entry actions.
enum Settlement: MachineDefinition {
    enum State: Hashable, Sendable { case placed, paid }
    enum Event: Hashable, Sendable { case pay }
    typealias ID = Int
    struct Data: Sendable, Equatable { var attempts = 0; var entries = 0 }
}

/// The forms of a transition whose data must arrive with its state.
enum TransitionForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case synchronous, asynchronousAction, asynchronousEntry, retried, alternatives

    var testDescription: String { rawValue }

    /// Whether an action of the form waits at the gate.
    var isGated: Bool { self != .synchronous }

    /// The data once the transition completed.
    var expected: Settlement.Data { Settlement.Data(attempts: 1, entries: 1) }

    /// A schema whose `pay` moves `placed` to `paid` in this form; its asynchronous action or
    /// entry action waits at `gate` after writing the data.
    func schema(gate: Gate, clock: ManualClock) throws -> Schema<Settlement> {
        typealias Context = TransitionContext<Settlement>
        let entry: Actions<Settlement> = self == .asynchronousEntry
            ? Actions { (context: Context) async in context.data.entries += 1; await gate.wait() }
            : Actions { (context: Context) in context.data.entries += 1 }
        let paying: @Sendable (Context) async throws -> Void = { context in
            context.data.attempts += 1
            await gate.wait()
            if self == .retried && context.attempt == 1 { throw Boom() }
        }
        switch self {
        case .synchronous, .asynchronousEntry:
            return try Schema<Settlement>(initial: .placed, final: []) {
                define(.placed) { when(.pay) | then(.paid) | { (context: Context) in context.data.attempts += 1 } }
                define(.paid, onEntry: entry) { when(.pay) | then() }
            }
        case .asynchronousAction:
            return try Schema<Settlement>(initial: .placed, final: []) {
                define(.placed) { when(.pay) | then(.paid) | paying }
                define(.paid, onEntry: entry) { when(.pay) | then() }
            }
        case .retried:
            return try Schema<Settlement>(initial: .placed, final: []) {
                define(.placed) { when(.pay) | then(.paid) | retry(.fixed(.seconds(1), attempts: 2), paying) }
                define(.paid, onEntry: entry) { when(.pay) | then() }
            }
        case .alternatives:
            return try Schema<Settlement>(initial: .placed, final: []) {
                define(.placed) {
                    when(.pay) {
                        firstOf {
                            condition { (data: Settlement.Data) in data.attempts > 0 } | then(.placed)
                            condition { (_: Settlement.Data) in true } | then(.paid) | paying
                        }
                    }
                }
                define(.paid, onEntry: entry) { when(.pay) | then() }
            }
        }
    }
}

// Every read in these tests waits on the machine's own streams; none sleeps.
@Suite(.timeLimit(.minutes(3))) struct TransitionCommitTests {
    /// While the transition runs, outside readers see the source state with the old data; once
    /// it completes, every way of seeing the target state comes with the transition's data.
    @Test(arguments: TransitionForm.allCases)
    func theTargetStateIsSeenOnlyWithItsTransitionsData(form: TransitionForm) async throws {
        let gate = Gate()
        let clock = ManualClock()
        let schema = try form.schema(gate: gate, clock: clock)
        let machine = Machine(schema: schema, id: 1, data: Settlement.Data(),
                              configuration: MachineConfiguration(clock: clock))
        var states = await machine.stateChanges().makeAsyncIterator()
        var data = await machine.dataChanges().makeAsyncIterator()
        var records = await machine.records(includingData: true).makeAsyncIterator()
        #expect(await states.next() == .placed)
        #expect(await data.next() == Settlement.Data())

        let sending = Task { try await machine.send(.pay) }
        if form.isGated {
            await gate.untilArrivals(1)
            #expect(await machine.state == .placed)
            #expect(await machine.data == Settlement.Data())
            if form == .retried {
                // The first attempt throws once past the gate; the retry waits for the clock.
                gate.open()
                await clock.waitUntilSleeping(count: 1)
                #expect(await machine.state == .placed)
                #expect(await machine.data == Settlement.Data())
                clock.advance(by: .seconds(1))
            } else {
                gate.open()
            }
        }

        // Whoever sees the target first, then reads the data, reads the transition's data.
        #expect(await states.next() == .paid)
        #expect(await machine.data == form.expected)
        #expect(await data.next() == form.expected)
        #expect(await machine.state == .paid)
        let record = try #require(await records.next())
        #expect(record.target == .paid && record.data == form.expected)
        let reply = try await sending.value
        #expect(reply.target == .paid && reply.attempts == (form == .retried ? 2 : 1))
    }

    /// A supervisor's report of the transition comes after its state and data are committed.
    @Test func aSupervisorsReportComesWithTheTransitionsData() async throws {
        let gate = Gate()
        let schema = try TransitionForm.asynchronousEntry.schema(gate: gate, clock: ManualClock())
        let supervisor = Supervisor(schema: schema)
        var reports = supervisor.reports().makeAsyncIterator()
        let machine = try supervisor.spawn(id: 1, data: Settlement.Data())
        let sending = Task { try await supervisor.send(to: 1, .pay) }
        await gate.untilArrivals(1)
        #expect(await machine.state == .placed)
        #expect(await machine.data == Settlement.Data())
        gate.open()
        while let report = await reports.next() {
            guard let record = report.record else { continue }
            #expect(record.target == .paid)
            #expect(await machine.state == .paid)
            #expect(await machine.data == TransitionForm.asynchronousEntry.expected)
            break
        }
        _ = try await sending.value
        await supervisor.shutdown()
    }

    /// An entry action that fails puts the data back: whoever sees the state then reads the
    /// data from before the transition, never the failed action's writes.
    @Test func aFailedEntryActionsStateComesWithTheDataFromBefore() async throws {
        let gate = Gate()
        let schema = try Schema<Settlement>(initial: .placed, final: []) {
            define(.placed) { when(.pay) | then(.paid) | { (context: TransitionContext<Settlement>) in context.data.attempts += 1 } }
            define(.paid, onEntry: Actions { (context: TransitionContext<Settlement>) async throws in
                context.data.entries += 1
                await gate.wait()
                throw Boom()
            }) { when(.pay) | then() }
        }
        let machine = Machine(schema: schema, id: 1, data: Settlement.Data())
        var states = await machine.stateChanges().makeAsyncIterator()
        #expect(await states.next() == .placed)
        let sending = Task { try await machine.send(.pay) }
        await gate.untilArrivals(1)
        #expect(await machine.state == .placed)
        #expect(await machine.data == Settlement.Data())
        gate.open()
        #expect(await states.next() == .paid)
        #expect(await machine.data == Settlement.Data())
        await #expect(throws: MachineError<Settlement>.self) { try await sending.value }
    }
}

extension TransitionCommitTests {
    /// The parent's transition on its child's end is seen with the data its action wrote.
    @Test func aTransitionOnAChildsEndIsSeenWithItsData() async throws {
        let gate = Gate()
        let payments = Supervisor(schema: try ChildMachineTests.paymentSchema())
        let schema = try Schema<ParentOrder>(initial: .placed, final: [.paid, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: ChildMachineTests.paying(in: payments)) {
                when(.paid) | then(.paid) | { (context: TransitionContext<ParentOrder>) async in
                    if case .paid(let captures) = context.event { context.data.captured = captures }
                    await gate.wait()
                }
                when(.declined) | then(.failed)
                when(.paymentFailed) | then(.failed)
            }
        }
        let order = Machine(schema: schema, id: 7, data: ParentOrder.Data(amount: 40))
        var states = await order.stateChanges().makeAsyncIterator()
        #expect(await states.next() == .placed)
        try await order.send(.pay)
        #expect(await states.next() == .paying)
        await gate.untilArrivals(1)
        #expect(await order.state == .paying)
        #expect(await order.data.captured == 0)
        gate.open()
        #expect(await states.next() == .paid)
        #expect(await order.data.captured == 1)
    }
}
