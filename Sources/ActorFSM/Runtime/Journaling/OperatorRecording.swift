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

    /// What became of an act.
    struct Written {
        /// The write's index; 0 if nothing was written (the machine was resumed first, or it
        /// ended, or its journal writes nothing more).
        var index: UInt64
        /// For a cancel: the journal ticket of the cancelling event, written as an event to
        /// process next with the cancel's entry, if it is to be sent; 0 if the machine ends.
        var cancellingTicket: UInt64 = 0
        /// Whether the machine ended, or a cancel took the act's place, before it was written.
        var isOvertaken = false

        /// Nothing written: the machine ended, or a cancel came first.
        static var overtaken: Written { Written(index: 0, isOvertaken: true) }
    }

    /// The act waiting to be written.
    var pending: Pending?
    /// Whether a cancel is under way: from its request until it has sent its event or stopped
    /// the machine. The machine stays paused meanwhile, and takes no other cancel.
    var isCancelling = false
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
