/// A machine's data while a transition's actions read and change it.
///
/// Actions reach it through their ``TransitionContext``, which may be handed to child tasks, so
/// every access takes the lock (a `Locked`, which ThreadSanitizer follows when child tasks
/// contend); contention is rare, since a machine runs one transition at a time. The cell remembers whether it was written, so that the machine takes the new value
/// once the transition completes, or puts the old one back when an action fails.
@usableFromInline
final class DataCell<Value: Sendable>: Sendable {
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var isChanged = false
        /// How many times the transition's actions were tried again so far.
        @usableFromInline var retries = 0
        /// How many retried actions of the transition have started.
        @usableFromInline var retriedActions = 0

        @usableFromInline init(value: Value) { self.value = value }

        /// The value, marked changed by any change in place.
        @inlinable var changingValue: Value {
            get { value }
            _modify {
                isChanged = true
                yield &value
            }
        }
    }

    @usableFromInline let slot: Locked<Slot>

    @usableFromInline init(_ value: Value) { slot = Locked(Slot(value: value)) }

    /// The value as the actions have left it so far. A change in place (`value.count += 1`)
    /// takes the lock once.
    @inlinable var value: Value {
        get { slot.withLock { $0.value } }
        set { slot.withLock { $0.value = newValue; $0.isChanged = true } }
        _modify { yield &slot.locked.changingValue }
    }

    /// Changes the value in one turn of the lock; if `body` throws, the value stays as it was.
    @inlinable
    func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try slot.withLock { slot in
            var value = slot.value
            let result = try body(&value)
            slot.value = value
            slot.isChanged = true
            return result
        }
    }

    /// The value, if an action wrote it since the last call; then it counts as unchanged again.
    @inlinable
    func takeChange() -> Value? {
        slot.withLock { slot in
            guard slot.isChanged else { return nil }
            slot.isChanged = false
            return slot.value
        }
    }

    /// Puts `committed` back if an action wrote the value since the last take.
    @inlinable
    func restore(_ committed: Value) {
        slot.withLock { slot in
            guard slot.isChanged else { return }
            slot.value = committed
            slot.isChanged = false
        }
    }

    /// The value, and whether it counts as changed: what a retried action found.
    func snapshot() -> (value: Value, isChanged: Bool) {
        slot.withLock { ($0.value, $0.isChanged) }
    }

    /// Puts back `earlier`, what a retried action found, before its next attempt.
    func rewind(to earlier: (value: Value, isChanged: Bool)) {
        slot.withLock { slot in
            slot.value = earlier.value
            slot.isChanged = earlier.isChanged
        }
    }

    /// The index of a retried action about to start, among the transition's retried actions.
    func nextRetriedAction() -> Int {
        slot.withLock { slot in
            defer { slot.retriedActions += 1 }
            return slot.retriedActions
        }
    }

    /// Counts `retries` more attempts of the transition's actions.
    func countRetries(_ retries: Int) {
        slot.withLock { $0.retries += retries }
    }

    /// How many times the transition's actions were tried again; the counts start over for the
    /// next transition.
    func takeRetries() -> Int {
        slot.withLock { slot in
            defer { (slot.retries, slot.retriedActions) = (0, 0) }
            return slot.retries
        }
    }
}
