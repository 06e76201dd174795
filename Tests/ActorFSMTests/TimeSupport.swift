import ActorFSM
import ActorFSMTesting

enum Checkout: Hashable, Sendable { case pending, paid, cancelled, reminded, loading, showing, failed }
enum CheckoutEvent: Hashable, Sendable { case pay, ping, retry, poke, reopen, cancel, loaded, loadFailed }

/// The checkout of the timer tests: machines named by number.
enum CheckoutFlow: MachineDefinition {
    typealias State = Checkout
    typealias Event = CheckoutEvent
    typealias ID = Int
}
enum Mode: MatchingPredicate { case strict, lenient }

typealias CheckoutMachine = Machine<CheckoutFlow>

/// A machine on a manual clock, with its records already subscribed to.
struct TimedMachine {
    let clock = ManualClock()
    let machine: CheckoutMachine
    var records: Subscription<CheckoutMachine.Record>.Iterator

    init(_ schema: Schema<CheckoutFlow>, startingIn state: Checkout? = nil, standing: PredicateContext = .none) async {
        machine = Machine(schema: schema, id: 1, startingIn: state,
                          configuration: MachineConfiguration(standingPredicates: standing, clock: clock))
        records = await machine.records().makeAsyncIterator()
    }

    /// The next record published.
    mutating func next() async -> CheckoutMachine.Record? { await records.next() }

    /// Sends `.ping`, which every table here ignores, and returns the next record: if it is the
    /// ping's, nothing was published before it.
    mutating func nextIsPing() async throws -> Bool {
        _ = try await machine.send(.ping)
        return await records.next()?.event == .ping
    }
}
