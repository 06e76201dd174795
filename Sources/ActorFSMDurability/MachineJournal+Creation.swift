import ActorFSM

// A new machine's first entry, and the wait for it.

extension MachineJournal {
    /// Writes the entry a new machine starts from, numbered 0: its state, its data and its
    /// timers' deadlines. The store then holds the machine before its first event, so that a
    /// crash, a passivation or another process finds it with the data it was made with.
    package func created(in current: State, stateID: Int32, data: Definition.Data) {
        write(.completed, sequenceNumber: 0, outcome: .transitioned, origin: .send, event: nil, predicates: nil,
              state: current, stateID: stateID, data: data)
    }

    /// Waits, when senders wait for the disk, until the creation entry (the first write) is
    /// durable; firing and forgetting, until the writes in flight fit the window.
    ///
    /// - Returns: a `storeFailed` error if the entry could not be written.
    func awaitCreation() async -> DurabilityError? {
        // A creation that could not even be encoded was never handed to the store.
        var failure = state.withLock { $0.failure }
        if failure == nil {
            switch durability.acknowledgement.code {
            case .durable: failure = await waitForCommit(1)
            case .window(let window): failure = await waitForCommitRoom(window: window)
            }
        }
        return failure.map { DurabilityError(.storeFailed, machine: key, detail: "the new machine could not be written: \($0.message)") }
    }
}
