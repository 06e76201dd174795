import ActorFSM
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct MachineErrorTests {
    func failing() throws -> Schema<NumberedTurnstile> {
        try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { throw Boom() }
                when(.pass) | then(.locked)
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
    }

    @Test func aFailedActionCarriesItsRecordAndError() async throws {
        let machine = Machine(schema: try failing(), id: 42)
        try await machine.send(.pass)
        do {
            try await machine.send(.coin)
            Issue.record("expected a failure")
        } catch {
            #expect(error.kind == .actionFailed)
            #expect(error.machineID == 42)
            let record = try #require(error.record)
            #expect(record.sequenceNumber == 2)
            #expect(record.event == .coin)
            #expect(record.source == .locked)
            #expect(record.target == .locked)
            #expect(record.outcomeName == "failed")
            #expect(error.underlying is Boom)
            #expect("\(error)".hasPrefix("an action of machine 42 failed: Boom()"))
            #expect("\(error)".contains("#2 42: locked --coin--> locked"))
        }
    }

    @Test func aRefusalNamesTheMachineAndHasNoRecord() async throws {
        let machine = Machine(schema: try failing(), id: 5)
        await machine.stop()
        do {
            try await machine.send(.pass)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.kind == .stopped)
            #expect(error.machineID == 5)
            #expect(error.record == nil)
            #expect(error.underlying == nil)
            #expect("\(error)" == "machine 5 is stopped or shutting down and accepts no more events")
        }
    }

    @Test func aSupervisorNamesTheIdItWasAskedFor() async throws {
        let supervisor = Supervisor(schema: try failing())
        try supervisor.spawn(id: 1)
        #expect(throws: TurnstileError.self) { try supervisor.spawn(id: 1) }
        do {
            try supervisor.spawn(id: 1)
        } catch {
            #expect(error.kind == .duplicateMachine)
            #expect(error.machineID == 1)
        }
        do {
            try await supervisor.send(to: 9, .coin)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.kind == .unknownMachine)
            #expect(error.machineID == 9)
            #expect("\(error)" == "the supervisor has no machine with id 9")
        }
        await supervisor.shutdown()
        do {
            try await supervisor.send(to: 1, .coin)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.kind == .stopped)
            #expect("\(error)" == "the supervisor is shut down and takes no more events (machine 1)")
        }
    }

    @Test func aRefusedFollowUpNamesTheMachineInTheAction() async throws {
        let seen = Later<TurnstileError>()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { context in
                    do { for _ in 0..<3 { try context.tryPost(.pass) } } catch let error as TurnstileError { seen.set(error) } catch {}
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 3, configuration: .init(inboxCapacity: 2))
        try await machine.send(.coin)
        let error = try #require(seen.get)
        #expect(error.kind == .inboxFull)
        #expect(error.machineID == 3)
        #expect(error.record == nil)
    }
}
