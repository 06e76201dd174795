import Synchronization

/// Tells a durable supervisor of the first completed entry its store accepts once it has armed
/// the watch: the sign that a store that refused writes (a full disk) takes them again, so that
/// the counts of restores in a row start over and the machines it parked are restored. An
/// intent accepted is no such sign: a restore writes one before the write that failed. Every
/// journal of the supervisor reads the flag after each completed entry written; the supervisor
/// arms it when it restores a machine after a failed write or parks one, and it disarms itself
/// when it fires.
final class StoreWriteWatch: Sendable {
    private let isArmed = Atomic<Bool>(false)
    private let action = Mutex<(@Sendable () -> Void)?>(nil)

    /// Calls `action` once, after the next completed entry written.
    func arm(_ action: @escaping @Sendable () -> Void) {
        self.action.withLock { $0 = action }
        isArmed.store(true, ordering: .releasing)
    }

    /// Called by a journal after it wrote a completed entry.
    func wrote() {
        guard isArmed.load(ordering: .relaxed),
              isArmed.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing).exchanged
        else { return }
        action.withLock { action in defer { action = nil }; return action }?()
    }
}
