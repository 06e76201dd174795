/// Continuations waiting for a count to reach a figure, for tests that must know a point has
/// been reached (events queued, readers parked, sleepers waiting) without sleeping.
///
/// Not thread-safe: the owner's lock or actor serializes access. The owner resumes the
/// continuations it is handed, outside its lock.
@usableFromInline
package struct CountWatchers: Sendable {
    @usableFromInline var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    @inlinable package init() {}

    /// Whether nobody waits: the owner's hot path checks this before anything else.
    @inlinable package var isEmpty: Bool { waiting.isEmpty }

    /// Registers `continuation` to be resumed once the count reaches `count`, unless `current`
    /// already does.
    ///
    /// - Returns: `false` if `current` reaches `count`: the caller resumes at once.
    package mutating func wait(
        until count: Int, _ continuation: CheckedContinuation<Void, Never>, current: Int
    ) -> Bool {
        guard current < count else { return false }
        waiting.append((count, continuation))
        return true
    }

    /// Removes and returns the continuations whose count `current` reaches.
    @usableFromInline
    package mutating func reached(_ current: Int) -> [CheckedContinuation<Void, Never>] {
        var reached: [CheckedContinuation<Void, Never>] = []
        waiting.removeAll { watcher in
            guard current >= watcher.count else { return false }
            reached.append(watcher.continuation)
            return true
        }
        return reached
    }

    /// Removes and returns every continuation: the count will not grow any more.
    package mutating func removeAll() -> [CheckedContinuation<Void, Never>] {
        defer { waiting = [] }
        return waiting.map { $0.continuation }
    }
}
