/// A durable machine's pause as its journal records it. The pause's entry is written once the
/// machine has no event in progress (the transition in progress completes first, and its entry
/// comes before the pause's); the resume's right away, before any event's.
@usableFromInline
struct PauseRecording {
    /// The operator's reason, while the pause waits to be written.
    var pendingReason: String?
    /// Whether the journal holds the pause: the resume is then written too.
    var isWritten = false
    /// Callers waiting for the pause's entry to be handed to the journal: resumed with the
    /// write's index, or 0 if nothing was written (the machine was resumed first, or it ended).
    var waiters: [CheckedContinuation<UInt64, Never>] = []

    /// Answers the waiters with `index`.
    mutating func finish(_ index: UInt64) {
        for waiter in waiters { waiter.resume(returning: index) }
        waiters = []
    }
}
