import ActorFSM
import Synchronization

/// A gate that actions wait at until the test opens it: the test decides when a suspended
/// action resumes, with no sleep.
package final class Gate: Sendable {
    package init() {}

    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let arrivals = Locked<(count: Int, watchers: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

    package func wait() async {
        arrived()
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }

    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `count` tasks have reached the gate.
    package func untilArrivals(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = arrivals.withLock { arrivals in
                if arrivals.count >= count { return true }
                arrivals.watchers.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    private func arrived() {
        let ready = arrivals.withLock { arrivals in
            arrivals.count += 1
            let count = arrivals.count
            let ready = arrivals.watchers.filter { $0.0 <= count }.map(\.1)
            arrivals.watchers.removeAll { $0.0 <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}

/// A value set once after creation, readable from any task (for actions that need their machine).
package final class Later<Value: Sendable>: Sendable {
    package init() {}

    private let value = Locked<Value?>(nil)
    package func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    package var get: Value? { value.withLock { $0 } }
}

package struct Boom: Error, Equatable { package init() {} }

/// Collects the first `count` elements of a stream.
package func first<S: AsyncSequence>(_ count: Int, of stream: S) async throws -> [S.Element] {
    var collected: [S.Element] = []
    for try await element in stream {
        collected.append(element)
        if collected.count == count { break }
    }
    return collected
}

extension TransitionRecord {
    package var outcomeName: String {
        switch outcome {
        case .transitioned: "transitioned"
        case .unhandled: "unhandled"
        case .conditionFalse: "conditionFalse"
        case .failed: "failed"
        case .stopped: "stopped"
        }
    }
}

/// A settable instant for supervisor intensity tests: time moves only when the test says so.
package final class ManualInstant: Sendable {
    package init() {}

    private let instant = Locked(ContinuousClock.now)
    package var now: ContinuousClock.Instant { instant.withLock { $0 } }
    package func advance(by duration: Duration) { instant.withLock { $0 += duration } }
}

/// A counting semaphore for tasks: at most `count` hold a permit at once, and the others wait,
/// suspended, in arrival order.
package final class Permits: Sendable {
    private let state: Locked<(free: Int, waiters: [CheckedContinuation<Void, Never>])>

    package init(_ count: Int) {
        state = Locked((count, []))
    }

    /// Returns once the caller holds a permit.
    package func acquire() async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a permit back: to the longest waiting task, if any.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
