/// The floor under a child machine's round trip, in bare Swift concurrency: per round, the
/// parent actor makes a new child actor, a task computes the child's event (its state task),
/// the child takes it, tells the parent, and the parent resumes its caller. No table, no inbox,
/// no supervisor: what making an actor, starting a task and three hops between them cost.
actor FloorParent {
    private var waiter: CheckedContinuation<Void, Never>?
    private(set) var rounds = 0

    /// One round: returns once a new child has run its task and told this parent.
    func roundTrip() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiter = continuation
            FloorChild(parent: self).start { 1 }
        }
    }

    func childFinished(with value: Int) {
        rounds += value
        waiter?.resume()
        waiter = nil
    }
}

/// A child that a task of its own moves once, then reports to its parent.
actor FloorChild {
    private let parent: FloorParent
    private var state = 0

    init(parent: FloorParent) { self.parent = parent }

    /// Starts the child's task, which computes an event with `work` and hands it to the child.
    nonisolated func start(_ work: @escaping @Sendable () async -> Int) {
        Task { await self.take(await work()) }
    }

    private func take(_ event: Int) async {
        state = event
        await parent.childFinished(with: state)
    }
}

/// Runs `rounds` round trips of the bare floor; returns the elapsed time and the rounds counted.
func childFloorRounds(_ rounds: Int, clock: ContinuousClock) async -> (Duration, Int) {
    let parent = FloorParent()
    let start = clock.now
    for _ in 0..<rounds { await parent.roundTrip() }
    return (clock.now - start, await parent.rounds)
}
