// Hooks for tests that must know a machine has reached a point, without sleeping.

extension Machine {
    /// Returns once at least `count` unbounded subscribers wait for a record (for tests); at
    /// once if the machine has no unbounded subscriber.
    package func untilSubscribersWait(_ count: Int) async {
        guard let broadcast = subscribers.log?.broadcast else { return }
        await broadcast.untilParked(count)
    }

    /// Returns once at least `count` events wait in the inbox, for tests that need senders to
    /// have piled up.
    package func untilQueued(_ count: Int) async {
        await until(count, of: \.queue.count, watchers: \.queueWatchers)
    }

    /// Returns once at least `count` senders wait for room in a full inbox.
    package func untilWaitingForRoom(_ count: Int) async {
        await until(count, of: \.waiters.count, watchers: \.waiterWatchers)
    }

    /// Returns once the inbox's figure at `measure` reaches `count`; the inbox resumes the
    /// watcher it registers here when the figure grows.
    private func until(
        _ count: Int, of measure: KeyPath<Inbox<State, Event, ID>, Int>,
        watchers: WritableKeyPath<Inbox<State, Event, ID>, CountWatchers>
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = inbox.withLock { inbox in
                inbox[keyPath: watchers].wait(until: count, continuation, current: inbox[keyPath: measure])
            }
            if !waits { continuation.resume() }
        }
    }

    /// Returns once the machine has stopped taking events (it is finishing or stopped).
    package func untilRefusingEvents() async {
        guard lifecycle.isRunning else { return }
        await withCheckedContinuation { watchers.refusal.append($0) }
    }

    /// How many subscriptions to ``transitions(buffering:)`` are live.
    package var transitionSubscriberCount: Int { subscribers.count }
}
