@testable import ActorFSM
import Testing
import TestSupport

/// The drains that library code starts (a posted event, a child's end, a timer) go through a
/// starter made where the machine's types are concrete, once per definition.
@Suite struct DrainStarterTests {
    /// A definition no other test makes a machine of, so that its starter is made here.
    enum Lamp: MachineDefinition {
        enum State: Hashable, Sendable { case off, on }
        enum Event: Hashable, Sendable { case toggle }
        typealias ID = Int
    }

    @Test func aSupervisorMakesTheStarterThatItsMachinesDrainsStartWith() async throws {
        let schema = try Schema<Lamp>(initial: .off) {
            define(.off) { when(.toggle) | then(.on) }
            define(.on) { when(.toggle) | then(.off) }
        }
        let lamps = Supervisor(schema: schema)
        #expect(DrainStarters.starter(for: Lamp.self) != nil)
        let lamp = try lamps.spawn(id: 1)
        var states = await lamp.stateChanges().makeAsyncIterator()
        #expect(await states.next() == .off)
        // A post to an idle machine starts a drain: through the starter, it processes the event.
        try lamp.tryPost(.toggle)
        #expect(await states.next() == .on)
        await lamps.shutdown()
    }
}
