/// A durable machine's operator acts as its journal records them. An act's entry is written
/// once the machine has no event in progress (the transition in progress completes first, and
/// its entry comes before the act's); the resume's right away, before any event's.
@usableFromInline
struct OperatorRecording<Definition: MachineDefinition> {
    /// An act that waits for the machine to have no event in progress.
    struct Pending {
        var verb: OperatorVerb
        var reason: String
        /// For a cancel: the event to send the machine if its state handles it.
        var cancelling: Definition.Event?
    }

    /// What was written for an act: the write's index (0 if nothing was written: the machine
    /// was resumed first, or it ended), and, for a cancel, whether the cancelling event is to
    /// be sent (rather than the machine ended).
    struct Written {
        var index: UInt64
        var sends: Bool
    }

    /// The act waiting to be written.
    var pending: Pending?
    /// Whether the journal holds a pause: the resume is then written too.
    var isPauseWritten = false
    /// Callers waiting for the pending act's entry.
    var waiters: [CheckedContinuation<Written, Never>] = []

    /// Answers the waiters with `written`.
    mutating func finish(_ written: Written) {
        for waiter in waiters { waiter.resume(returning: written) }
        waiters = []
    }
}
