import Synchronization

/// A caller waiting for a machine to end, which the machine's end or the caller's cancellation
/// resumes, whichever comes first; the other finds nothing left to resume.
@usableFromInline
package final class EndWaiter: Sendable {
    private enum Phase {
        case waiting
        case parked(CheckedContinuation<Void, Never>)
        case resumed
    }

    private let phase = Mutex(Phase.waiting)

    package init() {}

    /// Waits until ``resume()`` is called, at once if it was called already: whoever will resume
    /// the waiter may be handed it before the wait.
    package func wait() async {
        await withCheckedContinuation { continuation in
            let resumed = phase.withLock { phase -> Bool in
                guard case .waiting = phase else { return true }
                phase = .parked(continuation)
                return false
            }
            if resumed { continuation.resume() }
        }
    }

    /// Lets the caller go on: the first call does, later ones do nothing.
    @usableFromInline
    package func resume() {
        let parked = phase.withLock { phase -> CheckedContinuation<Void, Never>? in
            defer { phase = .resumed }
            if case .parked(let continuation) = phase { return continuation }
            return nil
        }
        parked?.resume()
    }
}
