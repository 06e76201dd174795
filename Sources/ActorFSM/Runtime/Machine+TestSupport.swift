// Hooks for tests that must know a machine has reached a point, without sleeping.

/// What tests wait for on a machine, and the counts they wait on. It lives in the machine's
/// ``MachineExtras``, made when a test first waits or a count first moves.
@usableFromInline
struct MachineWatchers {
    /// Tests waiting for the machine to stop taking events.
    @usableFromInline var refusal: [CheckedContinuation<Void, Never>] = []
    /// How many timeouts and task results were dropped as stale, and the tests waiting for a count.
    @usableFromInline var droppedTimerEvents = 0
    @usableFromInline var dropped = CountWatchers()
    /// How many callers have waited for the machine's end, and the tests waiting for a count.
    @usableFromInline var endWaiters = 0
    @usableFromInline var endWaiting = CountWatchers()

    @usableFromInline init() {}
}

extension Machine {
    /// Returns once at least `count` unbounded subscribers wait for a record (for tests); at
    /// once if the machine has no unbounded subscriber.
    package func untilSubscribersWait(_ count: Int) async {
        guard let broadcast = publishing.records.log?.broadcast else { return }
        await broadcast.untilParked(count)
    }

    /// Returns once at least `count` events wait in the inbox, for tests that need senders to
    /// have piled up.
    package func untilQueued(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !mailbox.withLock({ $0.inbox.watchQueue(until: count, continuation) }) { continuation.resume() }
        }
    }

    /// Returns once at least `count` senders wait for room in a full inbox.
    package func untilWaitingForRoom(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !mailbox.withLock({ $0.inbox.watchWaiters(until: count, continuation) }) { continuation.resume() }
        }
    }

    /// Returns once at least `count` timer events that fell due while the machine is paused
    /// wait for its resume.
    package func untilHeldWhilePaused(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let extras = makeExtras()
            if !extras.heldWatchers.wait(until: count, continuation, current: extras.heldTimerEvents.count) {
                continuation.resume()
            }
        }
    }

    /// Returns once at least `count` postponed events wait for a change of state.
    package func untilPostponed(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !makeExtras().postponedWatchers.wait(until: count, continuation, current: postponedCount) {
                continuation.resume()
            }
        }
    }

    /// Returns once the machine has stopped taking events (it is paused, shutting down or
    /// stopped).
    package func untilRefusingEvents() async {
        guard core.isAcceptingEvents else { return }
        await withCheckedContinuation { makeExtras().watchers.refusal.append($0) }
    }

    /// Returns once at least `count` callers have waited for the machine's end (a shutdown,
    /// `run()`, a sweep or a send waiting for its successor).
    package func untilEndAwaited(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let extras = makeExtras()
            if !extras.watchers.endWaiting.wait(until: count, continuation, current: extras.watchers.endWaiters) {
                continuation.resume()
            }
        }
    }

    /// How many subscriptions to ``records(buffering:)`` are live.
    package var transitionSubscriberCount: Int { publishing.records.count }
}
