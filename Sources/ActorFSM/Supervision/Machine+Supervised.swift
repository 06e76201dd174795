// A machine as its supervisor's core sees it.

extension Machine: SupervisedMachine {
    /// Whether a write to its store failed, so that its state in memory is ahead of the store.
    @usableFromInline package nonisolated var hasStaleState: Bool { journal?.isClosed == true }
}
