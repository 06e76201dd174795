import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Testing
import TestSupport

/// Operators' requests through a SQLite store: taken once, by the supervisor of the machine's
/// schema, carried out with its verbs, and answered.
@Suite(.timeLimit(.minutes(3))) struct OperatorRequestTests {
    /// Durability that takes no request by itself: the test serves them.
    static func unpolled<Definition: MachineDefinition>(_ store: SQLiteStore, clock: ManualClock) -> Durability<Definition> {
        var durability = Durability<Definition>(store: store, wallClock: clock)
        durability.operatorRequestInterval = nil
        return durability
    }

    /// `ask` submits and waits: the supervisor that polls the store answers it; a request for a
    /// schema no supervisor serves is withdrawn when the wait ends, and changes nothing.
    @Test func askingWaitsForTheAnswerOrWithdrawsTheRequest() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("asked.sqlite")
        let store = try SQLiteStore(path: path)
        var durability = doorDurability(store)
        durability.operatorRequestInterval = .milliseconds(20)
        let doors = try Supervisor(schema: try doorSchema(), durability: durability)
        try await doors.activate(id: "d1", data: Door.Data())
        let requests = try SQLiteRequests(path: path)
        let pause = OperatorRequest(machine: "d1", schema: "Door", verb: .pause, reason: "inspection", time: 1_000)
        #expect(try await requests.ask(pause, waitingAtMost: .seconds(30)) == .answered(succeeded: true, message: "done"))
        #expect(await doors.machine(id: "d1")?.isPaused == true)
        let unserved = OperatorRequest(machine: "d1", schema: "Window", verb: .resume, reason: "nobody serves it", time: 1_000)
        #expect(try await requests.ask(unserved, waitingAtMost: .milliseconds(100)) == .withdrawn(cancelled: false))
        #expect(await doors.machine(id: "d1")?.isPaused == true)
        requests.close()
        await doors.shutdown()
        store.close()
    }

    /// An act given as a request, by the application's own means, is carried out at once and
    /// answered as a request from the store is.
    @Test func aSupervisorCarriesOutARequestItIsHanded() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "d1", data: Door.Data())
        let signal = OperatorRequest(machine: "d1", schema: "", verb: .signal, reason: "stuck", time: 1_000,
                                     event: .named("open", payload: nil))
        #expect(await doors.carryOut(signal) == OperatorRequest.Answer(succeeded: true, message: "open: now open"))
        #expect(try await store.history(of: "d1").last?.operation?.reason == "stuck")
        let retry = OperatorRequest(machine: "d1", schema: "", verb: .retry, reason: "again", time: 1_000)
        let refused = await doors.carryOut(retry)
        #expect(!refused.succeeded && refused.message.contains("nothing to retry"))
        await doors.shutdown()
    }

    /// Every outcome but a done act has a problem an operator can read, and it says what to
    /// think of the act: refused, not done, or look at the history.
    @Test func eachOutcomeButADoneActNamesItsProblem() {
        let waited = Duration.seconds(30)
        #expect(OperatorRequestOutcome.answered(succeeded: true, message: "done").problem(waited: waited) == nil)
        let problems: [(OperatorRequestOutcome, String)] = [
            (.answered(succeeded: false, message: "final state"), "refused: final state"),
            (.gone, "gone from the store"),
            (.withdrawn(cancelled: true), "nothing changed"),
            (.withdrawn(cancelled: false), "within 30.0 seconds, so it was withdrawn and nothing changed"),
            (.abandoned, "stopped before it answered: the history says"),
            (.unanswered, "has not answered yet: the history will say"),
        ]
        for (outcome, expected) in problems {
            #expect(outcome.problem(waited: waited)?.contains(expected) == true, "\(outcome)")
        }
    }

    @Test func aRequestIsTakenOnceByTheSupervisorOfItsSchemaAndAnswered() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("shared.sqlite")
        let store = try SQLiteStore(path: path)
        let clock = ManualClock()
        let doors = try Supervisor(schema: try doorSchema(), durability: Self.unpolled(store, clock: clock))
        let jobs = try Supervisor(schema: try jobSchema(), durability: Self.unpolled(store, clock: clock) as Durability<Job>)
        try await doors.activate(id: "d1", data: Door.Data())
        let requests = try SQLiteRequests(path: path)
        let number = try await requests.submit(OperatorRequest(machine: "d1", schema: "Door", verb: .pause, reason: "inspection",
                                                               time: 1_000))
        #expect(try await requests.progress(ofRequest: number) == .waiting)
        #expect(await jobs.serveOperatorRequests() == 0, "another schema's supervisor leaves it")
        #expect(await doors.serveOperatorRequests() == 1)
        #expect(await doors.serveOperatorRequests() == 0, "taken once")
        #expect(try await requests.progress(ofRequest: number) == .answered(succeeded: true, message: "done"))
        #expect(await doors.machine(id: "d1")?.isPaused == true)
        #expect(try await store.history(of: "d1").last?.operation?.reason == "inspection")

        let unknown = try await requests.submit(OperatorRequest(machine: "d9", schema: "Door", verb: .resume, reason: "",
                                                                time: 1_000))
        #expect(await doors.serveOperatorRequests() == 1)
        guard case .answered(false, let message) = try await requests.progress(ofRequest: unknown) else {
            Issue.record("a request for an unknown machine was not refused")
            return
        }
        #expect(message.contains("d9"))
        #expect(try await requests.withdraw(request: unknown) == false, "an answered request is not withdrawn")
        requests.close()
        await doors.shutdown()
        await jobs.shutdown()
        store.close()
    }

    /// What a requester that stops waiting finds: a request nobody took is withdrawn (for a
    /// cancelled task too), one taken and not answered is reported so, an answer is read.
    @Test func aRequesterThatStopsWaitingWithdrawsWhatNobodyTook() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("doors.sqlite")
        let store = try SQLiteStore(path: path)
        let doors = try Supervisor(schema: try doorSchema(), durability: Self.unpolled(store, clock: ManualClock()) as Durability<Door>)
        try await doors.activate(id: "d1", data: Door.Data())
        let requests = try SQLiteRequests(path: path)
        func request() async throws -> Int64 {
            try await requests.submit(OperatorRequest(machine: "d1", schema: "Door", verb: .pause, reason: "", time: 1_000))
        }
        let untaken = try await request()
        #expect(try await requests.outcome(ofRequest: untaken, until: .now) == .withdrawn(cancelled: false))
        #expect(try await requests.progress(ofRequest: untaken) == .unknown)

        let abandoned = try await request()
        let cancelled = Task { try await requests.outcome(ofRequest: abandoned, until: .now + .seconds(3600)) }
        cancelled.cancel()
        #expect(try await cancelled.value == .withdrawn(cancelled: true))

        let taken = try await request()
        #expect(try await store.takeRequests(forSchema: "Door", limit: 10).map(\.number) == [taken])
        #expect(try await requests.outcome(ofRequest: taken, until: .now) == .unanswered)
        try await store.answer(request: taken, succeeded: true, message: "done")
        #expect(try await requests.outcome(ofRequest: taken, until: .now) == .answered(succeeded: true, message: "done"))
        requests.close()
        await doors.shutdown()
        store.close()
    }

    /// A supervisor takes requests by itself, on its machines' clock.
    @Test func aSupervisorTakesRequestsEveryIntervalOfItsClock() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("doors.sqlite")
        let store = try SQLiteStore(path: path)
        let clock = ManualClock()
        var durability = doorDurability(store, clock: clock)
        durability.operatorRequestInterval = .seconds(1)
        let doors = try Supervisor(schema: try doorSchema(), durability: durability,
                                   configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
        try await doors.activate(id: "d1", data: Door.Data())
        let requests = try SQLiteRequests(path: path)
        let number = try await requests.submit(OperatorRequest(machine: "d1", schema: "Door", verb: .cancel, reason: "gone",
                                                               time: 1_000))
        // The supervisor's loop sleeps; a second later it serves the request, then sleeps again.
        await clock.waitUntilSleeping(count: 1)
        #expect(try await requests.progress(ofRequest: number) == .waiting)
        clock.advance(by: .seconds(1))
        await clock.waitUntilSleeping(count: 1)
        #expect(try await requests.progress(ofRequest: number) == .answered(succeeded: true, message: "ended for good"))
        #expect(try await store.machine("d1")?.summary.status == .cancelled)
        requests.close()
        await doors.shutdown()
        store.close()
    }
}
