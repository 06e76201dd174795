import ActorFSM
import ActorFSMTesting

package enum Checkout: Hashable, Sendable { case pending, paid, cancelled, reminded, loading, showing, failed }
package enum CheckoutEvent: Hashable, Sendable { case pay, ping, retry, poke, reopen, cancel, loaded, loadFailed }

/// The checkout of the timer tests: machines named by number.
package enum CheckoutFlow: MachineDefinition {
    package typealias State = Checkout
    package typealias Event = CheckoutEvent
    package typealias ID = Int
}
package enum Mode: MatchingPredicate { case strict, lenient }

package typealias CheckoutMachine = Machine<CheckoutFlow>

/// A machine on a manual clock, with its records already subscribed to.
package struct TimedMachine {
    package let clock = ManualClock()
    package let machine: CheckoutMachine
    package var records: Subscription<CheckoutMachine.Record>.Iterator

    package init(_ schema: Schema<CheckoutFlow>, startingIn state: Checkout? = nil, standing: PredicateContext = .none) async {
        machine = Machine(schema: schema, id: 1, startingIn: state,
                          configuration: MachineConfiguration(standingPredicates: standing, clock: clock))
        records = await machine.records().makeAsyncIterator()
    }

    /// The next record published.
    package mutating func next() async -> CheckoutMachine.Record? { await records.next() }

    /// Sends `.ping`, which every table here ignores, and returns the next record: if it is the
    /// ping's, nothing was published before it.
    package mutating func nextIsPing() async throws -> Bool {
        _ = try await machine.send(.ping)
        return await records.next()?.event == .ping
    }
}
