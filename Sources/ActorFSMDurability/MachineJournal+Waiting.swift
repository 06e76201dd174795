import ActorFSM

// Waiting for a durable machine's writes: senders wait until their event's entry is committed,
// or for room when the acknowledgement lets a window of entries wait for the disk.

extension MachineJournal {
    package func waitForWrite(_ index: UInt64) async -> (any Error)? { await waitForCommit(index) }

    package func waitForRoom(window: Int) async -> (any Error)? { await waitForCommitRoom(window: window) }

    /// Waits until write number `index` is durable.
    ///
    /// - Returns: the store's error if it failed to write it (or an earlier write).
    func waitForCommit(_ index: UInt64) async -> StoreError? {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> StoreError?? in
                if let failure = state.failure { return .some(failure) }
                if state.committedWrites >= index { return .some(nil) }
                state.waiters.append((index, continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Waits until at most `window` writes wait for the store.
    func waitForCommitRoom(window: Int) async -> StoreError? {
        let index = state.withLock { state -> UInt64? in
            state.appendedWrites - state.committedWrites > UInt64(window) ? state.appendedWrites - UInt64(window) : nil
        }
        guard let index else { return nil }
        return await waitForCommit(index)
    }
}
