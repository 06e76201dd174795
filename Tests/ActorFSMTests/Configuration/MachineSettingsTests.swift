@testable import ActorFSM
import ActorFSMTesting
import Testing
import TestSupport

/// Machines made without a supervisor share their settings when their configuration is the
/// default one, as a supervisor's machines do.
@Suite struct MachineSettingsTests {
    static let schema = try! Schema<Turnstile>(initial: .locked) {
        define(.locked) { when(.coin) | then(.unlocked) }
        define(.unlocked) { when(.pass) | then(.locked) }
    }

    @Test func machinesWithTheDefaultConfigurationShareOneSettings() {
        let first = Machine(schema: Self.schema, id: "a")
        let second = Machine(schema: Self.schema, id: "b", configuration: MachineConfiguration())
        #expect(first.settings === second.settings)
        #expect(first.settings === Self.schema.storage.defaultSettings)
    }

    @Test func aMachineConfiguredOtherwiseHasItsOwn() async throws {
        let configurations: [MachineConfiguration<Turnstile.State>] = [
            MachineConfiguration(inboxCapacity: 8), MachineConfiguration(failurePolicy: .stop),
            MachineConfiguration(standingPredicates: PredicateContext(Enforcement.weak)),
            MachineConfiguration(postponedCapacity: 3), MachineConfiguration(clock: ManualClock()),
        ]
        for configuration in configurations {
            let machine = Machine(schema: Self.schema, id: "c", configuration: configuration)
            #expect(machine.settings !== Self.schema.storage.defaultSettings)
            #expect(machine.configuration.inboxCapacity == configuration.inboxCapacity)
        }
        // What the configuration says still holds for a machine that shares the default.
        let shared = Machine(schema: Self.schema, id: "d")
        #expect(shared.configuration.inboxCapacity == 1_024)
        #expect(try await shared.send(.coin).target == .unlocked)
    }
}
