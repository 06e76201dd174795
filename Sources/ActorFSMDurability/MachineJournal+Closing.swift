import ActorFSM

// The end of a machine's journal: it writes nothing more, because its machine was replaced,
// stopped midway, or restarted from it.

extension MachineJournal {
    /// Writes nothing more, as a failed write would: the machine in memory is stale (another
    /// process held it meanwhile), and what it still processes must not count as recorded.
    package func discard() {
        let waiters = state.withLock { state in
            state.isSealed = true
            if state.failure == nil { state.failure = StoreError("machine \(key) was replaced by its copy in the store", isFenced: true) }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: state.withLock { $0.failure }) }
    }

    /// Whether the journal writes nothing more: a write failed (the machine's later state is
    /// not durable), or its successor took over.
    package var isClosed: Bool { state.withLock { $0.failure != nil || $0.isSealed } }

    package func stopWriting() { _ = seal() }

    /// Writes nothing more, and returns what the newest completed entry holds: a supervisor
    /// restarts the machine from it. The stopped machine may still record events it will not
    /// process; their entries would take numbers its successor goes on from.
    func seal() -> RestorePoint<Definition>? {
        state.withLock { state in
            state.isSealed = true
            return state.lastWritten
        }
    }
}
