import ActorFSM
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// An instrument that writes down every call, in order, and tells a stream of each acceptance.
final class RecordingInstrument: Instrument {
    private let log = Locked<[String]>([])
    let records = Locked<[TransitionRecord<NumberedTurnstile>]>([])
    let depths = Locked<[Int]>([])
    let (acceptances, accepted) = AsyncStream<Void>.makeStream()

    var lines: [String] { log.withLock { $0 } }

    private func note(_ line: String) { log.withLock { $0.append(line) } }

    func machineStarted<ID: Hashable & Sendable>(_ id: ID) { note("started \(id)") }
    func machineEnded<ID: Hashable & Sendable>(_ id: ID, termination: MachineTermination) {
        note("ended \(id) \(termination)")
    }
    func machineRestarted<ID: Hashable & Sendable>(_ id: ID, after error: any Error) { note("restarted \(id)") }
    func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) {
        note("accepted \(origin)")
        depths.withLock { $0.append(queueDepth) }
        accepted.yield()
    }
    func eventRefused<D>(_ error: MachineError<D>, origin: EventOrigin) {
        note("refused \(origin) \(error.kind)")
    }
    func timerEventDropped<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin) { note("dropped \(origin)") }
    func timerFired<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, lateness: Duration) {
        note("fired \(origin) \(lateness) late")
    }
    func eventProcessed<D>(_ record: TransitionRecord<D>) {
        note("processed \(record.eventDescription) \(record.outcome)")
        if let record = record as? TransitionRecord<NumberedTurnstile> { records.withLock { $0.append(record) } }
    }
    func actionFailed<D>(_ record: TransitionRecord<D>, error: any Error) {
        note("failed \(record.eventDescription)")
    }
}

/// A trace id carried in a task-local, as swift-distributed-tracing carries its context.
enum Trace {
    @TaskLocal static var id: String?
}

/// Carries `Trace.id` from a sender into the actions of its queued event.
final class TracingInstrument: Instrument {
    final class Captured: Sendable {
        let id: String
        init(_ id: String) { self.id = id }
    }

    /// Whether it carries the trace; without, it only tells of acceptances.
    let captures: Bool
    let acceptances: AsyncStream<Void>
    let accepted: AsyncStream<Void>.Continuation

    init(captures: Bool) {
        self.captures = captures
        (acceptances, accepted) = AsyncStream<Void>.makeStream()
    }

    func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) { accepted.yield() }

    func captureTrace() -> (any AnyObject & Sendable)? { captures ? Trace.id.map(Captured.init) : nil }

    func withTrace<T>(_ trace: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
        try Trace.$id.withValue((trace as? Captured)?.id, operation: body)
    }

    nonisolated(nonsending) func withTrace<T>(
        _ trace: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        try await Trace.$id.withValue((trace as? Captured)?.id) { try await body() }
    }
}

/// ``TracingInstrument`` written against the former names, which the new ones call.
final class FormerTracingInstrument: Instrument {
    let acceptances: AsyncStream<Void>
    let accepted: AsyncStream<Void>.Continuation

    init() {
        (acceptances, accepted) = AsyncStream<Void>.makeStream()
    }

    func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) { accepted.yield() }

    func captureContext() -> (any AnyObject & Sendable)? { Trace.id.map(TracingInstrument.Captured.init) }

    func withContext<T>(_ context: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
        try Trace.$id.withValue((context as? TracingInstrument.Captured)?.id, operation: body)
    }

    nonisolated(nonsending) func withContext<T>(
        _ context: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        try await Trace.$id.withValue((context as? TracingInstrument.Captured)?.id) { try await body() }
    }
}

@Suite(.timeLimit(.minutes(3))) struct InstrumentTests {
    static let schema = try! Schema<NumberedTurnstile>(initial: .locked, final: [.alarming]) {
        define(.locked) {
            when(.coin) | then(.unlocked)
            when(.reset) | then(.alarming) | { throw Boom() }
        }
        define(.unlocked) { when(.pass) | then(.locked) }
    }

    @Test func anInstrumentHearsTheLifeEventsRecordsAndFailuresOfAMachine() async throws {
        let instrument = RecordingInstrument()
        let machine = Machine(schema: Self.schema, id: 1, configuration: .init(instrument: instrument))
        var records = await machine.records().makeAsyncIterator()
        try await machine.send(.coin)
        try await machine.post(.pass)
        _ = await records.next()
        _ = await records.next()
        await #expect(throws: TurnstileError.self) { try await machine.send(.reset) }
        await machine.shutdown()
        #expect(throws: TurnstileError.self) { try machine.tryPost(.coin) }
        let lines = instrument.lines
        #expect(lines.first == "started 1")
        #expect(lines.dropFirst().prefix(2) == ["accepted send", "processed coin transitioned"])
        let firstDepth: Int? = instrument.depths.withLock { depths in depths.first }
        #expect(firstDepth == 0, "an idle machine runs a send at once")
        // A post's acceptance is told after its lock turn, so its processing may come first.
        #expect(Set(lines.dropFirst(3).prefix(2)) == ["accepted post", "processed pass transitioned"])
        #expect(lines.dropFirst(5) == [
            "accepted send", "failed reset", "processed reset failed: Boom()",
            "ended 1 shut down",
            "refused post stopped",
        ])
        let heard = instrument.records.withLock { $0 }
        #expect(heard.allSatisfy { $0.latency >= .zero && $0.completedAt >= $0.acceptedAt })
        #expect(heard.count == 3 && heard[1].latency > .zero, "a posted event's record is timed")
    }

    @Test func anInstrumentHearsRestartsAndUnknownMachines() async throws {
        let instrument = RecordingInstrument()
        let supervisor = Supervisor<NumberedTurnstile>(
            schema: Self.schema, configuration: .init(machine: .init(failurePolicy: .stop, instrument: instrument)))
        try supervisor.spawn(id: 3)
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 3, .reset) }
        #expect(throws: TurnstileError.self) { try supervisor.tryPost(to: 9, .coin) }
        await supervisor.shutdown()
        let lines = instrument.lines
        #expect(lines.filter { $0.hasPrefix("started") } == ["started 3", "started 3"])
        #expect(lines.contains("ended 3 failed: Boom()"))
        #expect(lines.contains("restarted 3"))
        #expect(lines.contains("refused post unknownMachine"))
    }

    @Test func aSendStoppedInTheQueueIsProcessedAsStoppedNotRefused() async throws {
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (_: TransitionContext<NumberedTurnstile>) async in await gate.wait() }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let instrument = RecordingInstrument()
        let machine = Machine(schema: schema, id: 1, configuration: .init(instrument: instrument))
        var acceptances = instrument.acceptances.makeAsyncIterator()
        let first = Task { try await machine.send(.coin) }
        _ = await acceptances.next()
        let queued = Task { try await machine.send(.pass) }
        _ = await acceptances.next()
        await machine.stop()
        await #expect(throws: TurnstileError.self) { try await queued.value }
        gate.open()
        _ = try? await first.value
        await machine.shutdown()
        let lines = instrument.lines
        #expect(lines.contains("processed pass stopped"))
        #expect(!lines.contains { $0.hasPrefix("refused") }, "an accepted event is not also refused")
    }

    @Test func anInstrumentHearsHowLateTimersFire() async throws {
        let schema = try Schema<CheckoutFlow>(initial: .pending) {
            define(.pending) {
                when(.pay) | then(.paid)
                after(.seconds(5)) | then(.cancelled)
            }
            define(.paid) { when(.retry) | then(.pending) }
            define(.cancelled) { when(.retry) | then(.pending) }
        }
        let instrument = RecordingInstrument()
        let clock = ManualClock()
        let machine = Machine(schema: schema, id: 1, configuration: .init(clock: clock, instrument: instrument))
        var records = await machine.records().makeAsyncIterator()
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(7))
        #expect(await records.next()?.origin == .timeout(after: .seconds(5)))
        #expect(instrument.lines.contains("fired timeout(after: 5.0 seconds) 2.0 seconds late"))
        try machine.schedule(.retry, after: .seconds(1))
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await records.next()?.origin == .scheduled)
        #expect(instrument.lines.contains("fired scheduled 0.0 seconds late"))
    }

    /// The trace each action saw: an inline send's, then a queued send's (synchronous action),
    /// then a queued post's (asynchronous action).
    private func tracesSeen(capturing: Bool, formerNames: Bool = false) async throws -> [String?] {
        let gate = Gate()
        let seen = Locked<[String?]>([])
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (_: TransitionContext<NumberedTurnstile>) async in
                    seen.withLock { $0.append(Trace.id) }
                    await gate.wait()
                }
            }
            define(.unlocked) {
                when(.pass) | then(.locked) | { seen.withLock { $0.append(Trace.id) } }
            }
        }
        let instrument: any Instrument
        var acceptances: AsyncStream<Void>.Iterator
        if formerNames {
            let former = FormerTracingInstrument()
            (instrument, acceptances) = (former, former.acceptances.makeAsyncIterator())
        } else {
            let tracing = TracingInstrument(captures: capturing)
            (instrument, acceptances) = (tracing, tracing.acceptances.makeAsyncIterator())
        }
        let machine = Machine(schema: schema, id: 0, configuration: .init(instrument: instrument))
        let first = Task { try await Trace.$id.withValue("inline") { try await machine.send(.coin) } }
        _ = await acceptances.next()
        let second = Task { try await Trace.$id.withValue("queued-sync") { try await machine.send(.pass) } }
        _ = await acceptances.next()
        try Trace.$id.withValue("queued-async") { try machine.tryPost(.coin) }
        _ = await acceptances.next()
        gate.open()
        _ = try await (first.value, second.value)
        await machine.shutdown()
        return seen.withLock { $0 }
    }

    @Test func aQueuedEventsActionsRunInTheContextItsSenderHad() async throws {
        #expect(try await tracesSeen(capturing: true) == ["inline", "queued-sync", "queued-async"])
        // Without an instrument to carry it, a queued event's actions run in the processing
        // task's context, which has no trace.
        #expect(try await tracesSeen(capturing: false) == ["inline", nil, nil])
    }

    @Test func anInstrumentWrittenAgainstTheFormerNamesStillCarriesTheTrace() async throws {
        #expect(try await tracesSeen(capturing: true, formerNames: true) == ["inline", "queued-sync", "queued-async"])
    }
}
