import ActorFSM
import ActorFSMServiceLifecycle
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

@Suite struct ServiceTests {
    @Test func aGracefulShutdownOfTheGroupShutsTheSupervisorDownAfterItsQueuedEvents() async throws {
        let gates = Supervisor(schema: try gateSchema())
        try gates.spawn(id: "g1")
        try await gates.send(to: "g1", .coin)
        try await testGracefulShutdown { trigger in
            let running = Task { try await SupervisorService(gates).run() }
            trigger.triggerGracefulShutdown()
            try await running.value
        }
        #expect(gates.isShutDown)
        await #expect(throws: MachineError<Gate>.self) { try await gates.send(to: "g1", .pass) }
    }

    @Test func aServiceGroupRunsASupervisorAndAMachineUntilItShutsDown() async throws {
        let gates = Supervisor(schema: try gateSchema())
        let alone = Machine(schema: try gateSchema(), id: "alone")
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: SupervisorService(gates)), .init(service: MachineService(alone))],
            logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await alone.send(.coin)
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(gates.isShutDown)
        #expect(await alone.state == .unlocked)
        await #expect(throws: MachineError<Gate>.self) { try await alone.send(.pass) }
    }

    @Test func cancellingTheServiceStopsTheSupervisorAtOnce() async throws {
        let gates = Supervisor(schema: try gateSchema())
        let running = Task { try await SupervisorService(gates).run() }
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(gates.isShutDown)
    }
}
