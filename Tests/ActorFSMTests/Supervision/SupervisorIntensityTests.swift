import ActorFSM
import Testing
import TestSupport

/// Restart intensity counted per machine, the overall limit, and what an escalation says.
@Suite(.timeLimit(.minutes(3))) struct SupervisorIntensityTests {
    let schema: Schema<NumberedTurnstile>

    init() throws { schema = try failingResetSchema() }

    @Test func manyMachinesThatEachFailOnceDoNotEscalate() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema)
        for id in 0..<20 { try supervisor.spawn(id: id) }
        for id in 0..<20 { await #expect(throws: TurnstileError.self) { try await supervisor.send(to: id, .reset) } }
        #expect(!supervisor.isShutDown)
        #expect(try await supervisor.send(to: 0, .coin).target == .unlocked)
        await supervisor.shutdown()
    }

    @Test func oneMachineThatKeepsFailingEscalatesNamingItsLimitAndFailure() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema)
        try supervisor.spawn(id: 7)
        try supervisor.spawn(id: 8)
        for _ in 0..<4 { await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 7, .reset) } }
        await supervisor.shutdown()
        let escalation = try #require(supervisor.escalation)
        #expect(escalation.id == 7 && escalation.error is Boom)
        #expect(escalation.limit == .perMachine(RestartIntensity(maxRestarts: 3, within: .seconds(5))))
        #expect(escalation.description.contains("machine 7"))
        #expect(escalation.description.contains("at most 3 restarts within 5.0 seconds per machine"))
        #expect(escalation.description.contains("Boom"))
        // A later send says why the supervisor is shut down.
        let refused = await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 8, .coin) }
        #expect(refused?.underlying is Supervisor<NumberedTurnstile>.Escalation)
        #expect(refused?.description.contains("machine 7 failed once more than its restart intensity allows") == true)
    }

    @Test func anOverallIntensityCountsEveryMachinesRestarts() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(
            schema: schema, configuration: SupervisorConfiguration(overallIntensity: RestartIntensity(maxRestarts: 2, within: .seconds(60))))
        for id in 0..<3 { try supervisor.spawn(id: id) }
        for id in 0..<3 { await #expect(throws: TurnstileError.self) { try await supervisor.send(to: id, .reset) } }
        await supervisor.shutdown()
        #expect(supervisor.escalation?.id == 2)
        #expect(supervisor.escalation?.limit == .overall(RestartIntensity(maxRestarts: 2, within: .seconds(60))))
    }

    @Test func aMachineConfigurationThatChoosesNoPolicyKeepsTheSupervisorsStop() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(
            schema: schema, configuration: SupervisorConfiguration(machine: MachineConfiguration(inboxCapacity: 8)))
        let events = supervisor.reports()
        try supervisor.spawn(id: 1)
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 1, .reset) }
        var restarted = false
        for await event in events { if case .restarted = event { restarted = true; break } }
        #expect(restarted)
        #expect(supervisor.configuration.machine.failurePolicy == .resume, "the lone machine's default, as configured")

        let resuming = Supervisor<NumberedTurnstile>(
            schema: schema, configuration: SupervisorConfiguration(machine: MachineConfiguration(failurePolicy: .resume)))
        let original = try resuming.spawn(id: 1)
        await #expect(throws: TurnstileError.self) { try await resuming.send(to: 1, .reset) }
        #expect(resuming.machine(id: 1) === original)
        #expect(await !original.isStopped)
        await supervisor.shutdown()
        await resuming.shutdown()
    }
}
